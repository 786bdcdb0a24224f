"""Devil's Grip move generation: every legal play of a position, and the rule-of-thumb
hint (`GripState.legal_actions` and `GripState.hint` are these).

Apart from applying an action (`play.py`): listing is read-only and asked for on every
answer the server sends, applying validates and builds the next position.
"""

from __future__ import annotations

from app.grip.rules.actions import DealThree, GridToGrid, GripAction, Redeal, Swap, TalonToGrid
from app.grip.rules.layout import CELLS, fits
from app.grip.rules.position import Position


def legal_actions(pos: Position, *, swaps: bool = True) -> list[GripAction]:
    """Every legal play (deal, redeal, talon, move, and swaps unless ``swaps=False``),
    in that order. Empty once the deal is over. `EndDeal` is not listed: it is always
    allowed while the deal is not over."""
    if pos.ended:
        return []
    grid = pos.grid
    out: list[GripAction] = []
    if pos.stock:
        out.append(DealThree())
    elif pos.talon and pos.may_redeal_later:
        out.append(Redeal())
    tops = [(i, p[-1]) for i, p in enumerate(grid) if p]
    if pos.talon:
        t = pos.talon[-1]
        out.extend(TalonToGrid(i) for i, top in tops if fits(t, top))
    for src, pile in enumerate(grid):
        n = len(pile)
        for count in range(1, n + 1):
            card = pile[n - count]
            for dst, top in tops:
                if dst != src and fits(card, top):
                    out.append(GridToGrid(src, dst, count))
    if swaps:
        for a in range(CELLS):
            for b in range(a + 1, CELLS):
                if grid[a] or grid[b]:
                    out.append(Swap(a, b))
    return out


def rule_hint(pos: Position) -> GripAction | None:
    """A next step towards bringing a card into the grid, or None when the deal is over.

    In order of preference: the talon's top card onto a pile; a whole-pile move onto
    another pile (its cell is refilled from the stock or talon); otherwise some card
    the talon can still show fits, so deal (or redeal when the stock is empty).
    Following the hints repeatedly brings a card in: deals and redeals walk the talon
    cycle, which reaches the fitting card within the allowed passes.
    """
    if pos.is_over():
        return None
    tops = [(i, p[-1]) for i, p in enumerate(pos.grid) if p]
    if pos.talon:
        t = pos.talon[-1]
        for i, top in tops:
            if fits(t, top):
                return TalonToGrid(i)
    for src, pile in enumerate(pos.grid):
        if pile:
            for dst, top in tops:
                if dst != src and fits(pile[0], top):
                    return GridToGrid(src, dst, len(pile))
    if pos.stock:
        return DealThree()
    if pos.can_redeal:
        return Redeal()
    return None  # unreachable while not over; kept for safety
