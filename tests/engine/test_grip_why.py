"""The reason a Devil's Grip hint gives (app/grip/rules/why.py): one per kind of move,
from the player's view only."""

from __future__ import annotations

import pytest

from app.grip.rules import GripState
from app.grip.rules.shapes import GripHintReason
from app.grip.rules.state import DealThree, GridToGrid, Redeal, Swap, TalonToGrid
from app.grip.rules.view import GripView
from app.grip.rules.why import hint_reason

# Cards nothing goes on, and a 2D in the last cell for the 5D kept at the bottom of
# every stock (or talon): so a card can still enter and the deal is not over (rule 10).
FILL = (["QH", "KH", "QD", "KD", "QC", "KC", "QS", "KS"] * 3)[:23] + ["2D"]


def layout(cells: dict[int, str], stock=(), talon=(), **kw) -> GripState:
    grid = [cells.get(i, FILL[i]) for i in range(24)]
    return GripState.from_layout(grid, stock, talon, **kw)


def reason(state: GripState, action) -> GripHintReason:
    assert action in state.legal_actions(), action
    return hint_reason(GripView.of(state), action)


def test_a_talon_card_builds_on_a_pile_of_its_chain():
    s = layout({0: "2S"}, stock=["5D", "9C", "9D"], talon=["5S"])
    assert reason(s, TalonToGrid(0)) == {"kind": "talon", "card": "5S", "onto": "2S", "chain": 0}


def test_a_whole_pile_says_what_fills_its_cell():
    s = layout({0: "3H", 1: "6H 9H"}, stock=["5D", "7C"])
    assert reason(s, GridToGrid(1, 0, 2)) == {
        "kind": "whole",
        "card": "6H",
        "onto": "3H",
        "chain": 1,
        "refill": "stock",
    }
    s = layout({0: "3H", 1: "6H"}, talon=["5D", "7C"])
    assert reason(s, GridToGrid(1, 0, 1))["refill"] == "talon"


def test_part_of_a_pile_names_the_card_it_uncovers():
    s = layout({0: "2C", 1: "2C 5C 8C"}, stock=["5D", "7H"])
    assert reason(s, GridToGrid(1, 0, 2)) == {"kind": "part", "card": "5C", "onto": "2C", "chain": 0, "under": "2C"}


def test_stock_and_swap():
    s = layout({}, stock=["5D", "7H", "9H"])
    assert reason(s, DealThree()) == {"kind": "deal"}
    assert reason(s, Swap(0, 1)) == {"kind": "swap", "card": "QH", "onto": "KH"}
    s, _ = layout({}, stock=["5D", "9C", "9H"]).apply(DealThree())
    assert reason(s, Redeal()) == {"kind": "redeal"}


def test_the_reason_does_not_depend_on_the_unseen_stock_order():
    a = layout({0: "3H", 1: "6H"}, stock=["5D", "7C", "9D", "TS"])
    b = layout({0: "3H", 1: "6H"}, stock=["TS", "7C", "5D", "9D"])
    assert GripView.of(a) == GripView.of(b)
    assert reason(a, GridToGrid(1, 0, 1)) == reason(b, GridToGrid(1, 0, 1))


def test_an_end_action_has_no_reason():
    from app.grip.rules.state import EndDeal

    with pytest.raises(ValueError):
        hint_reason(GripView.of(layout({}, stock=["5D", "7H"])), EndDeal())
