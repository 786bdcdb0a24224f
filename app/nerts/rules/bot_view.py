"""What one Nerts seat may see, as a type: the only input a Nerts bot's decision gets.

Why a type rather than handing the bot the `NertsRound` (the reason of Demon's
`app.demon.rules.view`): a bot that can read the round can read the Nerts pile's
face-down cards and the stock order, and only discipline would stop a heuristic from
doing so. A `NertsSeatView` cannot hold them: the Nerts pile is its top card and a
count, the stock is a count, and of the waste only the cards a draw lays open (three
under draw three, one under draw one, H2) are in it, as the table shows them
(`app.nerts.rules.view`). Work piles are all face up (N6), so they are there whole.
The legal actions are included because they depend only on visible cards (the tops of
the Nerts pile, the waste and the work piles, and whether the stock is empty).

`seat_view(round_, seat, stuck=...)` is the only way to build one from a round. The
parts are named tuples, as in Demon's view: a view is built before every bot decision
and they are cheap to make.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from app.common.cards import Card
from app.nerts.rules.actions import NertsAction
from app.nerts.rules.options import NertsOptions
from app.nerts.rules.round import NertsRound

__all__ = ["FoundationView", "NertsSeatView", "OtherSeatView", "seat_view"]

Work = tuple[tuple[Card, ...], ...]


class FoundationView(NamedTuple):
    """A public foundation pile: its top card, the seat that put it there, its height."""

    top: Card
    owner: int
    count: int  # type: ignore[assignment]  # the pile's height; shadows tuple.count, which no caller uses


class OtherSeatView(NamedTuple):
    """Another seat's layout as the table shows it."""

    seat: int
    nerts_top: Card | None
    nerts_count: int
    work: Work  # four piles, bottom first, all face up
    waste: tuple[Card, ...]  # the cards on view (at most options.draw), top last
    waste_count: int
    stock: int
    home: int  # its cards on the foundations
    absent: bool


@dataclass(frozen=True, slots=True)
class NertsSeatView:
    """Everything one Nerts seat may see, and nothing else."""

    seat: int
    players: int
    nerts_top: Card | None  # the Nerts pile's face-up top; the rest of the pile is a count
    nerts_count: int
    work: Work  # own four work piles, bottom first
    stock: int  # own stock count; never its order
    waste: tuple[Card, ...]  # own waste cards on view: at most options.draw, top last
    waste_count: int
    foundations: tuple[FoundationView, ...]  # in the round's pile order (indices match)
    others: tuple[OtherSeatView, ...]  # every other seat, in seat order
    legal: tuple[NertsAction, ...]  # the engine's legal actions for this seat
    absent: frozenset[int]
    stuck: bool  # the room's public stuck flag (N12) for this seat
    home: int = 0  # own cards on the foundations
    started: bool = True
    ended: bool = False
    options: NertsOptions = field(default_factory=NertsOptions)


def seat_view(round_: NertsRound, seat: object, *, stuck: bool = False) -> NertsSeatView:
    """The view of `seat` in `round_`. `stuck` is the room's public stuck flag for the
    seat: the engine's exact N12 answer depends on the stock order, so the room decides
    when it may be shown and passes it in."""
    if type(seat) is not int or not (0 <= seat < len(round_.seats)):
        raise ValueError(f"there is no seat {seat!r} (seats 0..{len(round_.seats) - 1})")
    shown = round_.options.draw
    homes = round_.foundation_counts()
    absent = round_.absent
    others = tuple(
        OtherSeatView(
            s,
            st.nerts[-1] if st.nerts else None,
            len(st.nerts),
            st.work,
            st.waste[-shown:] if st.waste else (),
            len(st.waste),
            len(st.stock),
            homes[s],
            s in absent,
        )
        for s, st in enumerate(round_.seats)
        if s != seat
    )
    own = round_.seats[seat]
    return NertsSeatView(
        seat=seat,
        players=len(round_.seats),
        nerts_top=own.nerts[-1] if own.nerts else None,
        nerts_count=len(own.nerts),
        work=own.work,
        stock=len(own.stock),
        waste=own.waste[-shown:] if own.waste else (),
        waste_count=len(own.waste),
        foundations=tuple(FoundationView(p[-1][0], p[-1][1], len(p)) for p in round_.foundations),
        others=others,
        legal=round_.legal_actions(seat),
        absent=absent,
        stuck=bool(stuck),
        home=homes[seat],
        started=round_.started,
        ended=round_.end is not None,
        options=round_.options,
    )
