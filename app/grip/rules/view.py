"""What a Devil's Grip player with perfect memory knows: the fair input to the hint engine.

The hint engine (`search`) takes a `GripView`, never a `GripState`, so that it
*cannot* use the order of stock cards that have not been turned yet: the type simply does
not hold it. `GripView.of(state)` is the only way to build one from a state.

What a player with perfect memory knows:
* the grid and the talon, in order (every talon card was face up when it was turned);
* once a pass has been completed (``passes_used >= 2``) or the stock is empty, the whole
  stock order: after a redeal the stock is the talon turned over, unshuffled, and every
  card that leaves it later leaves it visibly. Then `stock_order` holds it (last = top);
* during the first pass, only which cards are still in the stock (every card of the
  double deck that is not in the grid or the talon): `unseen`, sorted, so that two stocks
  that differ only in order give equal views;
* whether the deal is over (rule 10): the game announces it. (With one pass this may
  depend on the unseen order; it is still what the player is told.)
"""

from __future__ import annotations

from dataclasses import dataclass

from app.common.cards import Card
from app.grip.rules.state import GripState


@dataclass(frozen=True)
class GripView:
    """What a player with perfect memory knows (see the module docstring)."""

    grid: tuple[tuple[Card, ...], ...]
    talon: tuple[Card, ...]  # full order, last = top
    stock_order: tuple[Card, ...] | None  # known order (last = top), else None
    unseen: tuple[Card, ...]  # sorted multiset of stock cards whose order is unknown
    passes_allowed: int | None
    passes_used: int
    ended: bool

    @classmethod
    def of(cls, state: GripState) -> GripView:
        """The view of `state`: the stock's order is kept only when a player has seen it."""
        known = state.passes_used >= 2 or not state.stock
        return cls(
            grid=state.grid,
            talon=state.talon,
            stock_order=state.stock if known else None,
            unseen=() if known else tuple(sorted(state.stock)),
            passes_allowed=state.passes_allowed,
            passes_used=state.passes_used,
            ended=state.is_over(),  # the game announces its end (rule 10): public
        )

    @property
    def stock_size(self) -> int:
        return len(self.stock_order) if self.stock_order is not None else len(self.unseen)

    @property
    def order_known(self) -> bool:
        return self.stock_order is not None

    def score(self) -> int:
        """Rule 11: cards not in the grid."""
        return self.stock_size + len(self.talon)

    def as_state(self, stock: tuple[Card, ...] | None = None) -> GripState:
        """A state with this view's grid and talon. With the order known, `stock` must be
        omitted and the known order is used; otherwise `stock` is one *guessed* order of
        `unseen` (a determinization) and must hold exactly those cards."""
        if self.stock_order is not None:
            if stock is not None and tuple(stock) != self.stock_order:
                raise ValueError("the stock order is known; a different one was given")
            stock = self.stock_order
        elif stock is None or sorted(stock) != list(self.unseen):
            raise ValueError("a guessed stock must hold exactly the unseen cards")
        return GripState(self.grid, tuple(stock), self.talon, self.passes_allowed, self.passes_used, self.ended)
