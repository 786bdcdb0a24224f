"""Two scripted Nerts reference players for `bench/bots.py --game nerts`: what a bot level
means to a person.

Written apart from the bots (app/nerts/rules/bot.py) on purpose, as Demon's
`bench/_reference.py` is: tuning a level must not move the yardstick it is measured
with. They share only the engine's actions and the seat view (`NertsSeatView`: what a
person at that seat can see) with the bots, and decide from it and a seeded generator.

* **beginner**: about 12 actions a minute (one every 3.5 to 6.5 s); each play on offer
  is missed with probability 1/3 at every look. Plays whatever it noticed, in no
  particular order (the Nerts pile is just another place cards come from); draws when it
  noticed nothing; turns the waste over only when the last pass through the stock
  changed something; otherwise gives up. Plays on offer: any card to a foundation, the
  Nerts top onto a work pile, the waste top onto a work pile (an empty one too). It
  never moves cards between its work piles.
* **club**: about 25 actions a minute (one every 1.8 to 3.0 s), misses one play in ten.
  In this order: the Nerts top home, the Nerts top onto a work pile (one with cards
  before an empty one), other cards home (lowest first), a whole work pile onto
  another (to empty a spot for the Nerts pile), the waste onto a work pile with cards,
  then draw. Remembers the cards that went by in its waste and turns it over again while
  the last pass changed something or one of those cards has since become playable.

Neither can loop: every play but a whole pile moved onto another takes a card off the
Nerts pile, the waste or the layout, and that move leaves one pile fewer with cards
(nothing they do fills an empty pile but the Nerts top or the waste).

When either gives up it votes to end the round; the bench plays the round to its end
(the other seat may still go out), so rounds are compared by their N14 scores.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from app.common.cards import Card
from app.common.rng import SplitMix64
from app.nerts.rules.actions import NERTS, WASTE, Draw, NertsAction, Recycle, ToFoundation, ToWork
from app.nerts.rules.bot_view import NertsSeatView

__all__ = ["REFERENCES", "Reference", "ReferenceMemory", "ReferenceStep", "reference_decide", "reference_pace"]


@dataclass(frozen=True)
class Reference:
    name: str
    pace_s: tuple[float, float]  # seconds per action, uniform in this range
    miss: float  # each play on offer missed at one look
    ordered: bool  # plays by priority (club) or at random among those seen (beginner)
    remembers: bool  # recycles when a card that went by has become playable
    shifts_piles: bool  # moves a whole work pile onto another to empty a spot


REFERENCES: dict[str, Reference] = {
    "beginner": Reference("beginner", (3.5, 6.5), miss=1 / 3, ordered=False, remembers=False, shifts_piles=False),
    "club": Reference("club", (1.8, 3.0), miss=0.10, ordered=True, remembers=True, shifts_piles=True),
}


class ReferenceStep(NamedTuple):
    """What the player does now: an action, or none and whether it gives up (votes)."""

    action: NertsAction | None
    vote_end: bool


@dataclass
class ReferenceMemory:
    pass_shape: tuple[object, ...] | None = None
    went_by: list[Card] = field(default_factory=list)


def _coin(rng: SplitMix64) -> float:
    return (rng.next_u64() >> 11) / float(1 << 53)


def reference_pace(ref: Reference, rng: SplitMix64) -> float:
    lo, hi = ref.pace_s
    return lo + (hi - lo) * _coin(rng)


def _shape(v: NertsSeatView) -> tuple[object, ...]:
    return (v.stock + v.waste_count, v.home, v.nerts_count, v.work)


def _goes_on(card: Card, pile: tuple[Card, ...]) -> bool:
    if not pile:
        return True
    under = pile[-1]
    return under.rank - 1 == card.rank and under.is_red is not card.is_red


def _could_use(v: NertsSeatView, card: Card) -> bool:
    """A card that went by in the waste could be played now (home, or onto a pile with cards)."""
    if card.rank == 1 or any(f.top.suit == card.suit and f.top.rank == card.rank - 1 for f in v.foundations):
        return True
    return any(p and _goes_on(card, p) for p in v.work)


def _rank_of_play(v: NertsSeatView, ref: Reference, a: NertsAction) -> float | None:
    """How this player ranks a play (higher first), or None if it does not count it as one."""
    if isinstance(a, ToFoundation):
        if a.src == NERTS:
            return 400.0
        card = v.waste[-1] if a.src == WASTE else v.work[a.src][-1]  # type: ignore[index]
        return 300.0 - card.rank
    if not isinstance(a, ToWork):
        return None
    onto_empty = not v.work[a.dst]
    if a.src == NERTS:
        return 349.0 if onto_empty else 350.0
    if a.src == WASTE:
        if onto_empty and ref.shifts_piles:  # a club player keeps empty spots for the Nerts pile
            return None
        return 100.0
    if ref.shifts_piles and not onto_empty and a.count == len(v.work[a.src]):  # type: ignore[index]
        return 200.0
    return None


def reference_decide(v: NertsSeatView, ref: Reference, memory: ReferenceMemory, rng: SplitMix64) -> ReferenceStep:
    """The reference player's next step; `vote_end` True when it gives up."""
    if not v.started or v.ended or v.seat in v.absent:
        return ReferenceStep(None, False)
    if memory.pass_shape is None:
        memory.pass_shape = _shape(v)
    if v.waste and v.waste[-1] not in memory.went_by:
        memory.went_by.append(v.waste[-1])
    noticed: list[tuple[float, NertsAction]] = []
    turn: NertsAction | None = None
    for a in v.legal:
        if isinstance(a, (Draw, Recycle)):
            turn = a
            continue
        rank = _rank_of_play(v, ref, a)
        if rank is not None and _coin(rng) >= ref.miss:
            noticed.append((rank, a))
    if noticed:
        if ref.ordered:
            return ReferenceStep(max(noticed, key=lambda ra: ra[0])[1], False)
        return ReferenceStep(noticed[rng.below(len(noticed))][1], False)
    if isinstance(turn, Draw):
        return ReferenceStep(turn, False)
    if isinstance(turn, Recycle):
        changed = memory.pass_shape != _shape(v)
        if changed or (ref.remembers and any(_could_use(v, c) for c in memory.went_by)):
            memory.pass_shape = _shape(v)
            memory.went_by = []
            return ReferenceStep(turn, False)
    return ReferenceStep(None, True)
