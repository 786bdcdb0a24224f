"""Devil's Grip: a position's fields, what can be read off it, and exact end detection
(rule 10).

`Position` is the plain value (grid, stock, talon, passes); `GripState` (`state.py`) adds
construction, JSON and play on top of it. The two are apart so that the move generator
(`moves.py`) and the play of an action (`play.py`) can work on a position without
importing the state module that uses them: the imports go one way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

from app.common.cards import Card
from app.grip.rules.layout import DRAW, Grid
from app.grip.rules.shapes import Rating

T = TypeVar("T")  # a card, or (`explain_end`) a card's place in talon + stock


def rating(score: int) -> Rating | None:
    """Rule 11: "win" for 0, "brilliant" for 1-2, "excellent" up to 5, "good" up to 10."""
    if score <= 0:
        return "win"
    if score <= 2:
        return "brilliant"
    if score <= 5:
        return "excellent"
    if score <= 10:
        return "good"
    return None


def talon_showable(stock: Sequence[T], talon: Sequence[T], may_redeal: bool) -> list[T]:
    """Every card the talon can show from here on by deals and redeals alone (rule 10).

    Nothing but deals and redeals happens in between, so the cycle ignores the grid:
    * the current talon top can be played now;
    * dealing through the rest of the stock shows every third card in turning order,
      plus the last card when the stock does not divide by three;
    * after a redeal the new stock turns in the order ``talon bottom..top`` followed by the
      cards turned from the rest of this pass: one full pass over the same sequence D.
      Another redeal restores exactly the same stock again, so every later pass shows the
      same cards as this one: one extra pass (if allowed at all) is the whole future.
    """
    shown: list[T] = []
    if talon:
        shown.append(talon[-1])
    order = list(reversed(stock))  # turning order of the rest of this pass
    shown.extend(order[DRAW - 1 :: DRAW])
    if len(order) % DRAW:
        shown.append(order[-1])
    if may_redeal:
        full = list(talon) + order
        shown.extend(full[DRAW - 1 :: DRAW])
        if len(full) % DRAW:
            shown.append(full[-1])
    return shown


@dataclass(frozen=True)
class Position:
    """One position of a Devil's Grip deal (see `GripState`, which is what the rest of the
    app builds and plays).

    Invariant kept by every constructor and by `apply`: a grid cell is empty only when both
    the stock and the talon are empty (rule 7 fills a cell as soon as it empties).
    """

    grid: Grid
    stock: tuple[Card, ...]
    talon: tuple[Card, ...]
    passes_allowed: int | None = None
    passes_used: int = 1
    ended: bool = False

    @property
    def may_redeal_later(self) -> bool:
        """Whether the pass limit still allows at least one more redeal (rule 9)."""
        return self.passes_allowed is None or self.passes_used < self.passes_allowed

    @property
    def can_redeal(self) -> bool:
        """Whether `Redeal` is legal right now."""
        return not self.ended and not self.stock and bool(self.talon) and self.may_redeal_later

    def score(self) -> int:
        """Rule 11: cards not in the grid (stock + talon); lower is better."""
        return len(self.stock) + len(self.talon)

    @property
    def won(self) -> bool:
        """Every card is in the grid (rule 11: score 0)."""
        return not self.stock and not self.talon

    @cached_property
    def stuck(self) -> bool:
        """Rule 10 alone: no card can ever enter the grid (whether or not the player ended
        the deal). Kept once computed: a position never changes."""
        return no_card_can_enter(self.grid, self.stock, self.talon, self.may_redeal_later)

    def is_over(self) -> bool:
        """Rule 10, exact: the deal has ended (by the player) or no card can ever enter the
        grid again.

        A card enters the grid only (a) from the talon onto a pile, or (b) into a cell
        emptied by moving a *whole* pile onto another pile (rule 7). Part-pile moves and
        swaps never help: a part-pile move uncovers a top whose successor is the moved
        card's twin, which already fitted where the moved card went, and it leaves the set
        of pile bottoms unchanged; swaps change neither tops nor bottoms. So the deal goes
        on exactly when some whole pile's bottom card fits on another pile's top, or some
        card the talon can still show (`talon_showable`: the current pass, and one more
        pass if a redeal is allowed — later passes repeat it) fits on a pile's top.

        Empty cells: by the invariant a cell is empty only when stock and talon are both
        empty, and then no card can ever enter: the deal is over (moving a pile into an
        empty cell or onto another pile brings nothing in).
        """
        return self.ended or self.stuck


def no_card_can_enter(grid: Grid, stock: tuple[Card, ...], talon: tuple[Card, ...], may_redeal: bool) -> bool:
    """Rule 10 end detection (see `GripState.is_over` for the argument)."""
    if not stock and not talon:
        return True
    wanted: set[tuple[str, int]] = set()  # (suit, rank) of every card that fits on some top
    for pile in grid:
        if pile:
            top = pile[-1]
            if top.rank <= 10:
                wanted.add((top.suit, top.rank + 3))
    if not wanted:
        return True
    for pile in grid:
        if pile:
            bottom = pile[0]
            if (bottom.suit, bottom.rank) in wanted:
                # A pile's bottom never fits on its own top (bottom rank <= top rank),
                # so this is a move onto another pile.
                return False
    return all((card.suit, card.rank) not in wanted for card in talon_showable(stock, talon, may_redeal))
