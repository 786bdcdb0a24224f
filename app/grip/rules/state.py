"""Devil's Grip: the position of a deal as the rest of the app builds, plays and stores it.

The numbers in comments refer to the numbered rules in `docs/numbered-rules.md` (the
players' version is `docs/rules.md`). Everything here is pure: a `GripState` is an immutable value,
`apply` returns a new state plus a list of events (frozen dataclasses, JSON by
`app.common.events`) and never changes the old one.

`GripState` is the one door; the work behind it is split by concern, each module with
one job: `layout` (sizes, rule 3, the deck), `actions` and `events` (the values and their
JSON), `position` (the fields, what can be read off them, rule 10's end detection),
`moves` (legal plays, the rule-of-thumb hint), `play` (applying an action, arranging a
won deal). This module adds construction (the deal, made-up layouts, JSON) and
re-exports the names other modules have always imported from here.

The deal (rules 1-2)
--------------------
The 96 cards start in a fixed order: deck one then deck two, each in suit order
S H D C and, within a suit, ranks 2..K (no aces). They are shuffled by Fisher-Yates with
``SplitMix64(derive_seed(number))``. After shuffling, card ``i`` for ``i < 24`` goes to
cell ``i``; the remaining 72 cards form the stock in the order they will be turned, i.e.
shuffled card 24 is the first card the first deal turns up (it is the stock's top).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from app.common.cards import Card, CardError
from app.common.checks import is_int
from app.common.errors import InvalidRecord
from app.common.rng import SplitMix64, derive_seed
from app.grip.rules.actions import (
    DealThree,
    EndDeal,
    GridToGrid,
    GripAction,
    Redeal,
    Swap,
    TalonToGrid,
    grip_action_from_json,
    grip_action_to_json,
)
from app.grip.rules.events import (
    Arranged,
    DealEnded,
    Dealt,
    Filled,
    GripEvent,
    PileMoved,
    Redealt,
    Swapped,
    TalonPlayed,
)
from app.grip.rules.layout import (
    CELLS,
    COLS,
    DRAW,
    MAX_PILE,
    PASS_OPTIONS,
    ROWS,
    Grid,
    cell_name,
    chain_of,
    fits,
    grip_deck,
    is_chain,
)
from app.grip.rules.moves import legal_actions as list_legal_actions
from app.grip.rules.moves import rule_hint
from app.grip.rules.play import apply as play_action
from app.grip.rules.play import arranged as arrange
from app.grip.rules.position import Position, rating, talon_showable
from app.grip.rules.shapes import GripStateView

__all__ = [
    "CELLS",
    "COLS",
    "DRAW",
    "MAX_PILE",
    "PASS_OPTIONS",
    "ROWS",
    "Arranged",
    "DealEnded",
    "DealThree",
    "Dealt",
    "EndDeal",
    "Filled",
    "Grid",
    "GridToGrid",
    "GripAction",
    "GripEvent",
    "GripState",
    "PileMoved",
    "Redeal",
    "Redealt",
    "Swap",
    "Swapped",
    "TalonPlayed",
    "TalonToGrid",
    "cell_name",
    "chain_of",
    "fits",
    "grip_action_from_json",
    "grip_action_to_json",
    "grip_deck",
    "is_chain",
    "rating",
    "state_from_parts",
    "talon_showable",
]


def _card(value: Any) -> Card:
    if isinstance(value, Card):
        return value
    return Card.parse(value)


def _cards(values: Any) -> tuple[Card, ...]:
    if isinstance(values, str):
        return tuple(Card.parse(t) for t in values.split())
    return tuple(_card(v) for v in values)


def _strs(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


@dataclass(frozen=True)
class GripState(Position):
    """One position of a Devil's Grip deal. Build it with `deal`, `from_layout` or
    `from_json`; the plain constructor does not validate.

    Invariant kept by every constructor and by `apply`: a grid cell is empty only when both
    the stock and the talon are empty (rule 7 fills a cell as soon as it empties).
    """

    # ------------------------------------------------------------------ construction

    @classmethod
    def deal(cls, number: int, passes: int | None = None) -> GripState:
        """Deal `number` (rules 1-2; the order is documented in the module docstring)."""
        if not is_int(number) or not 0 <= number < 1 << 64:
            raise ValueError("a deal number is an integer 0 .. 2**64-1")
        _check_passes(passes, 1)
        cards = grip_deck()
        SplitMix64(derive_seed(number)).shuffle(cards)
        grid = tuple((c,) for c in cards[:CELLS])
        stock = tuple(reversed(cards[CELLS:]))
        state = cls(grid, stock, (), passes, 1, False)
        return state._with_end_detected()

    @classmethod
    def from_layout(
        cls,
        grid: Sequence[Any],
        stock: Any = (),
        talon: Any = (),
        passes: int | None = None,
        passes_used: int = 1,
    ) -> GripState:
        """A position from explicit cards (``Card`` objects or strings like ``"TS"``; a
        pile may also be one string ``"5S 8S"``). The cards need not be a full double deck
        (tests use small, made-up positions; copies are not counted), but there are no
        aces, 24 cells, and every pile is a valid chain (rule 3).

        Rule 7 is applied at once: each empty cell, in cell order, takes the stock's top
        card, or the talon's when the stock is empty. `ended` is set when rule 10 says the
        deal is over.
        """
        try:
            piles = [list(_cards(p)) for p in grid]
            stock_t = _cards(stock)
            talon_t = _cards(talon)
        except (CardError, TypeError) as exc:
            raise ValueError(f"bad cards in layout: {exc}") from None
        if len(piles) != CELLS:
            raise ValueError(f"the grid has {CELLS} cells, got {len(piles)}")
        _check_passes(passes, passes_used)
        _check_cards(piles, stock_t, talon_t)
        stock_l, talon_l = list(stock_t), list(talon_t)
        for pile in piles:
            if not pile:
                if stock_l:
                    pile.append(stock_l.pop())
                elif talon_l:
                    pile.append(talon_l.pop())
        state = cls(tuple(tuple(p) for p in piles), tuple(stock_l), tuple(talon_l), passes, passes_used, False)
        return state._with_end_detected()

    def _with_end_detected(self) -> GripState:
        if not self.ended and self.stuck:
            return replace(self, ended=True)
        return self

    # ------------------------------------------------------------------ play

    def legal_actions(self, *, swaps: bool = True) -> list[GripAction]:
        """Every legal play (deal, redeal, talon, move, and swaps unless ``swaps=False``),
        in that order. Empty once the deal is over. `EndDeal` is not listed: it is always
        allowed while the deal is not over. (`moves.legal_actions`.)"""
        return list_legal_actions(self, swaps=swaps)

    def hint(self) -> GripAction | None:
        """The rule-of-thumb next step, None when the deal is over (`moves.rule_hint`)."""
        return rule_hint(self)

    def apply(self, action: GripAction) -> tuple[GripState, list[GripEvent]]:
        """Validate and play `action`: the new state and the events; raises `GameOver`
        after the end, `IllegalAction` against the rules (`play.apply`)."""
        return play_action(self, action)

    def arranged(self) -> GripState:
        """Rule 6: a won deal with its rows arranged (`play.arranged`)."""
        return arrange(self)

    # ------------------------------------------------------------------ JSON

    def view(self) -> GripStateView:
        """What the browser may see: piles, counts, the top three talon cards (bottom..top;
        they were face up when turned) and never the stock's order."""
        s = self.score()
        over = self.is_over()
        out: GripStateView = {
            "grid": [_strs(p) for p in self.grid],
            "stock": len(self.stock),
            "talon": _strs(self.talon[-DRAW:]),
            "talon_count": len(self.talon),
            "passes_allowed": self.passes_allowed,
            "passes_used": self.passes_used,
            "can_redeal": self.can_redeal,
            "score": s,
            "rating": rating(s),
            "ended": self.ended,
            "over": over,
            "won": self.won,
        }
        return out

    def to_json(self) -> dict[str, Any]:
        """The full canonical state (stock order included): for storage, never for players."""
        return {
            "grid": [_strs(p) for p in self.grid],
            "stock": _strs(self.stock),
            "talon": _strs(self.talon),
            "passes_allowed": self.passes_allowed,
            "passes_used": self.passes_used,
            "ended": self.ended,
        }

    @classmethod
    def from_json(cls, data: Any) -> GripState:
        """Inverse of `to_json`; raises `InvalidRecord` for anything malformed or
        inconsistent (including an empty cell beside a non-empty stock or talon)."""
        if not isinstance(data, dict):
            raise InvalidRecord("a state must be a JSON object")
        need = {"grid", "stock", "talon", "passes_allowed", "passes_used", "ended"}
        if set(data) != need:
            raise InvalidRecord(f"a state has exactly the fields {sorted(need)}")
        if not isinstance(data["ended"], bool):
            raise InvalidRecord("'ended' must be true or false")
        state = state_from_parts(
            data["grid"], data["stock"], data["talon"], data["passes_allowed"], data["passes_used"]
        )
        if data["ended"]:
            state = replace(state, ended=True)
        elif state.ended:
            raise InvalidRecord("the state is over but not marked ended")
        return state


