"""Devil's Grip: playing one action on a position (rules 4-11) and arranging a won deal's
rows (rule 6). `GripState.apply` and `GripState.arranged` are these.

Every function takes a position and returns a new one (`dataclasses.replace`, so a
`GripState` in gives a `GripState` out) and never changes the old one. Validation is
here, next to the change it guards: whatever `apply` accepts is legal.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, TypeVar

from app.common.cards import SUITS, Card
from app.common.checks import is_int
from app.common.errors import GameOver, IllegalAction
from app.grip.rules.actions import DealThree, EndDeal, GridToGrid, GripAction, Redeal, Swap, TalonToGrid
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
from app.grip.rules.layout import CELLS, COLS, DRAW, chain_of, fits
from app.grip.rules.position import Position, rating

P = TypeVar("P", bound=Position)


def apply(state: P, action: GripAction) -> tuple[P, list[GripEvent]]:
    """Validate and play `action`; return the new state and the events.

    Raises `GameOver` after the end, `IllegalAction` for anything against the rules;
    this state is never changed. Events (`GripEvent`; `to_json()` gives the wire
    form): `Dealt`, `Redealt`, `TalonPlayed`, `PileMoved`, `Swapped`, `Filled` (rule 7:
    the card that refilled an emptied cell and where it came from), and a final
    `DealEnded` when the deal ends (by the player or by rule 10), with score, rating
    and won. When the play wins the deal, the rows are arranged at once (rule 6, see
    `arranged`) and an `Arranged` event carries the new grid.
    """
    if state.ended:
        raise GameOver("the deal is over")
    events: list[GripEvent]
    if isinstance(action, DealThree):
        new, events = _deal_three(state)
    elif isinstance(action, Redeal):
        new, events = _redeal(state)
    elif isinstance(action, TalonToGrid):
        new, events = _talon_to_grid(state, action)
    elif isinstance(action, GridToGrid):
        new, events = _grid_to_grid(state, action)
    elif isinstance(action, Swap):
        new, events = _swap(state, action)
    elif isinstance(action, EndDeal):
        new = replace(state, ended=True)
        return new, [end_event(new, "player")]
    else:
        raise IllegalAction(f"not a Devil's Grip action: {action!r}")
    if new.stuck:
        new = replace(new, ended=True)
        events.append(end_event(new, "rule"))
        if new.won:  # rule 6: the app arranges the rows of a won deal itself
            try:
                tidy = arranged(new)
            except IllegalAction:  # a made-up position whose piles cannot fill the rows
                tidy = new
            if tidy.grid != new.grid:
                new = tidy
                events.append(Arranged(new.grid))
    return new, events


def end_event(state: Position, by: str) -> DealEnded:
    """The event that ends the deal, `by` "player" or "rule", with rule 11's score."""
    s = state.score()
    return DealEnded(by, s, rating(s), state.won)


def _deal_three(state: P) -> tuple[P, list[GripEvent]]:
    if not state.stock:
        if state.talon and state.may_redeal_later:
            raise IllegalAction("the stock is empty: redeal the talon first")
        raise IllegalAction("the stock is empty")
    n = min(DRAW, len(state.stock))
    turned = state.stock[::-1][:n]  # turning order: top of the stock first
    new = replace(state, stock=state.stock[:-n], talon=state.talon + turned)
    return new, [Dealt(turned, len(new.stock), len(new.talon))]


def _redeal(state: P) -> tuple[P, list[GripEvent]]:
    if state.stock:
        raise IllegalAction("redeal only when the stock is empty")
    if not state.talon:
        raise IllegalAction("there is no talon to turn over")
    if not state.may_redeal_later:
        raise IllegalAction(f"no more redeals: {state.passes_allowed} pass(es) allowed")
    new = replace(state, stock=state.talon[::-1], talon=(), passes_used=state.passes_used + 1)
    return new, [Redealt(new.passes_used, len(new.stock))]


