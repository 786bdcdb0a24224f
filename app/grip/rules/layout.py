"""Devil's Grip's cards and grid geometry: the sizes, the building rule (rule 3) and the
chains, the deck's documented order, and a person's name for a cell.

Kept apart from the position so that the actions, the events, the search's compact
encoding and the pages' explanations can use the rule of building without importing the
whole state.

Layout conventions
------------------
* The grid has 24 cells, 3 rows x 8 columns, indexed row-major: ``cell = row * 8 + col``.
* A pile is a tuple of cards from bottom to top; an empty cell is ``()``.
* ``stock`` and ``talon`` are tuples whose *last* element is the top card.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.common.cards import SUITS, Card

ROWS = 3
COLS = 8
CELLS = ROWS * COLS
MAX_PILE = 4
DRAW = 3
PASS_OPTIONS: tuple[int | None, ...] = (1, 3, None)

Grid = tuple[tuple[Card, ...], ...]


def fits(card: Card, onto: Card) -> bool:
    """Rule 3: `card` may lie on `onto` (same suit, exactly three ranks higher)."""
    return card.suit == onto.suit and card.rank == onto.rank + 3


def chain_of(card: Card) -> int:
    """Which building chain a card belongs to: 0 for 2-5-8-J, 1 for 3-6-9-Q, 2 for 4-7-10-K."""
    return (card.rank - 2) % 3


def grip_deck() -> list[Card]:
    """The 96 cards in the documented order before shuffling (see the module docstring)."""
    one = [Card(rank, suit) for suit in SUITS for rank in range(2, 14)]
    return one + list(one)


def is_chain(pile: Sequence[Card]) -> bool:
    """Rule 3: every card of the pile lies legally on the one below it."""
    return len(pile) <= MAX_PILE and all(fits(pile[i + 1], pile[i]) for i in range(len(pile) - 1))


def cell_name(cell: int) -> str:
    """A person's name for a cell: row 1-3 and column 1-8, e.g. ``r2c5`` for cell 12."""
    return f"r{cell // COLS + 1}c{cell % COLS + 1}"