def state_from_parts(grid: Any, stock: Any, talon: Any, passes: Any, passes_used: Any) -> GripState:
    """Strictly validated state from JSON parts (lists of card strings); `InvalidRecord`
    on any problem. Unlike `from_layout`, empty cells are not filled: they are an error
    while the stock or talon holds a card."""
    if not isinstance(grid, list) or not all(isinstance(p, list) for p in grid):
        raise InvalidRecord("'grid' must be a list of 24 lists of cards")
    for part in (stock, talon):
        if not isinstance(part, list):
            raise InvalidRecord("'stock' and 'talon' must be lists of cards")
    for value in [c for p in grid for c in p] + stock + talon:
        if not isinstance(value, str):
            raise InvalidRecord("cards must be strings like 'TS'")
    if passes is not None and not is_int(passes):
        raise InvalidRecord("'passes' must be an integer or null")
    if not is_int(passes_used):
        raise InvalidRecord("'passes_used' must be an integer")
    if (stock or talon) and any(not p for p in grid):
        raise InvalidRecord("an empty cell while the stock or talon has cards breaks rule 7")
    try:
        return GripState.from_layout(grid, stock, talon, passes, passes_used)
    except ValueError as exc:  # CardError is a ValueError too
        raise InvalidRecord(str(exc)) from None


def _check_passes(passes: Any, passes_used: Any) -> None:
    if passes is not None and (not is_int(passes) or passes < 1):
        raise ValueError("passes must be a positive integer (1 or 3) or None for unlimited")
    if not is_int(passes_used) or passes_used < 1:
        raise ValueError("passes_used must be at least 1 (the first pass counts)")
    if passes is not None and passes_used > passes:
        raise ValueError("passes_used exceeds the pass limit")


def _check_cards(piles: list[list[Card]], stock: tuple[Card, ...], talon: tuple[Card, ...]) -> None:
    for pile in piles:
        if len(pile) > MAX_PILE or not is_chain(pile):
            raise ValueError(f"not a valid pile (rule 3): {' '.join(map(str, pile))}")
    for c in [c for p in piles for c in p] + list(stock) + list(talon):
        if c.rank == 1:
            raise ValueError("Devil's Grip has no aces")
