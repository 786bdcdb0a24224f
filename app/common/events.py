"""What an engine event looks like, for both games, and its one JSON form.

An event is a frozen dataclass subclassing `Event`: the class names its wire `type`,
its fields are the wire keys in wire order. `event_to_json` is the only place an event
becomes JSON, so both games speak one dialect and a new event needs no `to_json` of its
own:

* a Card becomes its text ("TS"); a tuple becomes a list (of converted items), so a
  tuple of cards is a list of card strings and a grid a list of such lists;
* a field whose wire key is not a Python name (Devil's Grip's "from", "pass") or reads
  better under another name declares it: `field(metadata={"key": "from"})`;
* a field that comes first on the wire but has a default (Demon's `seat: None` of
  round-level events) is `kw_only`, which keeps its place among `fields()` while the
  constructor takes it last.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, ClassVar

from app.common.cards import Card

__all__ = ["Event", "event_to_json"]


class Event:
    """Base of every engine event (Demon's and Devil's Grip's)."""

    __slots__ = ()
    type: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        return event_to_json(self)


# Per event class: ((wire key, attribute name), ...) in wire order, built on first use.
_KEYS: dict[type, tuple[tuple[str, str], ...]] = {}


def _keys(cls: type[Event]) -> tuple[tuple[str, str], ...]:
    keys = tuple((f.metadata.get("key", f.name), f.name) for f in fields(cls))  # type: ignore[arg-type]  # every Event subclass is a dataclass (the module docstring's rule)
    _KEYS[cls] = keys
    return keys


def _wire(value: Any) -> Any:
    if type(value) is tuple:
        return [_wire(v) for v in value]
    if type(value) is Card:
        return str(value)
    return value


def event_to_json(event: Event) -> dict[str, Any]:
    """The wire form of an event: {"type": ..., then each field under its key}."""
    cls = type(event)
    keys = _KEYS.get(cls) or _keys(cls)
    out: dict[str, Any] = {"type": cls.type}
    for key, name in keys:
        out[key] = _wire(getattr(event, name))
    return out
