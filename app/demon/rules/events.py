"""Demon events: what an action (or the room: absence, finish) caused, as frozen values.

Each is an `app.common.events.Event`, so its JSON is `event_to_json`'s (field order is
wire order). Round-level events (Started, RoundEnded) carry `seat: None` so that every
event on the wire has a seat key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Union

from app.common.cards import Card
from app.common.events import Event
from app.demon.rules.ending import Termination

__all__ = [
    "AbsenceChanged",
    "DemonEvent",
    "Drew",
    "Moved",
    "Played",
    "Recycled",
    "RoundEnded",
    "Started",
    "TurnedUp",
]


@dataclass(frozen=True, slots=True)
class Started(Event):
    """Rule 4: the signal; everyone may play."""

    type: ClassVar[str] = "started"
    seat: None = None


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """Cards moved from stock to waste. `visible` is the waste top (up to 3, top last),
    which everybody can see anyway; the stock order is never revealed."""

    type: ClassVar[str] = "drew"
    seat: int
    count: int
    visible: tuple[Card, ...] = field(metadata={"key": "waste"})
    stock_count: int
    waste_count: int


@dataclass(frozen=True, slots=True)
class Recycled(Event):
    type: ClassVar[str] = "recycled"
    seat: int
    stock_count: int


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """Face-up cards moved onto tableau pile `dst` (from "waste" or a pile)."""

    type: ClassVar[str] = "moved"
    seat: int
    src: int | str
    dst: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TurnedUp(Event):
    type: ClassVar[str] = "turned_up"
    seat: int
    pile: int
    card: Card


@dataclass(frozen=True, slots=True)
class Played(Event):
    """A card of `seat` landed on foundation pile `pile` (new_pile: an ace started it)."""

    type: ClassVar[str] = "played"
    seat: int
    src: int | str
    card: Card
    pile: int
    new_pile: bool


@dataclass(frozen=True, slots=True)
class AbsenceChanged(Event):
    type: ClassVar[str] = "absent"
    seat: int
    absent: bool


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    type: ClassVar[str] = "round_ended"
    seat: None = field(default=None, kw_only=True)
    reason: Termination
    winner: int | None
    scores: tuple[int, ...]


DemonEvent = Union[Started, Drew, Recycled, Moved, TurnedUp, Played, AbsenceChanged, RoundEnded]
