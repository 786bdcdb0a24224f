"""What the racing games' computer players share: the scaffolding around `decide`.

Demon's bots (`app.demon.rules.bot`) and Nerts' (`app.nerts.rules.bot`) are different
players of different games, but the frame they are made in is one: a level is a set of
knobs checked the same way; a decision is an action or none and a vote to end
(`Decision`, in `app.common.decision`); every random draw comes from the caller's `SplitMix64` (`rand`), so a
seeded round replays; a person's pace is a hump-shaped think time over the level's
range (`think_time_in`); each play on offer is overlooked with the level's chance and
the rest get the level's random spread (`noticed`); the foundations, public to every
seat, are seen the same way (`FoundationView`, `wanted_cards`, `raced_cards`); and the
memory a room saves with a bot seat is read back from JSON with the same checks
(`memory_object`, `pass_fields`, `count_field`). What makes a game's bot play that game
(its scores, its view, its memory's own fields) stays in the game's module.

The Demon bot is compiled with mypyc (`app.support.native`), so this module is too and
stays fully typed; the order of the random draws here is the order the bots always made
them, so the same seed gives the same decisions and think times.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol, TypeVar

from app.common.cards import Card, CardError
from app.common.checks import is_int
from app.common.decision import Decision
from app.common.rng import SplitMix64

__all__ = [
    "Decision",
    "FoundationView",
    "Knobs",
    "PassMemory",
    "check_knobs",
    "choose",
    "count_field",
    "memory_object",
    "miss_chance",
    "named_level",
    "noticed",
    "pass_fields",
    "raced_cards",
    "rand",
    "saw_waste_top",
    "start_pass",
    "think_time_in",
    "wanted_cards",
]

ActionT = TypeVar("ActionT")
LevelT = TypeVar("LevelT")


class FoundationView(NamedTuple):
    """A public foundation pile: its top card, the seat that put it there, its height."""

    top: Card
    owner: int
    count: int  # type: ignore[assignment]  # the pile's height; shadows tuple.count, which no caller of a view uses


def rand(rng: SplitMix64) -> float:
    """Uniform in [0, 1) from the top 53 bits."""
    return (rng.next_u64() >> 11) * (1.0 / (1 << 53))


def think_time_in(reaction_s: tuple[float, float], rng: SplitMix64) -> float:
    """Seconds before the next decision after something changed. The mean of two uniform
    draws over the level's range: a hump in the middle with the spread of a person, the
    ends rare; never below the range's (positive) low end."""
    lo, hi = reaction_s
    return lo + (hi - lo) * (rand(rng) + rand(rng)) / 2.0


def check_knobs(
    reaction_s: tuple[float, float], overlook: float, move_overlook: float, patience: int, noise: float
) -> None:
    """The checks every level's knobs pass (a `BotLevel.__post_init__`); ValueError if not."""
    lo, hi = reaction_s
    if not (0 < lo <= hi):
        raise ValueError(f"reaction_s must be 0 < low <= high, not {reaction_s!r}")
    if not (0.0 <= overlook < 1.0):
        raise ValueError(f"overlook must be in [0, 1), not {overlook!r}")
    if not (0.0 <= move_overlook < 1.0):
        raise ValueError(f"move_overlook must be in [0, 1), not {move_overlook!r}")
    if patience < 0 or noise < 0:
        raise ValueError("patience and noise must not be negative")


def named_level(levels: Mapping[str, LevelT], name: object) -> LevelT:
    """The level called `name` in `levels`; a clear error for anything else."""
    if not isinstance(name, str) or name not in levels:
        raise ValueError(f"unknown bot level {name!r}; expected one of {', '.join(levels)}")
    return levels[name]


def miss_chance(overlook: float, move_overlook: float, between_piles: bool) -> float:
    """The chance a play is overlooked: `overlook`, and for a move between piles also
    `move_overlook` on top (a beginner sees the cards that go home, and the waste, first)."""
    if move_overlook and between_piles:
        return 1.0 - (1.0 - overlook) * (1.0 - move_overlook)
    return overlook


def noticed(score: float, miss: float, noise: float, rng: SplitMix64) -> float | None:
    """`score` plus the level's random spread, or None when the play is overlooked (with
    probability `miss`). Draws nothing for a chance or a spread of 0."""
    if miss and rand(rng) < miss:
        return None
    if noise:
        score += noise * rand(rng)
    return score


