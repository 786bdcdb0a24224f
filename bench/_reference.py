"""Two scripted reference players for bench/bots.py: what a bot level means to a person.

"Easy", "Medium" and "Hard" mean nothing to somebody choosing an opponent unless they are
measured against players like them. These two are written apart from the bots' engine
(app/demon/rules/bot.py), on purpose: tuning a level must not move the yardstick it is
measured with. Like the bots, they decide from one seat's `SeatView` (what a person at
that seat can see) and a seeded generator, nothing else.

* **beginner**: about 12 actions a minute (one every 3.5 to 6.5 s), no lookahead, and each
  play on offer is missed with probability 1/3 at every look. Plays whatever it noticed,
  in no particular order; draws when it noticed nothing; turns the waste over only when
  the last pass through the stock changed something; otherwise gives up.
* **club**: about 25 actions a minute (one every 1.8 to 3.0 s), misses one play in ten.
  Foundations first (lowest card first), then plays that turn a face-down card up
  (deepest pile first), then the waste onto a pile, then draw. Remembers the cards that
  went by in its waste: turns it over again while the last pass changed something or
  one of those cards has since become playable.

"Plays on offer" are those a person counts as plays: any card to a foundation, the waste
onto a pile, and a whole face-up run moved off face-down cards (a king into an empty pile
included). Shuffles that change nothing a person cares about (a run moved off an empty
spot, part of a run) are not.

When either gives up it lets the bots play the round out (the "let the bots finish"
choice a stuck person has in a practice round, docs/rules.md), so the bench compares
cards home at the round's natural end.

How a reference player plays (pace, misses, order, memory) is shared with Nerts' in
bench/_reference_play.py; what is here is what a Demon player counts as a play.
"""

from __future__ import annotations

from _reference_play import Reference, ReferenceGame, ReferenceMemory, reference_pace, reference_step

from app.common.bots import Decision, rand
from app.common.cards import Card
from app.common.rng import SplitMix64
from app.demon.rules.actions import DemonAction, Draw, Recycle, ToFoundation, ToTableau
from app.demon.rules.view import SeatView

__all__ = ["REFERENCES", "Reference", "ReferenceMemory", "reference_decide", "reference_pace"]


REFERENCES: dict[str, Reference] = {
    "beginner": Reference("beginner", pace_s=(3.5, 6.5), miss=1 / 3, ordered=False, remembers=False),
    "club": Reference("club", pace_s=(1.8, 3.0), miss=0.10, ordered=True, remembers=True),
}


def _shape(view: SeatView) -> tuple[object, ...]:
    return (view.stock + view.waste_count, view.home, tuple((p.down, len(p.up)) for p in view.tableau))


def _priority(view: SeatView, ref: Reference, a: DemonAction) -> float | None:
    """How a club player ranks a play (higher first), or None when a person would not
    count it as a play at all."""
    if isinstance(a, ToFoundation):
        card = view.waste[-1] if isinstance(a.src, str) else view.tableau[a.src].up[-1]
        return 300.0 - card.rank
    if isinstance(a, ToTableau):
        if isinstance(a.src, str):
            return 100.0
        pile = view.tableau[a.src]
        if a.count == len(pile.up) and pile.down:
            return 200.0 + pile.down
    return None


def _playable(view: SeatView, card: Card) -> bool:
    for f in view.foundations:
        if f.top.suit == card.suit and f.top.rank + 1 == card.rank:
            return True
    if card.rank == 1:
        return True
    for p in view.tableau:
        top = p.up[-1] if p.up else None
        if top is None and not p.down and card.rank == 13:
            return True
        if top is not None and top.rank == card.rank + 1 and top.is_red != card.is_red:
            return True
    return False


def _pick(rng: SplitMix64, n: int) -> int:
    return int(rand(rng) * n)


DEMON = ReferenceGame(draw=Draw, recycle=Recycle, rank_of=_priority, shape=_shape, could_use=_playable, pick=_pick)


def reference_decide(view: SeatView, ref: Reference, memory: ReferenceMemory, rng: SplitMix64) -> Decision[DemonAction]:
    """The reference player's next step; `vote_end` True when it gives up."""
    return reference_step(DEMON, view, ref, memory, rng)
