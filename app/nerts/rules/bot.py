"""Nerts computer players: three levels and the decision function.

The same interface as Demon's bots (`app.demon.rules.bot`: `LEVELS`, `level`,
`BotMemory`, `Decision`, `decide`, `think_time`), so that the room's bot driver calls
either game's bots the same way. A bot is a function of one seat's view
(`app.nerts.rules.bot_view.NertsSeatView`), a level, a small memory of its own past and
a seeded generator. It never sees the round, so it cannot read the Nerts pile's
face-down cards or the stock order: the type does not hold them.

What a good Nerts player does, and so what the scores say
--------------------------------------------------------
The round is a race to empty the 13-card Nerts pile (N11), and every card left in it
costs two points (N14). So: play the Nerts top first (to a foundation, else onto a work
pile); keep the work piles ready for it (a pile emptied, by playing its last card home
or moving it whole onto another pile, takes the Nerts top at once: N7); go first for a
foundation spot another seat could also take (each seat has its own deck, so the other
seat's 5H wants the same pile as ours); draw through the stock when nothing else helps.

How a decision is made
----------------------
1. Every legal action that can help is a *candidate* with a score (`_score`). Moves that
   only shuffle cards around are never candidates: a pile onto an empty pile, a part of a
   run that frees nothing for the foundations, the waste onto an empty pile (that spot is
   the Nerts top's). At most `MAX_SHUFFLES` moves between work piles are made between two
   steps of progress (a card home, a card off the Nerts pile or the waste), so a bot
   cannot go back and forth.
2. Each candidate is *overlooked* with the level's probability (a person misses plays).
3. The best score plus the level's random spread wins. Draw and recycle are the
   fallbacks; recycle only when the memory says another pass can help (the last pass
   changed the layout, a play was overlooked, or a card seen go by is now wanted).
4. When nothing can help, the bot does nothing and votes to end the round (`vote_end`);
   also whenever the room shows it stuck (N12's public flag). A play it overlooked just
   now is not "nothing" for a level that `rechecks`: then it waits and looks again.
   Every decision that plays has `vote_end` False: whoever holds its vote drops it.

The engine stays pure: no clock (the room turns `think_time` into a timer), no global
random (the caller passes a `SplitMix64`, so a seeded bot round replays exactly).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.common.cards import Card, CardError
from app.common.checks import is_int
from app.common.rng import SplitMix64
from app.nerts.rules.actions import NERTS, WASTE, Draw, NertsAction, Recycle, ToFoundation, ToWork
from app.nerts.rules.bot_view import NertsSeatView

__all__ = ["LEVELS", "MAX_HOPE", "MAX_SHUFFLES", "BotLevel", "BotMemory", "Decision", "decide", "level", "think_time"]

# Moves from one work pile to another allowed between two steps of progress (a card home,
# off the Nerts pile or off the waste). Emptying a pile for the Nerts top takes one, freeing
# a card for the foundations one more; three is room to spare, and a bound on any loop.
MAX_SHUFFLES = 3
# Passes in a row that changed nothing a bot makes on hope alone (a play it missed, a card
# it saw go by that is playable now), beyond its level's patience: a bound on turning the
# stock over for nothing.
MAX_HOPE = 2


@dataclass(frozen=True)
class BotLevel:
    """The knobs that make levels feel different (published in docs/bots.md).

    reaction_s: think time range (seconds) before acting; `think_time` draws from it with
        a human-like hump in the middle, never 0.
    overlook: probability that each available play is missed at one decision.
    move_overlook: a further chance of missing a move from one work pile to another, on
        top of `overlook` (a beginner sees the cards that go home and the waste first).
    noise: random spread added to each candidate's score (0 = always the best one); the
        scores are about ten apart, so 40 is close to choosing at random.
    nerts: bonus for a play of the Nerts top (the race is to empty that pile).
    space: bonus for a play that makes room for the Nerts top: a work pile emptied, or
        (with `lookahead`) a card laid open or put down on which the Nerts top fits.
    race: bonus for a foundation play another seat could also make now (the same card
        is on view and playable in its layout): a race the bot can still win.
    waste: bonus for taking the waste top (keeps the stock moving: a card taken off the
        waste changes which cards the next pass shows).
    lookahead: whether it sees two-step plays: a part of a run moved to free a card for
        the foundations; a card played home or put down so the Nerts top fits.
    remembers: whether it keeps in mind the cards it saw go by in its waste, so that it
        turns the waste over again when one of them has become playable.
    patience: extra idle passes through the stock it makes before it gives up.
    keeps_spaces: whether it keeps an empty work pile for the Nerts top; without it, the
        waste top may go there too (a beginner's way: a card is a card).
    rechecks: whether a play it overlooked is a reason to look again (a pass with a miss
        is worth another; with nothing seen, it waits rather than gives up). Without it,
        what it did not see is not there, as for a beginner.
    """

    name: str
    reaction_s: tuple[float, float]
    overlook: float
    move_overlook: float = 0.0
    noise: float = 0.0
    nerts: float = 0.0
    space: float = 0.0
    race: float = 0.0
    waste: float = 0.0
    lookahead: bool = False
    remembers: bool = False
    patience: int = 0
    rechecks: bool = True
    keeps_spaces: bool = True

    def __post_init__(self) -> None:
        lo, hi = self.reaction_s
        if not (0 < lo <= hi):
            raise ValueError(f"reaction_s must be 0 < low <= high, not {self.reaction_s!r}")
        if not (0.0 <= self.overlook < 1.0):
            raise ValueError(f"overlook must be in [0, 1), not {self.overlook!r}")
        if not (0.0 <= self.move_overlook < 1.0):
            raise ValueError(f"move_overlook must be in [0, 1), not {self.move_overlook!r}")
        if self.patience < 0 or self.noise < 0:
            raise ValueError("patience and noise must not be negative")


LEVELS: dict[str, BotLevel] = {
    "easy": BotLevel(
        "easy",
        reaction_s=(4.0, 8.0),
        overlook=0.90,
        move_overlook=0.95,
        noise=40.0,
        keeps_spaces=False,
        rechecks=False,
    ),
    "medium": BotLevel(
        "medium",
        reaction_s=(1.6, 2.8),
        overlook=0.15,
        noise=10.0,
        nerts=10.0,
        space=5.0,
        waste=5.0,
        remembers=True,
    ),
    "hard": BotLevel(
        "hard",
        reaction_s=(0.4, 0.8),
        overlook=0.02,
        noise=1.0,
        nerts=20.0,
        space=15.0,
        race=20.0,
        waste=5.0,
        lookahead=True,
        remembers=True,
    ),
}


def level(name: Any) -> BotLevel:
    """The level called `name`; a clear error for anything else."""
    if not isinstance(name, str) or name not in LEVELS:
        raise ValueError(f"unknown bot level {name!r}; expected one of {', '.join(LEVELS)}")
    return LEVELS[name]


# Base scores. The Nerts top first (home, then onto a pile), then other cards home (a
# point each), then emptying a pile for the Nerts top, then freeing a card for home, then
# the waste onto a pile; a draw is what one does when nothing else helps.
_NERTS_HOME = 60.0
_NERTS_WORK = 55.0
_HOME = 50.0
_EMPTY_PILE = 40.0
_FREE_FOR_HOME = 35.0
_OFF_WASTE = 30.0


@dataclass
class BotMemory:
    """What a bot keeps between decisions (JSON-serialisable; the room saves it with the seat).

    pass_sig: the seat's visible shape when its current pass through the stock began
        (stock + waste size, cards home, Nerts pile size, the work piles); a pass that
        ends with the same shape changed nothing.
    seen: the waste tops seen in this pass (the cards it could have played), as text.
    missed: it overlooked a play during this pass, so another pass may find it.
    idle_passes: passes in a row that changed nothing.
    progress: [cards home, Nerts pile size, stock + waste size] when `shuffles` was last
        reset; any change is progress.
    shuffles: moves between work piles made since the last progress (at most
        `MAX_SHUFFLES`).
    decisions: how many decisions it has made (for logs and tests).
    """

    pass_sig: list[object] | None = None
    seen: list[str] = field(default_factory=list)
    missed: bool = False
    idle_passes: int = 0
    progress: list[int] | None = None
    shuffles: int = 0
    decisions: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "pass_sig": self.pass_sig,
            "seen": list(self.seen),
            "missed": self.missed,
            "idle_passes": self.idle_passes,
            "progress": None if self.progress is None else list(self.progress),
            "shuffles": self.shuffles,
            "decisions": self.decisions,
        }

    @classmethod
    def from_json(cls, data: Any) -> BotMemory:
        """Inverse of to_json (a dict or its JSON text); ValueError on anything malformed,
        unknown keys included (a misspelt field must not silently reset the memory)."""
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as exc:
                raise ValueError(f"bot memory is not JSON: {exc}") from None
        if not isinstance(data, Mapping):
            raise ValueError("bot memory must be a JSON object")
        extra = set(data) - {"pass_sig", "seen", "missed", "idle_passes", "progress", "shuffles", "decisions"}
        if extra:
            raise ValueError(f"unknown bot memory key(s): {', '.join(sorted(map(repr, extra)))}")
        sig = data.get("pass_sig")
        seen = data.get("seen", [])
        missed = data.get("missed", False)
        progress = data.get("progress")
        if sig is not None and not isinstance(sig, list):
            raise ValueError("pass_sig must be a list or null")
        if not isinstance(seen, list) or not all(isinstance(c, str) for c in seen):
            raise ValueError("seen must be a list of card strings")
        try:
            for c in seen:
                Card.parse(c)
        except CardError as exc:
            raise ValueError(f"seen: {exc}") from None
        if not isinstance(missed, bool):
            raise ValueError("missed must be true or false")
        if progress is not None and (
            not isinstance(progress, list) or len(progress) != 3 or not all(is_int(v) and v >= 0 for v in progress)
        ):
            raise ValueError("progress must be null or three non-negative integers")
        counts = {}
        for name in ("idle_passes", "shuffles", "decisions"):
            value = data.get(name, 0)
            if not is_int(value) or value < 0:
                raise ValueError(f"{name} must be a non-negative integer")
            counts[name] = value
        return cls(
            sig,
            list(seen),
            missed,
            counts["idle_passes"],
            None if progress is None else list(progress),
            counts["shuffles"],
            counts["decisions"],
        )


@dataclass(frozen=True)
class Decision:
    """What a bot wants now (the meaning of Demon's `Decision`). With an action,
    `vote_end` is always False (a bot that can play is not stuck, so whoever holds its
    vote to end drops it). Without one: `vote_end` True means it is stuck and wants the
    round to end (wait for the table to change before asking again); False means nothing
    right now (ask again later)."""

    action: NertsAction | None  # what to play now; None = nothing to do now
    vote_end: bool  # the bot is stuck and wants the round to end


def _rand(rng: SplitMix64) -> float:
    """Uniform in [0, 1) from the top 53 bits."""
    return (rng.next_u64() >> 11) * (1.0 / (1 << 53))


def think_time(level: BotLevel, rng: SplitMix64) -> float:
    """Seconds before the next decision after something changed. The mean of two uniform
    draws over the level's range: a hump in the middle with the spread of a person, the
    ends rare; never below the range's (positive) low end."""
    lo, hi = level.reaction_s
    return lo + (hi - lo) * (_rand(rng) + _rand(rng)) / 2.0


# --------------------------------------------------------------------------- what the table shows


def _signature(view: NertsSeatView) -> list[object]:
    """The shape a pass is compared by; lists and strings, so it survives JSON."""
    return [view.stock + view.waste_count, view.home, view.nerts_count, [[str(c) for c in p] for p in view.work]]


def _progress_key(view: NertsSeatView) -> list[int]:
    return [view.home, view.nerts_count, view.stock + view.waste_count]


def _wanted(view: NertsSeatView) -> set[tuple[str, int]]:
    """(suit, rank) of the cards the foundations take now (aces always)."""
    out = {(s, 1) for s in "SHDC"}
    for f in view.foundations:
        if f.top.rank < 13:
            out.add((f.top.suit, f.top.rank + 1))
    return out


def _fits(card: Card, onto: Card | None) -> bool:
    """N6/N7: `card` may go on a work pile whose top is `onto` (None: an empty pile)."""
    if onto is None:
        return True
    return onto.rank == card.rank + 1 and onto.is_red != card.is_red


def _contested(view: NertsSeatView, wanted: set[tuple[str, int]]) -> set[tuple[str, int]]:
    """Cards other seats could play to the foundations right now (their Nerts tops, waste
    tops and work pile tops that a foundation takes): a race the bot can still win."""
    out: set[tuple[str, int]] = set()
    for o in view.others:
        if o.absent:
            continue
        tops = [p[-1] for p in o.work if p]
        if o.nerts_top is not None:
            tops.append(o.nerts_top)
        if o.waste:
            tops.append(o.waste[-1])
        for c in tops:
            key = (c.suit, c.rank)
            if c.rank > 1 and key in wanted:  # an ace always has a place: no race
                out.add(key)
    return out


def _source_card(view: NertsSeatView, src: object) -> Card:
    if src == NERTS:
        assert view.nerts_top is not None  # the engine offers a Nerts play only then
        return view.nerts_top
    if src == WASTE:
        return view.waste[-1]
    assert isinstance(src, int)
    return view.work[src][-1]


def _score(
    view: NertsSeatView,
    lv: BotLevel,
    a: NertsAction,
    memory: BotMemory,
    contested: set[tuple[str, int]],
    wanted: set[tuple[str, int]],
) -> float | None:
    """How good `a` is for this level, or None when it cannot help (never a candidate)."""
    top = view.nerts_top
    if isinstance(a, ToFoundation):
        card = _source_card(view, a.src)
        if a.src == NERTS:
            s = _NERTS_HOME + lv.nerts
        elif a.src == WASTE:
            s = _HOME + lv.waste
        else:
            assert isinstance(a.src, int)
            pile = view.work[a.src]
            s = _HOME
            # Room for the Nerts top: the pile empties, or the card laid open takes it.
            if len(pile) == 1 or (lv.lookahead and top is not None and _fits(top, pile[-2])):
                s += lv.space
        if (card.suit, card.rank) in contested:
            s += lv.race
        return s - card.rank * 0.1  # low cards first: they open the way for others
    if not isinstance(a, ToWork):
        return None
    dst_top = view.work[a.dst][-1] if view.work[a.dst] else None
    if a.src == NERTS:
        return _NERTS_WORK + lv.nerts + (1.0 if dst_top is not None else 0.0)  # keep an empty pile if it can
    if a.src == WASTE:
        if dst_top is None and lv.keeps_spaces:  # an empty pile is the Nerts top's
            return None
        s = _OFF_WASTE + lv.waste
        if lv.lookahead and top is not None and _fits(top, view.waste[-1]):
            s += lv.space
        return s
    assert isinstance(a.src, int)
    if dst_top is None or memory.shuffles >= MAX_SHUFFLES:
        return None
    pile = view.work[a.src]
    if a.count == len(pile):  # a whole pile onto another: room for the Nerts top
        return _EMPTY_PILE + lv.space
    if not lv.lookahead:
        return None
    freed = pile[-a.count - 1]
    if (freed.suit, freed.rank) in wanted:
        return _FREE_FOR_HOME
    return None


def _recycle_helps(view: NertsSeatView, memory: BotMemory, lv: BotLevel, wanted: set[tuple[str, int]]) -> bool:
    """Whether another pass through the stock can bring something (what a person thinks
    before turning the waste over): the last pass changed the layout; or, for at most
    `MAX_HOPE` passes in a row that changed nothing (plus the level's patience), a play
    was missed in it or a card seen go by is now wanted by the foundations or fits a
    work pile. The bound makes sure a bot that keeps missing a play stops turning."""
    if memory.pass_sig != _signature(view):
        return True
    if memory.idle_passes >= MAX_HOPE + lv.patience:
        return False
    if memory.missed and lv.rechecks:
        return True
    tops = [p[-1] for p in view.work if p]
    for text in memory.seen if lv.remembers else ():
        c = Card.parse(text)
        if (c.suit, c.rank) in wanted or any(_fits(c, t) for t in tops):
            return True
    return memory.idle_passes < lv.patience


def _start_pass(view: NertsSeatView, memory: BotMemory, idle: bool) -> None:
    memory.idle_passes = memory.idle_passes + 1 if idle else 0
    memory.pass_sig = _signature(view)
    memory.seen = []
    memory.missed = False


def decide(view: NertsSeatView, level: BotLevel, memory: BotMemory, rng: SplitMix64) -> Decision:
    """The bot's next step from what its seat sees. Pure apart from updating `memory`
    (and advancing `rng`): the same view, memory and generator state give the same answer."""
    memory.decisions += 1
    if not view.started or view.ended or view.seat in view.absent:
        return Decision(None, False)
    if not view.legal:  # nothing to draw, recycle or move: stuck for good
        return Decision(None, True)
    fresh = memory.pass_sig is None
    if fresh:  # the first pass begins with the first decision
        _start_pass(view, memory, idle=False)
    key = _progress_key(view)
    if memory.progress != key:
        memory.progress, memory.shuffles = key, 0
    if view.waste:
        top = str(view.waste[-1])
        if top not in memory.seen:
            memory.seen.append(top)
    wanted = _wanted(view)
    contested = _contested(view, wanted) if level.race else set()
    best: NertsAction | None = None
    best_score = 0.0
    fallback: NertsAction | None = None
    overlooked = False
    for a in view.legal:
        if isinstance(a, (Draw, Recycle)):
            fallback = a
            continue
        s = _score(view, level, a, memory, contested, wanted)
        if s is None:
            continue
        miss = level.overlook
        if level.move_overlook and isinstance(a, ToWork) and isinstance(a.src, int):
            miss = 1.0 - (1.0 - miss) * (1.0 - level.move_overlook)
        if miss and _rand(rng) < miss:
            memory.missed = overlooked = True
            continue
        if level.noise:
            s += level.noise * _rand(rng)
        if best is None or s > best_score:
            best, best_score = a, s
    if best is not None:  # any play it noticed beats drawing: misses come from `overlook`
        if isinstance(best, ToWork) and isinstance(best.src, int):
            memory.shuffles += 1
        return Decision(best, False)
    if view.stuck:  # the room says no sequence of own moves can help: stop and vote
        return Decision(None, True)
    if isinstance(fallback, Draw):
        return Decision(fallback, False)
    if isinstance(fallback, Recycle) and (fresh or _recycle_helps(view, memory, level, wanted)):
        idle = not fresh and memory.pass_sig == _signature(view)
        _start_pass(view, memory, idle)
        return Decision(fallback, False)
    if overlooked and level.rechecks:  # a play is there, it did not see it this time
        return Decision(None, False)
    return Decision(None, True)
