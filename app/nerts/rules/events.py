"""Nerts events: what an action (or the room, or the stall) caused, as frozen values.

Each is an `app.common.events.Event`, so its JSON is `event_to_json`'s, in the same
dialect as Demon's; round-level events carry `seat: None` so that every event on the
wire has a seat key. No event names a face-down card or the stock order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Union

from app.common.cards import Card
from app.common.events import Event
from app.nerts.rules.ending import Termination

__all__ = [
    "AbsenceChanged",
    "Drew",
    "Filled",
    "Moved",
    "NertsCalled",
    "NertsEvent",
    "Played",
    "Recycled",
    "RoundEnded",
    "Stalled",
    "Started",
    "TurnedUp",
]


@dataclass(frozen=True, slots=True)
class Started(Event):
    """The signal; everyone may play."""

    type: ClassVar[str] = "started"
    seat: None = None


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """Cards moved from stock to waste; `visible` is what the waste now shows."""

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
    """Cards moved onto work pile `dst` from "nerts", "waste" or a work pile."""

    type: ClassVar[str] = "moved"
    seat: int
    src: int | str
    dst: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Filled(Event):
    """H3 (Racing Demon spaces): an emptied work pile took the Nerts pile's top by itself."""

    type: ClassVar[str] = "filled"
    seat: int
    pile: int
    card: Card


@dataclass(frozen=True, slots=True)
class TurnedUp(Event):
    """N8: the Nerts pile's next card turned face up (its new top)."""

    type: ClassVar[str] = "turned_up"
    seat: int
    card: Card
    nerts_count: int


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
class Stalled(Event):
    """N13: everyone was stuck; each seat in `seats` turned its waste under its stock and
    moved the stock's top card to the bottom. `stock_counts` are those seats' new stock
    sizes (every waste is now empty); no card is named, the stocks stay secret."""

    type: ClassVar[str] = "stalled"
    seat: None = field(default=None, kw_only=True)
    seats: tuple[int, ...]
    stock_counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class NertsCalled(Event):
    """N11: the seat's Nerts pile is empty; it calls "Nerts!" and the round ends."""

    type: ClassVar[str] = "nerts"
    seat: int


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


NertsEvent = Union[
    Started, Drew, Recycled, Moved, Filled, TurnedUp, Played, Stalled, NertsCalled, AbsenceChanged, RoundEnded
]
