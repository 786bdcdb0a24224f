"""The hint engine spends the caller's budget and reads no clock: a budget
object comes in, so a test decides when it is spent."""

from __future__ import annotations

import ast
from pathlib import Path

from app.grip.rules import GripState
from app.grip.rules.budget import NodeBudget
from app.grip.rules.search import PlanMemo, hint, solve
from app.grip.rules.view import GripView

RULES = Path(__file__).resolve().parents[2] / "app" / "grip" / "rules"


class Spent:
    """A budget that is exhausted from the start (as a clock budget past its end)."""

    nodes = 10_000
    counted = False

    def exhausted(self) -> bool:
        return True

    def left(self) -> float:
        return -1.0


def test_the_rules_import_no_clock_and_nothing_above_them():
    for path in RULES.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else ([node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            )
            for name in names:
                assert name != "time", path
                assert not name.startswith(("app.grip.service", "app.server", "app.storage")), (path, name)


def test_a_spent_budget_still_answers_a_legal_hint():
    state = GripState.deal(7, None)
    for _ in range(30):  # through the first pass: the order becomes known
        state, _ = state.apply(state.legal_actions()[0])
    h = hint(GripView.of(state), Spent(), PlanMemo())
    assert h.action is not None and not h.complete
    state.apply(h.action)


def test_a_spent_budget_certifies_nothing():
    assert solve(GripState.deal(2, None), Spent()) is None


def test_the_same_node_budget_gives_the_same_hint_with_fresh_memos():
    state = GripState.deal(5, 3)
    for _ in range(30):
        state, _ = state.apply(state.legal_actions()[0])
    view = GripView.of(state)
    assert hint(view, NodeBudget(800), PlanMemo()) == hint(view, NodeBudget(800), PlanMemo())
