"""Devil's Grip's events: what `GripState.apply` reports happened (rules 6-11), as frozen
dataclasses that `app.common.events` turns into JSON for the wire and the records."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Union

from app.common.cards import Card
from app.common.events import Event


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """Rule 8: `cards` turned from the stock onto the talon, in turning order."""

    type: ClassVar[str] = "deal"
    cards: tuple[Card, ...]
    stock: int
    talon: int


@dataclass(frozen=True, slots=True)
class Redealt(Event):
    """Rule 9: the talon turned over into the stock; pass `passes_used` begins."""

    type: ClassVar[str] = "redeal"
    passes_used: int = field(metadata={"key": "pass"})
    stock: int


@dataclass(frozen=True, slots=True)
class TalonPlayed(Event):
    """Rules 3-4: the talon's top card went onto pile `dst`."""

    type: ClassVar[str] = "talon"
    card: Card
    dst: int


@dataclass(frozen=True, slots=True)
class PileMoved(Event):
    """Rule 4: the top `count` cards of `src` (`cards`, bottom..top) went onto `dst`."""

    type: ClassVar[str] = "move"
    src: int
    dst: int
    count: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Swapped(Event):
    """Rule 5: cells `a` and `b` exchanged their piles."""

    type: ClassVar[str] = "swap"
    a: int
    b: int


@dataclass(frozen=True, slots=True)
class Filled(Event):
    """Rule 7: the emptied `cell` took `card` from the stock or, that being empty, the talon."""

    type: ClassVar[str] = "fill"
    cell: int
    card: Card
    source: str = field(metadata={"key": "from"})  # "stock" | "talon"


@dataclass(frozen=True, slots=True)
class DealEnded(Event):
    """Rule 10 ("rule") or the player ("player") ended the deal; rule 11's score."""

    type: ClassVar[str] = "end"
    by: str
    score: int
    rating: str | None
    won: bool


@dataclass(frozen=True, slots=True)
class Arranged(Event):
    """Rule 6: a won deal's rows, arranged; `grid` is the new grid."""

    type: ClassVar[str] = "arrange"
    grid: tuple[tuple[Card, ...], ...]


GripEvent = Union[Dealt, Redealt, TalonPlayed, PileMoved, Swapped, Filled, DealEnded, Arranged]
