"""Demon layouts: a seat's tableau piles, stock and waste, and the deal (rule 3).

Kept apart from the rules (`app.demon.rules.round`) because a layout is just cards in places:
these values know how to be built from text and how they were dealt, nothing about what
a player may do with them. Every card sequence is stored bottom..top (the *last* element
is the top; for the stock, the next card drawn).

The deal (rule 3), exactly
--------------------------
Seat s's deck is `standard_deck()` (S H D C, A..K) shuffled in place by Fisher-Yates with
`SplitMix64(derive_seed(seed, s))`. Cards are then taken from the front of the shuffled
list (`deck[0]` first) and dealt in Klondike row order: for row r = 0..6, one card to each
pile k = r..6. Row r of pile k is face up when r == k, face down otherwise, so pile k holds
`deck` cards at rows 0..k with only the last one face up. The remaining 24 cards,
`deck[28:]`, form the stock with `deck[28]` drawn first (stock tuple = reversed(deck[28:])).
The waste starts empty.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from app.common.cards import Card, CardError, opposite_colour, parse_cards, standard_deck
from app.common.errors import EngineError
from app.common.rng import SplitMix64, derive_seed

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PILES",
    "FoundationPile",
    "Foundations",
    "LayoutError",
    "Pile",
    "PileView",
    "SeatState",
    "deal_seat",
    "is_run",
]

MIN_PLAYERS = 2  # rule 1 (a test position may hold fewer)
MAX_PLAYERS = 8
PILES = 7


class LayoutError(EngineError, ValueError):
    """An explicit layout or a JSON state is not a valid Demon position."""


def _cards_from(value: Any, what: str) -> tuple[Card, ...]:
    """Accept a tuple of Cards, a list of card strings, or "AS 2H" text."""
    try:
        if isinstance(value, str):
            return parse_cards(value)
        out = []
        for c in value:
            out.append(c if isinstance(c, Card) else Card.parse(c))
        return tuple(out)
    except (CardError, TypeError) as exc:
        raise LayoutError(f"{what}: {exc}") from None


def is_run(cards: Sequence[Card]) -> bool:
    """Rule 8's shape of face-up cards: descending by one, alternating colours."""
    for lower, upper in itertools.pairwise(cards):
        if upper.rank != lower.rank - 1 or not opposite_colour(lower, upper):
            return False
    return True


@dataclass(frozen=True, slots=True)
class Pile:
    """A tableau pile: face-down cards, then the face-up run on them (last = top)."""

    down: tuple[Card, ...] = ()
    up: tuple[Card, ...] = ()

    @classmethod
    def parse(cls, down: Any = (), up: Any = ()) -> Pile:
        return cls(_cards_from(down, "face-down cards"), _cards_from(up, "face-up cards"))

    @property
    def top(self) -> Card | None:
        return self.up[-1] if self.up else None

    def __len__(self) -> int:
        return len(self.down) + len(self.up)


class PileView(NamedTuple):
    """A tableau pile as anyone sees it: how many cards lie face down, then the face-up
    run (bottom..top, last = top). A named tuple, not a dataclass: a bot's view is built
    of many, on the event loop, and they are several times cheaper to make."""

    down: int
    up: tuple[Card, ...]

    @property
    def top(self) -> Card | None:
        return self.up[-1] if self.up else None


@dataclass(frozen=True, slots=True)
class SeatState:
    """One player's own layout: 7 tableau piles, the stock and the waste (last = top)."""

    tableau: tuple[Pile, ...]
    stock: tuple[Card, ...] = ()
    waste: tuple[Card, ...] = ()

    @classmethod
    def parse(cls, tableau: Iterable[Any], stock: Any = (), waste: Any = ()) -> SeatState:
        """Build from text: tableau items are Pile objects, (down, up) pairs,
        {"down":..., "up":...} mappings or () / None for an empty pile; each side is a card
        string like "5H 6S" or a list. Missing piles (fewer than 7) are empty."""
        piles = []
        for item in tableau:
            if isinstance(item, Pile):
                piles.append(item)
            elif item is None or (isinstance(item, (tuple, list)) and not item):
                piles.append(Pile())
            elif isinstance(item, Mapping):
                piles.append(Pile.parse(item.get("down", ()), item.get("up", ())))
            else:
                down, up = item
                piles.append(Pile.parse(down, up))
        while len(piles) < PILES:
            piles.append(Pile())
        return cls(tuple(piles), _cards_from(stock, "stock"), _cards_from(waste, "waste"))

    def cards(self) -> list[Card]:
        out: list[Card] = []
        for p in self.tableau:
            out.extend(p.down)
            out.extend(p.up)
        out.extend(self.stock)
        out.extend(self.waste)
        return out

    @property
    def is_empty(self) -> bool:
        return not self.stock and not self.waste and all(len(p) == 0 for p in self.tableau)


# A foundation pile: (card, the seat that played it), bottom (an ace) .. top. The
# foundations are shared (rule 11), so each card keeps its owner beside it for the score.
FoundationPile = tuple[tuple[Card, int], ...]
Foundations = tuple[FoundationPile, ...]


def deal_seat(seed: int, seat: int) -> SeatState:
    """Seat `seat`'s layout for deal `seed` (see the module docstring for the exact rule)."""
    deck = standard_deck()
    SplitMix64(derive_seed(seed, seat)).shuffle(deck)
    down: list[list[Card]] = [[] for _ in range(PILES)]
    up: list[Card] = []  # row k's first card is pile k's face-up card, so these come in pile order
    i = 0
    for row in range(PILES):
        for k in range(row, PILES):
            if row == k:
                up.append(deck[i])
            else:
                down[k].append(deck[i])
            i += 1
    tableau = tuple(Pile(tuple(down[k]), (up[k],)) for k in range(PILES))
    return SeatState(tableau, tuple(reversed(deck[i:])), ())
