"""Cards and their two-character notation (`TS` = ten of spades).

Shared by both games. A `Card` is a small immutable value: rank 1..13 (ace..king) and a
suit letter. Cards compare by value; which seat *owns* a card is Demon's business and is
kept beside the card there, not inside it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

RANKS = "A23456789TJQK"
SUITS = "SHDC"
RED_SUITS = frozenset("HD")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


class CardError(ValueError):
    """Raised for text that is not a card in the project's notation."""


@dataclass(frozen=True, slots=True, order=True)
class Card:
    rank: int  # 1 = ace ... 13 = king
    suit: str  # one of "SHDC"

    def __post_init__(self) -> None:
        if not (1 <= self.rank <= 13) or self.suit not in SUITS or len(self.suit) != 1:
            raise CardError(f"not a card: rank={self.rank!r} suit={self.suit!r}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """`Card.parse("TS")`; accepts lower case and `10` for ten."""
        if not isinstance(text, str):
            raise CardError(f"not a card: {text!r}")
        t = text.strip().upper()
        if t.startswith("10"):
            t = "T" + t[2:]
        if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
            raise CardError(f"not a card: {text!r}")
        return cls(RANKS.index(t[0]) + 1, t[1])

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @property
    def pretty(self) -> str:
        return RANKS[self.rank - 1].replace("T", "10") + SUIT_SYMBOLS[self.suit]


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse `"AS 2H TD"` (or a list of strings) into cards."""
    items = text.split() if isinstance(text, str) else list(text)
    return tuple(Card.parse(t) for t in items)


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def standard_deck() -> list[Card]:
    """The 52 cards in a fixed order (suits S H D C, ranks A..K) before shuffling."""
    return [Card(rank, suit) for suit in SUITS for rank in range(1, 14)]


def opposite_colour(a: Card, b: Card) -> bool:
    return a.is_red != b.is_red
