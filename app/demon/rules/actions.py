"""Demon actions: what a seat may ask to do, as small frozen values, and their JSON.

An action is checked for *shape* when it is built (a seat number, pile indices in range,
a count of at least one): a malformed action cannot exist, so the rules
(`DemonRound.apply`) only ask whether it is legal in the position. The wire form is
`action_to_json`/`action_from_json`; a record stores actions the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Union

from app.common.checks import is_int
from app.common.errors import MalformedAction
from app.demon.rules.layout import PILES

__all__ = [
    "ACTION_TYPES",
    "WASTE",
    "DemonAction",
    "Draw",
    "MalformedAction",
    "Recycle",
    "ToFoundation",
    "ToTableau",
    "action_from_json",
    "action_to_json",
]

WASTE = "waste"


def _check_seat(seat: Any) -> None:
    if not is_int(seat) or seat < 0:
        raise MalformedAction(f"seat must be a non-negative integer, not {seat!r}")


def _check_pile_index(value: Any, what: str) -> None:
    if not is_int(value) or not (0 <= value < PILES):
        raise MalformedAction(f"{what} must be a tableau pile 0..{PILES - 1}, not {value!r}")


def _check_src(src: Any) -> None:
    if isinstance(src, str) and src == WASTE:
        return
    _check_pile_index(src, 'src (or "waste")')


def _check_count(count: Any) -> None:
    if not is_int(count) or count < 1:
        raise MalformedAction(f"count must be a positive integer, not {count!r}")


def _check_pile(pile: Any) -> None:
    if pile is not None and (not is_int(pile) or pile < 0):
        raise MalformedAction(f"pile must be a non-negative integer or null, not {pile!r}")


@dataclass(frozen=True, slots=True)
class Draw:
    """Rule 5: turn up to three cards from the stock onto the waste."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)


@dataclass(frozen=True, slots=True)
class Recycle:
    """Rule 6: the stock is empty; turn the waste over to form a new stock."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)


@dataclass(frozen=True, slots=True)
class ToTableau:
    """Rule 8: move `count` face-up cards from the top of `src` ("waste" or a pile) onto
    tableau pile `dst`. From the waste, count must be 1."""

    seat: int
    src: int | str
    dst: int
    count: int = 1

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        _check_src(self.src)
        _check_pile_index(self.dst, "dst")
        _check_count(self.count)
        if self.src == WASTE and self.count != 1:
            raise MalformedAction("only one card at a time moves from the waste")
        if self.src == self.dst:
            raise MalformedAction("a move needs two different piles")


@dataclass(frozen=True, slots=True)
class ToFoundation:
    """Rules 11, 12, 14: play the top card of `src` ("waste" or a pile) to foundation pile
    `pile` (an index into round.foundations), or to any pile that accepts it (None)."""

    seat: int
    src: int | str
    pile: int | None = None

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        _check_src(self.src)
        _check_pile(self.pile)


DemonAction = Union[Draw, Recycle, ToTableau, ToFoundation]
ACTION_TYPES = (Draw, Recycle, ToTableau, ToFoundation)

_JSON_KEYS = {
    "draw": {"type", "seat"},
    "recycle": {"type", "seat"},
    "tableau": {"type", "seat", "src", "dst", "count"},
    "foundation": {"type", "seat", "src", "pile"},
}


def action_to_json(action: DemonAction) -> dict[str, Any]:
    """The wire/record form of an action (only the keys that type uses)."""
    if isinstance(action, Draw):
        return {"type": "draw", "seat": action.seat}
    if isinstance(action, Recycle):
        return {"type": "recycle", "seat": action.seat}
    if isinstance(action, ToTableau):
        return {"type": "tableau", "seat": action.seat, "src": action.src, "dst": action.dst, "count": action.count}
    if isinstance(action, ToFoundation):
        return {"type": "foundation", "seat": action.seat, "src": action.src, "pile": action.pile}
    raise MalformedAction(f"not a Demon action: {action!r}")


def action_from_json(data: Any) -> DemonAction:
    """Parse the wire form; raises MalformedAction (an IllegalAction) on anything off.

    Required: "type" and "seat"; "tableau" needs "src" and "dst" ("count" defaults to 1);
    "foundation" needs "src" ("pile" defaults to null = any pile). Unknown keys are
    rejected so that a client bug shows up instead of being silently ignored.
    """
    if not isinstance(data, Mapping):
        raise MalformedAction(f"an action must be a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _JSON_KEYS:
        raise MalformedAction(f"unknown action type {kind!r}; expected one of draw, recycle, tableau, foundation")
    extra = set(data) - _JSON_KEYS[kind]
    if extra:
        names = ", ".join(sorted(repr(k) for k in extra))
        raise MalformedAction(f"unexpected key(s) {names} in a {kind!r} action")
    if "seat" not in data:
        raise MalformedAction(f"a {kind!r} action needs a seat")
    # The values are checked here before an action is built, not only by the classes:
    # compiled by mypyc (app/support/native.py), a class turns a bool into an int and
    # refuses a value of the wrong type with a TypeError before its own check can run.
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
    if kind == "tableau":
        if "dst" not in data:
            raise MalformedAction("a 'tableau' action needs dst")
        dst, count = data["dst"], data.get("count", 1)
        _check_pile_index(dst, "dst")
        _check_count(count)
        return ToTableau(seat, src, dst, count)
    pile = data.get("pile")
    _check_pile(pile)
    return ToFoundation(seat, src, pile)
