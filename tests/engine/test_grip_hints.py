"""Devil's Grip hint engine (`grip_view`, `grip_search`, `grip_solver`).

Every search here runs with a node budget (`NodeBudget`), never a clock budget, so the
results do not depend on the machine's speed; strength is measured in `bench/grip_hints.py`.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.grip.rules import DealThree, GridToGrid, GripState, Redeal, TalonToGrid
from app.grip.rules.budget import NodeBudget
from app.grip.rules.search import PlanMemo, hint, line_actions, par, solve
from app.grip.rules.solver import Pos, beam, macro_moves, play, to_actions
from app.grip.rules.view import GripView

SETTINGS: dict[str, Any] = {"deadline": None, "derandomize": True, "suppress_health_check": [HealthCheck.too_slow]}


def random_walk(s: GripState, rng: random.Random, steps: int) -> GripState:
    """A seeded playout: random legal actions, mostly plays that bring a card in."""
    for _ in range(steps):
        if s.is_over():
            break
        acts = s.legal_actions(swaps=rng.random() < 0.05)
        plays = [a for a in acts if not isinstance(a, (DealThree, Redeal))]
        if plays and rng.random() < 0.6:
            s, _ = s.apply(rng.choice(plays))
        else:
            s, _ = s.apply(acts[0] if isinstance(acts[0], (DealThree, Redeal)) else rng.choice(acts))
    return s


@settings(max_examples=25, **SETTINGS)
@given(st.integers(0, 2**40), st.sampled_from([1, 3, None]), st.integers(0, 150), st.randoms(use_true_random=False))
def test_hint_is_legal_and_none_exactly_at_the_end(number, passes, steps, rng):
    s = random_walk(GripState.deal(number, passes), rng, steps)
    memo = PlanMemo()
    for _ in range(40):  # follow the hints a while (plans from the memo included)
        h = hint(GripView.of(s), NodeBudget(400), memo, seed=3)
        if s.is_over():
            assert h.action is None
            return
        assert h.action is not None
        s, _ = s.apply(h.action)  # raises IllegalAction if the hint is not legal


@settings(max_examples=15, **SETTINGS)
@given(st.integers(0, 2**40), st.sampled_from([1, 3, None]), st.integers(0, 40), st.randoms(use_true_random=False))
def test_permuting_the_unseen_stock_never_changes_the_hint(number, passes, steps, rng):
    s = random_walk(GripState.deal(number, passes), rng, steps)
    if s.passes_used > 1 or not s.stock:
        return  # the order is known: nothing is unseen
    stock = list(s.stock)
    rng.shuffle(stock)
    other = GripState(s.grid, tuple(stock), s.talon, s.passes_allowed, s.passes_used, s.ended)
    if other.is_over() != s.is_over():
        return  # with one pass the order decides whether the deal is over, which the game announces
    a, b = GripView.of(s), GripView.of(other)
    assert a == b and a.stock_order is None and sorted(a.unseen) == sorted(s.stock)
    ha = hint(a, NodeBudget(3000), PlanMemo(), seed=11)
    hb = hint(b, NodeBudget(3000), PlanMemo(), seed=11)
    assert ha == hb


def test_the_view_keeps_the_order_once_every_card_was_seen():
    s = GripState.deal(5, 3)
    assert GripView.of(s).stock_order is None
    while s.stock:
        s, _ = s.apply(DealThree())
    v = GripView.of(s)
    assert v.stock_order == () and v.talon == s.talon  # every card turned: known
    s, _ = s.apply(Redeal())
    assert GripView.of(s).stock_order == s.stock and GripView.of(s).unseen == ()


def test_rule_09_dealing_through_the_first_pass_loses_nothing():
    """The premise of the unlimited first pass: after dealing through and redealing, the
    grid is unchanged and the stock turns in the same order as at the start."""
    start = GripState.deal(17)
    s = start
    while s.stock:
        s, _ = s.apply(DealThree())
    s, _ = s.apply(Redeal())
    assert s.grid == start.grid and s.stock == start.stock and not s.talon


def test_unlimited_first_pass_hint_deals_to_learn_the_order():
    s = GripState.deal(4)
    h = hint(GripView.of(s), NodeBudget(500), PlanMemo())
    assert h.action == DealThree() and not h.complete


def test_small_budget_hints_win_an_easy_deal():
    s = GripState.deal(2)  # unlimited passes; won by the first line the search tries
    memo = PlanMemo()
    for _ in range(500):
        h = hint(GripView.of(s), NodeBudget(2000), memo, seed=1)
        if h.action is None:
            break
        s, _ = s.apply(h.action)
    assert s.is_over() and s.won and s.score() == 0


def test_following_a_plan_reuses_it():
    s = GripState.deal(2)
    while s.stock:
        s, _ = s.apply(DealThree())
    memo = PlanMemo()
    h = hint(GripView.of(s), NodeBudget(2000), memo)
    assert h.complete and h.expected_score == 0
    s2, _ = s.apply(h.action)
    assert memo.get(GripView.of(s2)) is not None  # the next hint needs no search


@pytest.mark.parametrize("number", [2, 3, 9])
def test_solver_line_replays_legally_to_score_0(number):
    s = GripState.deal(number)
    line = solve(s, NodeBudget(50_000))
    assert line is not None
    for a in line:
        s, _ = s.apply(a)
    assert s.won and s.score() == 0 and s.ended


def test_solver_gives_up_within_its_budget():
    assert solve(GripState.deal(48), NodeBudget(100)) is None


def test_hint_rejects_a_state():
    with pytest.raises(TypeError):
        hint(GripState.deal(1), NodeBudget(10), None)  # the full state would show the stock's order


def test_hint_at_the_end_is_none():
    s = GripState.deal(2)
    line = solve(s, NodeBudget(50_000))
    for a in line:
        s, _ = s.apply(a)
    h = hint(GripView.of(s), NodeBudget(10), PlanMemo())
    assert h.action is None and h.expected_score == 0 and h.complete


def test_first_pass_of_three_plays_talon_cards_but_never_pulls_blind():
    s = GripState.deal(3, 3)
    seen_talon_play = False
    while not GripView.of(s).order_known:
        h = hint(GripView.of(s), NodeBudget(500), PlanMemo())
        assert not isinstance(h.action, GridToGrid)  # a whole pile would pull an unseen card
        seen_talon_play |= isinstance(h.action, TalonToGrid)
        s, _ = s.apply(h.action)
    assert seen_talon_play


def test_par_with_a_node_budget_is_reproducible():
    a = par(2, 3, lambda: NodeBudget(3000))
    assert a == par(2, 3, lambda: NodeBudget(3000))
    assert 0 <= a <= 72
    assert par(2, None, lambda: NodeBudget(3000)) == 0  # the easy deal again: won


def test_beam_line_replays_to_its_score():
    s = GripState.deal(6, 3)
    while s.stock:
        s, _ = s.apply(DealThree())
    r = beam(Pos.of(s.grid, s.talon, s.stock, s.passes_used, 3), 400)
    for a in line_actions(s, r.line):
        s, _ = s.apply(a)
    assert s.score() == r.left and s.is_over()


@settings(max_examples=40, **SETTINGS)
@given(st.integers(0, 2**40), st.sampled_from([1, 3, None]), st.integers(0, 400), st.randoms(use_true_random=False))
def test_rule_10_search_has_a_move_exactly_while_a_card_can_enter(number, passes, steps, rng):
    """The search's moves leave out part-pile moves and swaps; rule 10 says those never
    bring a card in. So the search has a move exactly when the deal is not over, and
    each move's real actions are legal and bring one card in."""
    s = random_walk(GripState.deal(number, passes), rng, steps)
    pos = Pos.of(s.grid, s.talon, s.stock, s.passes_used, s.passes_allowed)
    moves = macro_moves(pos)
    assert bool(moves) == (not s.is_over())
    for m in moves[:5]:
        t = s
        for a in to_actions(s, m):
            t, _ = t.apply(a)
        assert t.score() == s.score() - 1
        child = play(pos, m)
        assert child.key() == Pos.of(t.grid, t.talon, t.stock, t.passes_used, t.passes_allowed).key()
