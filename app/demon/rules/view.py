"""What one Demon seat may see, as a type: the only input a bot's decision gets.

Why a separate type rather than handing the bot the `DemonRound`: a bot that can read the
round can read face-down cards and the stock order, and nothing but discipline would stop
a "clever" heuristic from doing so. A `SeatView` simply does not hold them: its piles
carry a face-down *count*, its stock is a *count*, and only the top three waste cards
(what the table shows) are in it. The legal actions are included because they depend
only on visible cards (the waste top, the face-up runs, whether the stock is empty).

`seat_view(round_, seat)` is the only way to build one from a round. It reuses the
round's own immutable tuples (a pile's face-up cards are already a tuple of `Card`), the
engine's legal actions (the same tuple while they are the same) and the pile views the
round's `RoundAnalysis` keeps per tableau, so a view of an eight-seat table costs a
handful of small allocations, not a few hundred. The parts are named tuples rather than
frozen dataclasses for the same reason: a view is built on the event loop before every
bot decision, and they are several times cheaper to make.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from app.common.bots import FoundationView
from app.common.cards import Card
from app.demon.rules.actions import DemonAction
from app.demon.rules.layout import PileView
from app.demon.rules.round import DemonRound

__all__ = ["FoundationView", "OtherSeatView", "PileView", "SeatView", "seat_view"]

WASTE_SHOWN = 3  # as many waste cards as the table (and the room's seat view) shows


class OtherSeatView(NamedTuple):
    """Another seat's layout as the table shows it (its cards home included)."""

    seat: int
    tableau: tuple[PileView, ...]
    stock: int
    waste: tuple[Card, ...]  # at most the top three, top last
    waste_count: int
    home: int  # its cards on the foundations
    absent: bool


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything one seat may see, and nothing else."""

    seat: int
    players: int
    tableau: tuple[PileView, ...]
    stock: int  # own stock count; never its order
    waste: tuple[Card, ...]  # own waste cards on view: at most the top three, top last
    waste_count: int
    foundations: tuple[FoundationView, ...]  # in the round's pile order (indices match)
    others: tuple[OtherSeatView, ...]  # every other seat, in seat order
    legal: tuple[DemonAction, ...]  # the engine's legal actions for this seat
    absent: frozenset[int]
    stuck: bool  # the room's public rule-16 flag for this seat
    home: int = 0  # own cards on the foundations
    started: bool = True  # the signal has been given (rule 4)
    ended: bool = False


def seat_view(round_: DemonRound, seat: object, *, stuck: bool = False) -> SeatView:
    """The view of `seat` in `round_`. `stuck` is the room's public stuck flag for the seat
    (the room shows it only once the seat has been through its stock; the engine's exact
    answer would leak the stock order before that, so the room passes it in)."""
    if type(seat) is not int or not (0 <= seat < len(round_.seats)):
        raise ValueError(f"there is no seat {seat!r} (seats 0..{len(round_.seats) - 1})")
    homes = round_.foundation_counts()
    absent = round_.absent
    others = []
    for s, st in enumerate(round_.seats):
        if s == seat:
            continue
        others.append(
            OtherSeatView(
                s,
                round_.analysis.pile_view(s, st.tableau),
                len(st.stock),
                st.waste[-WASTE_SHOWN:],
                len(st.waste),
                homes[s],
                s in absent,
            )
        )
    own = round_.seats[seat]
    return SeatView(
        seat=seat,
        players=len(round_.seats),
        tableau=round_.analysis.pile_view(seat, own.tableau),
        stock=len(own.stock),
        waste=own.waste[-WASTE_SHOWN:],
        waste_count=len(own.waste),
        foundations=tuple(FoundationView(p[-1][0], p[-1][1], len(p)) for p in round_.foundations),
        others=tuple(others),
        legal=round_.legal_actions(seat),
        absent=absent,
        stuck=bool(stuck),
        home=homes[seat],
        started=round_.started,
        ended=round_.end is not None,
    )