class PassMemory(Protocol):
    """The part of a bot's memory about its pass through the stock (both games keep it)."""

    pass_sig: list[object] | None
    seen: list[str]
    missed: bool
    idle_passes: int


class Knobs(Protocol):
    """The knobs of a level that `choose` reads (both games' `BotLevel` have them)."""

    @property
    def overlook(self) -> float: ...

    @property
    def move_overlook(self) -> float: ...

    @property
    def noise(self) -> float: ...


def choose(
    legal: Sequence[ActionT],
    turns: tuple[type, ...],
    score: Callable[[ActionT], float | None],
    between_piles: Callable[[ActionT], bool],
    level: Knobs,
    memory: PassMemory,
    rng: SplitMix64,
) -> tuple[int, int, bool]:
    """How a bot picks among the legal actions: (the index in `legal` of the best play
    it noticed, of the draw or recycle on offer (-1: none), whether it overlooked a play).
    A play is a candidate when `score` gives it a score; each candidate is overlooked with
    the level's chance (`miss_chance`) and the rest get its spread (`noticed`), in the
    order of `legal`; the highest wins, the first of equals. `turns` are the game's draw
    and recycle, the fallbacks. A play overlooked marks the pass `missed`."""
    best = fallback = -1
    best_score = 0.0
    overlooked = False
    for i, a in enumerate(legal):
        if isinstance(a, turns):
            fallback = i
            continue
        s = score(a)
        if s is None:
            continue
        s = noticed(s, miss_chance(level.overlook, level.move_overlook, between_piles(a)), level.noise, rng)
        if s is None:
            memory.missed = overlooked = True
            continue
        if best < 0 or s > best_score:
            best, best_score = i, s
    return best, fallback, overlooked


def start_pass(memory: PassMemory, sig: list[object], idle: bool) -> None:
    """A new pass through the stock begins, the layout's shape `sig`; `idle`: the last
    pass changed nothing (one more idle pass in a row), else the count starts again."""
    memory.idle_passes = memory.idle_passes + 1 if idle else 0
    memory.pass_sig = sig
    memory.seen = []
    memory.missed = False


def saw_waste_top(memory: PassMemory, waste: Sequence[Card]) -> None:
    """Keep in mind the waste top on view (a card this pass showed)."""
    if waste:
        top = str(waste[-1])
        if top not in memory.seen:
            memory.seen.append(top)


def wanted_cards(foundations: Sequence[FoundationView]) -> set[tuple[str, int]]:
    """(suit, rank) of the cards the foundations take now (aces always)."""
    out = {(s, 1) for s in "SHDC"}
    for f in foundations:
        if f.top.rank < 13:
            out.add((f.top.suit, f.top.rank + 1))
    return out


def raced_cards(tops: Iterable[Card], wanted: set[tuple[str, int]], out: set[tuple[str, int]]) -> None:
    """Add to `out` the cards of `tops` (another seat's cards on view) that a foundation
    takes now: a race the bot can still win. An ace always has a place: no race."""
    for c in tops:
        key = (c.suit, c.rank)
        if c.rank > 1 and key in wanted:
            out.add(key)


def memory_object(data: Any, known: frozenset[str] | None = None) -> Mapping[str, Any]:
    """A saved bot memory (a dict or its JSON text) as a mapping; ValueError when it is
    not a JSON object, or (given `known`) has a key outside it: a misspelt field must
    not silently reset the memory."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise ValueError(f"bot memory is not JSON: {exc}") from None
    if not isinstance(data, Mapping):
        raise ValueError("bot memory must be a JSON object")
    if known is not None:
        extra = set(data) - known
        if extra:
            raise ValueError(f"unknown bot memory key(s): {', '.join(sorted(map(repr, extra)))}")
    return data


def pass_fields(data: Mapping[str, Any]) -> tuple[list[object] | None, list[str], bool]:
    """The fields every bot keeps about its pass through the stock, checked: `pass_sig`
    (a list or null), `seen` (card texts) and `missed` (a bool); ValueError if bad."""
    sig = data.get("pass_sig")
    seen = data.get("seen", [])
    missed = data.get("missed", False)
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
    return (None if sig is None else list(sig)), [str(c) for c in seen], missed


def count_field(data: Mapping[str, Any], name: str) -> int:
    """The non-negative integer `data[name]` (0 when absent); ValueError otherwise."""
    value = data.get(name, 0)
    if not is_int(value) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer")
    return int(value)
