"""Nerts actions: what a seat may ask to do, as small frozen values, and their JSON.

Shaped like Demon's (`app.demon.rules.actions`): an action is checked for *shape* when it
is built, so a malformed one cannot exist and `NertsRound.apply` only asks whether it is
legal. The sources are the three places N5 makes cards available: "nerts" (the Nerts
pile's top), "waste" (the waste's top) or a work pile index 0..3 (a card and all on it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Union

from app.common.checks import is_int
from app.common.errors import MalformedAction
from app.nerts.rules.layout import WORK_PILES

__all__ = [
    "ACTION_TYPES",
    "NERTS",
    "WASTE",
    "Draw",
    "MalformedAction",
    "NertsAction",
    "Recycle",
    "Source",
    "ToFoundation",
    "ToWork",
    "action_from_json",
    "action_to_json",
]

NERTS = "nerts"
WASTE = "waste"
Source = Union[int, str]


def _check_seat(seat: Any) -> None:
    if not is_int(seat) or seat < 0:
        raise MalformedAction(f"seat must be a non-negative integer, not {seat!r}")


def _check_work(value: Any, what: str) -> None:
    if not is_int(value) or not (0 <= value < WORK_PILES):
        raise MalformedAction(f"{what} must be a work pile 0..{WORK_PILES - 1}, not {value!r}")


def _check_src(src: Any) -> None:
    if isinstance(src, str) and src in (NERTS, WASTE):
        return
    _check_work(src, 'src (or "nerts" or "waste")')


def _check_count(count: Any) -> None:
    if not is_int(count) or count < 1:
        raise MalformedAction(f"count must be a positive integer, not {count!r}")


def _check_pile(pile: Any) -> None:
    if pile is not None and (not is_int(pile) or pile < 0):
        raise MalformedAction(f"pile must be a non-negative integer or null, not {pile!r}")


@dataclass(frozen=True, slots=True)
class Draw:
    """N4: turn three (or one, H2) cards from the stock onto the waste."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)


@dataclass(frozen=True, slots=True)
class Recycle:
    """N4: the stock is empty; turn the waste over to form a new stock."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)


@dataclass(frozen=True, slots=True)
class ToWork:
    """N6, N7: move `count` cards from the top of `src` onto work pile `dst`. From the
    Nerts pile or the waste only the top card moves, so count must be 1."""

    seat: int
    src: Source
    dst: int
    count: int = 1

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        _check_src(self.src)
        _check_work(self.dst, "dst")
        _check_count(self.count)
        if isinstance(self.src, str) and self.count != 1:
            raise MalformedAction(f"only one card at a time moves from the {self.src} pile")
        if self.src == self.dst:
            raise MalformedAction("a move needs two different piles")


@dataclass(frozen=True, slots=True)
class ToFoundation:
    """N10: play the top card of `src` to foundation pile `pile` (an index into the
    round's foundations), or to any pile that accepts it (None)."""

    seat: int
    src: Source
    pile: int | None = None

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        _check_src(self.src)
        _check_pile(self.pile)


NertsAction = Union[Draw, Recycle, ToWork, ToFoundation]
ACTION_TYPES = (Draw, Recycle, ToWork, ToFoundation)

_JSON_KEYS = {
    "draw": {"type", "seat"},
    "recycle": {"type", "seat"},
    "work": {"type", "seat", "src", "dst", "count"},
    "foundation": {"type", "seat", "src", "pile"},
}


def action_to_json(action: NertsAction) -> dict[str, Any]:
    """The wire/record form of an action (only the keys its type uses)."""
    if isinstance(action, Draw):
        return {"type": "draw", "seat": action.seat}
    if isinstance(action, Recycle):
        return {"type": "recycle", "seat": action.seat}
    if isinstance(action, ToWork):
        return {"type": "work", "seat": action.seat, "src": action.src, "dst": action.dst, "count": action.count}
    if isinstance(action, ToFoundation):
        return {"type": "foundation", "seat": action.seat, "src": action.src, "pile": action.pile}
    raise MalformedAction(f"not a Nerts action: {action!r}")


def action_from_json(data: Any) -> NertsAction:
    """Parse the wire form; raises MalformedAction (an IllegalAction) on anything off.

    Required: "type" and "seat"; "work" needs "src" and "dst" ("count" defaults to 1);
    "foundation" needs "src" ("pile" defaults to null = any pile). Unknown keys are
    refused so that a client bug shows instead of being silently ignored."""
    if not isinstance(data, Mapping):
        raise MalformedAction(f"an action must be a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _JSON_KEYS:
        raise MalformedAction(f"unknown action type {kind!r}; expected one of draw, recycle, work, foundation")
    extra = set(data) - _JSON_KEYS[kind]
    if extra:
        raise MalformedAction(f"unexpected key(s) {', '.join(sorted(map(repr, extra)))} in a {kind!r} action")
    if "seat" not in data:
        raise MalformedAction(f"a {kind!r} action needs a seat")
    seat = data["seat"]
    _check_seat(seat)
    if kind == "draw":
        return Draw(seat)
    if kind == "recycle":
        return Recycle(seat)
    if "src" not in data:
        raise MalformedAction(f"a {kind!r} action needs src")
    src = data["src"]
    _check_src(src)
    if kind == "work":
        if "dst" not in data:
            raise MalformedAction("a 'work' action needs dst")
        dst, count = data["dst"], data.get("count", 1)
        _check_work(dst, "dst")
        _check_count(count)
        return ToWork(seat, src, dst, count)
    pile = data.get("pile")
    _check_pile(pile)
    return ToFoundation(seat, src, pile)
