"""How a scripted reference player plays, for both games' reference players
(bench/_reference.py for Demon, bench/_nerts_reference.py for Nerts).

A reference player is a person measured: a pace, a chance to miss each play on offer,
an order of preference (or none: a beginner plays whatever it noticed) and a memory of
the cards that went by in its waste. That frame is the same in both games; what a game
gives it (`ReferenceGame`) is what counts as a play there and how it ranks one, the
shape of the layout a pass through the stock is compared by, and whether a card that
went by could be played now. It shares nothing with the bots' levels, on purpose:
tuning a level must not move the yardstick it is measured with. Its only randomness is
the seat's `SplitMix64`, drawn in the order the players always drew it, so a seeded
bench run gives the same figures.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.common.bots import Decision, rand
from app.common.cards import Card
from app.common.rng import SplitMix64

__all__ = ["Reference", "ReferenceGame", "ReferenceMemory", "reference_pace", "reference_step"]


@dataclass(frozen=True)
class Reference:
    name: str
    pace_s: tuple[float, float]  # seconds per action, uniform in this range
    miss: float  # each play on offer missed at one look
    ordered: bool  # plays by priority (club) or at random among those seen (beginner)
    remembers: bool  # recycles when a card that went by has become playable
    shifts_piles: bool = False  # Nerts: moves a whole work pile onto another to empty a spot


@dataclass
class ReferenceMemory:
    pass_shape: tuple[object, ...] | None = None
    seen: list[Card] = field(default_factory=list)  # the waste tops that went by this pass


@dataclass(frozen=True)
class ReferenceGame:
    """What one game tells the reference player (the view is that game's seat view)."""

    draw: type  # the game's Draw action
    recycle: type  # the game's Recycle action
    rank_of: Callable[[Any, Reference, Any], float | None]  # a play's rank (higher first), None: not a play
    shape: Callable[[Any], tuple[object, ...]]  # the layout a pass is compared by
    could_use: Callable[[Any, Card], bool]  # a card that went by could be played now
    pick: Callable[[SplitMix64, int], int]  # a beginner's choice among n plays it noticed


def reference_pace(ref: Reference, rng: SplitMix64) -> float:
    """Seconds until its next action: uniform over the player's pace."""
    lo, hi = ref.pace_s
    return lo + (hi - lo) * rand(rng)


def reference_step(
    game: ReferenceGame, view: Any, ref: Reference, memory: ReferenceMemory, rng: SplitMix64
) -> Decision[Any]:
    """The reference player's next step; `vote_end` True when it gives up."""
    if not view.started or view.ended or view.seat in view.absent:
        return Decision(None, False)
    if memory.pass_shape is None:
        memory.pass_shape = game.shape(view)
    if view.waste and view.waste[-1] not in memory.seen:
        memory.seen.append(view.waste[-1])
    noticed: list[tuple[float, Any]] = []
    turn: Any = None
    for a in view.legal:
        if isinstance(a, (game.draw, game.recycle)):
            turn = a
            continue
        rank = game.rank_of(view, ref, a)
        if rank is not None and rand(rng) >= ref.miss:
            noticed.append((rank, a))
    if noticed:
        if ref.ordered:
            return Decision(max(noticed, key=lambda ra: ra[0])[1], False)
        return Decision(noticed[game.pick(rng, len(noticed))][1], False)
    if isinstance(turn, game.draw):
        return Decision(turn, False)
    if isinstance(turn, game.recycle):
        changed = memory.pass_shape != game.shape(view)
        if changed or (ref.remembers and any(game.could_use(view, c) for c in memory.seen)):
            memory.pass_shape = game.shape(view)
            memory.seen = []
            return Decision(turn, False)
    return Decision(None, True)
