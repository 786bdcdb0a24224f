"""The legal actions of a game's current state as JSON, kept while the state is the same.

Every answer the server sends carries the legal actions, and building the list (about
300 actions, most of them swaps) costs more than the rest of an answer; asking for a hint
or looking at the game again does not change the state. So each session keeps one
`LegalActions`: the one cache of this question, with its one rule of invalidation (a
different state object: states are immutable, and every play, undo or redo makes or
restores another one).
"""

from __future__ import annotations

from app.grip.rules.actions import grip_action_to_json
from app.grip.rules.layout import CELLS
from app.grip.rules.shapes import ActionJson
from app.grip.rules.state import GripState

# The swaps of a grid with no empty cell, as `legal_actions` lists them (a < b): the same
# 276 objects in nearly every answer, so they are built once (they are only read).
ALL_SWAPS: list[ActionJson] = [{"type": "swap", "a": a, "b": b} for a in range(CELLS) for b in range(a + 1, CELLS)]


def legal_json(state: GripState) -> list[ActionJson]:
    """`state.legal_actions()` as JSON, sharing `ALL_SWAPS` when every cell holds a pile."""
    if state.is_over() or not all(state.grid):
        return [grip_action_to_json(a) for a in state.legal_actions()]
    # every cell holds a pile: every pair of cells may swap (rule 5)
    return [grip_action_to_json(a) for a in state.legal_actions(swaps=False)] + ALL_SWAPS


class LegalActions:
    """One session's legal actions, computed again only for another state."""

    __slots__ = ("_legal", "_state")

    def __init__(self) -> None:
        self._state: GripState | None = None
        self._legal: list[ActionJson] = []

    def of(self, state: GripState) -> list[ActionJson]:
        if state is not self._state:
            self._legal = legal_json(state)
            self._state = state
        return self._legal
