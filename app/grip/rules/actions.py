"""Devil's Grip's actions (rules 4-10) and their JSON form.

An action is a small frozen value; whether it is legal in a position is the state's
business (`GripState.apply`), so parsing here checks only the shape: a known type, exactly
its fields, cells 0..23 and a count 1..4.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Union

from app.common.checks import is_int
from app.common.errors import IllegalAction
from app.grip.rules.layout import CELLS, MAX_PILE
from app.grip.rules.shapes import ActionJson, GripDeal, GripEnd, GripMove, GripRedeal, GripSwap, GripTalonPlay


@dataclass(frozen=True, slots=True)
class DealThree:
    """Rule 8: turn up to three stock cards onto the talon (the last one turned is on top)."""

    type: ClassVar[str] = "deal"

    def to_json(self) -> GripDeal:
        return {"type": "deal"}


@dataclass(frozen=True, slots=True)
class Redeal:
    """Rule 9: with the stock empty, turn the talon over (unshuffled) to form a new stock."""

    type: ClassVar[str] = "redeal"

    def to_json(self) -> GripRedeal:
        return {"type": "redeal"}


@dataclass(frozen=True, slots=True)
class TalonToGrid:
    """Rules 3-4: the talon's top card onto the (non-empty) grid pile `dst`."""

    dst: int
    type: ClassVar[str] = "talon"

    def to_json(self) -> GripTalonPlay:
        return {"type": "talon", "dst": self.dst}


@dataclass(frozen=True, slots=True)
class GridToGrid:
    """Rule 4: the top `count` cards of pile `src` move as a unit onto non-empty pile `dst`."""

    src: int
    dst: int
    count: int = 1
    type: ClassVar[str] = "move"

    def to_json(self) -> GripMove:
        return {"type": "move", "src": self.src, "dst": self.dst, "count": self.count}


@dataclass(frozen=True, slots=True)
class Swap:
    """Rule 5: cells `a` and `b` exchange their whole piles (one of them may be empty).

    `Swap(a, b)` and `Swap(b, a)` do the same thing; `legal_actions` lists each pair once,
    with ``a < b``.
    """

    a: int
    b: int
    type: ClassVar[str] = "swap"

    def to_json(self) -> GripSwap:
        return {"type": "swap", "a": self.a, "b": self.b}


@dataclass(frozen=True, slots=True)
class EndDeal:
    """Rule 10: the player ends the deal. Always allowed while the deal is not over; it is
    not listed by `legal_actions` (which lists only plays), but it is an action so that a
    record replays to exactly the same final state."""

    type: ClassVar[str] = "end"

    def to_json(self) -> GripEnd:
        return {"type": "end"}


GripAction = Union[DealThree, Redeal, TalonToGrid, GridToGrid, Swap, EndDeal]

_ACTION_FIELDS: dict[str, tuple[Callable[..., GripAction], tuple[str, ...]]] = {
    "deal": (DealThree, ()),
    "redeal": (Redeal, ()),
    "talon": (TalonToGrid, ("dst",)),
    "move": (GridToGrid, ("src", "dst", "count")),
    "swap": (Swap, ("a", "b")),
    "end": (EndDeal, ()),
}
_ACTION_TYPES = (DealThree, Redeal, TalonToGrid, GridToGrid, Swap, EndDeal)


def grip_action_to_json(action: GripAction) -> ActionJson:
    """The JSON object for an action, e.g. ``{"type": "move", "src": 3, "dst": 7, "count": 1}``."""
    if not isinstance(action, _ACTION_TYPES):
        raise IllegalAction(f"not a Devil's Grip action: {action!r}")
    return action.to_json()


def grip_action_from_json(data: Any) -> GripAction:
    """Parse an action object; raises `IllegalAction` for anything malformed.

    Checked here: it is an object with a known ``type``, exactly the fields of that type,
    cells are integers 0..23 and ``count`` is 1..4. Whether the action is legal in a
    position is `GripState.apply`'s business.
    """
    if not isinstance(data, dict):
        raise IllegalAction("an action must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _ACTION_FIELDS:
        raise IllegalAction(f"unknown action type: {kind!r}")
    cls, names = _ACTION_FIELDS[kind]
    extra = set(data) - {"type", *names}
    if extra:
        raise IllegalAction(f"unexpected field(s) for {kind!r}: {', '.join(sorted(map(str, extra)))}")
    values: dict[str, int] = {}
    for name in names:
        if name not in data:
            if kind == "move" and name == "count":
                values[name] = 1
                continue
            raise IllegalAction(f"{kind!r} needs the field {name!r}")
        value = data[name]
        if not is_int(value):
            raise IllegalAction(f"{name!r} must be an integer")
        if name == "count":
            if not 1 <= value <= MAX_PILE:
                raise IllegalAction(f"count must be 1..{MAX_PILE}")
        elif not 0 <= value < CELLS:
            raise IllegalAction(f"{name!r} must be a cell 0..{CELLS - 1}")
        values[name] = value
    return cls(**values)
