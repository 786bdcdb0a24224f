"""Nerts layouts: one seat's Nerts pile, four work piles, stock and waste, and the deal
(rules N1-N3).

A layout is only cards in places; what a player may do with them lives in `legal` and
`play`. Every card sequence is stored bottom..top (the *last* element is the top; for the
stock, the next card drawn). Only the Nerts pile has face-down cards: all of it but its
top (N1, N8), so no flag is stored: the top of a non-empty Nerts pile is face up by
definition, which is also how the automatic turn-up of N8 costs nothing.

The deal (N1-N3), exactly
-------------------------
Seat s's deck is `standard_deck()` shuffled by Fisher-Yates with
`SplitMix64(derive_seed(seed, s))`, as in Demon. Cards are taken from the front:
`deck[0:13]` is the Nerts pile in dealing order, so `deck[12]` (the last dealt) is its
face-up top; `deck[13 + k]` is work pile k's card (k = 0..3); `deck[17:]` is the stock
with `deck[17]` drawn first (stock tuple = reversed(deck[17:])). The waste starts empty.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.common.cards import Card, CardError, opposite_colour, parse_cards, standard_deck
from app.common.errors import EngineError
from app.common.rng import SplitMix64, derive_seed

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NERTS_SIZE",
    "WORK_PILES",
    "FoundationPile",
    "Foundations",
    "LayoutError",
    "NertsSeat",
    "cards_from",
    "deal_seat",
    "is_run",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 8
NERTS_SIZE = 13  # N1
WORK_PILES = 4  # N2

# A foundation pile: (card, the seat that played it), bottom (an ace) .. top; shared by
# every seat (N10), so each card keeps its owner beside it for the score (N14).
FoundationPile = tuple[tuple[Card, int], ...]
Foundations = tuple[FoundationPile, ...]


class LayoutError(EngineError, ValueError):
    """An explicit layout or a JSON state is not a valid Nerts position."""


def cards_from(value: Any, what: str) -> tuple[Card, ...]:
    """A tuple of Cards from Cards, card strings, or "AS 2H" text; LayoutError otherwise."""
    try:
        if isinstance(value, str):
            return parse_cards(value)
        return tuple(c if isinstance(c, Card) else Card.parse(c) for c in value)
    except (CardError, TypeError) as exc:
        raise LayoutError(f"{what}: {exc}") from None


def is_run(cards: Sequence[Card]) -> bool:
    """N6's shape: each card one rank lower than the one under it, colours alternating."""
    return all(
        upper.rank == lower.rank - 1 and opposite_colour(lower, upper) for lower, upper in itertools.pairwise(cards)
    )


@dataclass(frozen=True, slots=True)
class NertsSeat:
    """One player's own layout. `work` holds exactly four piles, each a run (N6)."""

    nerts: tuple[Card, ...]
    work: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...] = ()
    waste: tuple[Card, ...] = ()

    @classmethod
    def parse(cls, nerts: Any = (), work: Any = (), stock: Any = (), waste: Any = ()) -> NertsSeat:
        """Build from text or lists (tests, JSON). Missing work piles (fewer than four)
        are empty."""
        piles = [cards_from(p if p is not None else (), f"work pile {i}") for i, p in enumerate(work)]
        if len(piles) > WORK_PILES:
            raise LayoutError(f"a layout has {WORK_PILES} work piles, not {len(piles)}")
        piles += [()] * (WORK_PILES - len(piles))
        return cls(
            cards_from(nerts, "nerts pile"), tuple(piles), cards_from(stock, "stock"), cards_from(waste, "waste")
        )

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> NertsSeat:
        return cls.parse(data.get("nerts", ()), data.get("work", ()), data.get("stock", ()), data.get("waste", ()))

    def to_json(self) -> dict[str, Any]:
        return {
            "nerts": [str(c) for c in self.nerts],
            "work": [[str(c) for c in p] for p in self.work],
            "stock": [str(c) for c in self.stock],
            "waste": [str(c) for c in self.waste],
        }

    @property
    def nerts_top(self) -> Card | None:
        return self.nerts[-1] if self.nerts else None

    def cards(self) -> list[Card]:
        """Every card of the layout (for the 52-card check)."""
        out = list(self.nerts)
        for p in self.work:
            out.extend(p)
        out.extend(self.stock)
        out.extend(self.waste)
        return out


def deal_seat(seed: int, seat: int) -> NertsSeat:
    """Seat `seat`'s layout for deal `seed` (the module docstring gives the exact order)."""
    deck = standard_deck()
    SplitMix64(derive_seed(seed, seat)).shuffle(deck)
    nerts = tuple(deck[:NERTS_SIZE])
    work = tuple((deck[NERTS_SIZE + k],) for k in range(WORK_PILES))
    stock = tuple(reversed(deck[NERTS_SIZE + WORK_PILES :]))
    return NertsSeat(nerts, work, stock, ())
