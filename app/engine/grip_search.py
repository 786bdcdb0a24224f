"""Devil's Grip hint engine (skeleton: the greedy rule until the search lands)."""

from __future__ import annotations

from dataclasses import dataclass

from app.engine.devils_grip_core import GripAction, GripState
from app.engine.grip_view import GripView


@dataclass(frozen=True)
class Hint:
    action: GripAction | None  # None exactly when the deal is over
    expected_score: float  # what the engine expects to finish with
    complete: bool  # False when the budget ran out and this is a weaker answer


def hint(view: GripView, *, seed: int = 0, budget_s: float = 0.25, node_budget: int | None = None) -> Hint:
    """The next action for `view` (skeleton: the greedy rule on the visible position)."""
    if view.ended:
        return Hint(None, float(view.score()), True)
    if view.order_known:
        state = view.as_state()
    else:
        state = view.as_state(view.unseen)
    action = state.hint()
    return Hint(action, float(view.score()), False)


def par(number: int, passes: int | None, *, budget_s: float = 0.25) -> int:
    """Follow hints from the deal's start; the final score."""
    state = GripState.deal(number, passes)
    while True:
        h = hint(GripView.of(state), budget_s=budget_s)
        if h.action is None:
            return state.score()
        state, _ = state.apply(h.action)


def solve(state: GripState, *, budget_s: float = 10.0) -> list[GripAction] | None:
    """Full information: a winning line, or None if none was found in budget (skeleton)."""
    return None