def _cell(value: Any, what: str) -> int:
    if not is_int(value) or not 0 <= value < CELLS:
        raise IllegalAction(f"{what} must be a cell 0..{CELLS - 1}, got {value!r}")
    return int(value)


def _talon_to_grid(state: P, action: TalonToGrid) -> tuple[P, list[GripEvent]]:
    dst = _cell(action.dst, "dst")
    if not state.talon:
        raise IllegalAction("the talon is empty")
    card = state.talon[-1]
    pile = state.grid[dst]
    if not pile:
        raise IllegalAction("a talon card never goes into an empty cell")
    if not fits(card, pile[-1]):
        raise IllegalAction(f"{card} does not go on {pile[-1]}")
    grid = list(state.grid)
    grid[dst] = pile + (card,)
    new = replace(state, grid=tuple(grid), talon=state.talon[:-1])
    return new, [TalonPlayed(card, dst)]


def _grid_to_grid(state: P, action: GridToGrid) -> tuple[P, list[GripEvent]]:
    src = _cell(action.src, "src")
    dst = _cell(action.dst, "dst")
    count = action.count
    if src == dst:
        raise IllegalAction("a pile cannot move onto itself")
    pile = state.grid[src]
    if not pile:
        raise IllegalAction("that cell is empty")
    if not is_int(count) or not 1 <= count <= len(pile):
        raise IllegalAction(f"count must be 1..{len(pile)} for that pile")
    target = state.grid[dst]
    if not target:
        raise IllegalAction("moving a pile into an empty cell is a swap")
    run = pile[len(pile) - count :]
    if not fits(run[0], target[-1]):
        raise IllegalAction(f"{run[0]} does not go on {target[-1]}")
    grid = list(state.grid)
    grid[dst] = target + run
    grid[src] = pile[: len(pile) - count]
    events: list[GripEvent] = [PileMoved(src, dst, count, run)]
    stock, talon = state.stock, state.talon
    if not grid[src]:  # rule 7, with the talon fallback (decision)
        if stock:
            grid[src] = (stock[-1],)
            stock = stock[:-1]
            events.append(Filled(src, grid[src][0], "stock"))
        elif talon:
            grid[src] = (talon[-1],)
            talon = talon[:-1]
            events.append(Filled(src, grid[src][0], "talon"))
    return replace(state, grid=tuple(grid), stock=stock, talon=talon), events


def _swap(state: P, action: Swap) -> tuple[P, list[GripEvent]]:
    a = _cell(action.a, "a")
    b = _cell(action.b, "b")
    if a == b:
        raise IllegalAction("a cell cannot swap with itself")
    if not state.grid[a] and not state.grid[b]:
        raise IllegalAction("both cells are empty")
    grid = list(state.grid)
    grid[a], grid[b] = grid[b], grid[a]
    # By the invariant an empty cell means stock and talon are empty: no refill needed.
    return replace(state, grid=tuple(grid)), [Swapped(a, b)]


def arranged(state: P) -> P:
    """Rule 6: a won deal with its rows arranged: 2-based piles (ending in J) in the top
    row, 3-based in the middle, 4-based at the bottom; within a row by suit S H D C,
    twins side by side in their current cell order. Raises `IllegalAction` when the
    piles cannot fill the rows that way (the deal is not won)."""
    rows: list[list[tuple[int, int, tuple[Card, ...]]]] = [[], [], []]
    for i, pile in enumerate(state.grid):
        if not pile:
            raise IllegalAction("only a won deal is arranged")
        rows[chain_of(pile[0])].append((SUITS.index(pile[0].suit), i, pile))
    if any(len(r) != COLS for r in rows):
        raise IllegalAction("only a won deal is arranged")
    grid = tuple(p for r in rows for _, _, p in sorted(r, key=lambda x: (x[0], x[1])))
    return replace(state, grid=grid)
