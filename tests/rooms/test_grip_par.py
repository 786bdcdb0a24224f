"""Par is computed once per (deal, pass limit) by the real engine in a real worker
process, kept in a real SQLite file and reused after a restart; a certified winning line
is checked before it is stored and replays legally to score 0."""

from __future__ import annotations

import asyncio

from app.grip.rules import GripState, grip_action_from_json
from app.grip.service.advisor import GripAdvisor
from app.grip.service.par import ParBook
from app.grip.service.winnable import WinnableDeals, check_line, replay_line
from app.storage.store import Store


def test_par_is_stored_and_reused(tmp_path):
    async def first_run():
        advisor = GripAdvisor(par_budget_s=0.05)
        store = Store.open(tmp_path)
        book = ParBook(advisor, store, 0.05)
        try:
            both = await asyncio.gather(book.get(5, 3), book.get(5, 3))  # one job for both
            other = await book.get(5, None)
            return both, other, book.computed
        finally:
            advisor.stop()
            store.close()

    (a, b), unlimited, computed = asyncio.run(first_run())
    assert a == b and computed == 2
    assert 0 <= a <= 72 and 0 <= unlimited <= 72

    async def second_run():
        advisor = GripAdvisor(par_budget_s=0.05)
        store = Store.open(tmp_path)
        book = ParBook(advisor, store, 0.05)
        try:
            return book.known(5, 3), await book.get(5, None), book.known(5, 1), book.computed
        finally:
            advisor.stop()
            store.close()

    known, again, not_yet, computed = asyncio.run(second_run())
    assert (known, again, not_yet, computed) == (a, unlimited, None, 0)


def test_par_from_another_engine_is_not_reused(tmp_path):
    store = Store.open(tmp_path)
    try:
        store.save_grip_par(9, 1, "another-engine", 3)
        book = ParBook(None, store, 0.05)
        assert book.known(9, 1) is None
        store.save_grip_par(9, 1, book.engine, 4)
        assert book.known(9, 1) == 4
    finally:
        store.close()


def test_a_line_that_does_not_win_is_not_certified(tmp_path):
    state = GripState.deal(4, None)
    line = [state.legal_actions(swaps=False)[0].to_json()]
    assert not check_line(4, line)
    assert not check_line(4, [{"type": "move", "src": 0, "dst": 0, "count": 1}])


def test_certified_solution_replays_to_score_zero(tmp_path):
    """Ask the real solver for deals until one is certified; its stored line replays,
    every step legal, to a won deal."""

    async def run():
        advisor = GripAdvisor(solve_budget_s=5.0)
        store = Store.open(tmp_path)
        deals = WinnableDeals(advisor, store, ready=1)
        try:
            for number in range(1, 30):
                if await deals.certify(number):
                    return number, deals.solution(number), deals.take()
            return None, None, None
        finally:
            advisor.stop()
            store.close()

    number, line, taken = asyncio.run(run())
    assert number is not None, "the solver certified none of deals 1-29"
    assert taken == number
    state = GripState.deal(number, None)
    for item in line:
        assert grip_action_from_json(item) in state.legal_actions() or item["type"] == "end"
        state, _ = state.apply(grip_action_from_json(item))
    assert state.score() == 0 and state.won
    first, steps = replay_line(number, line)
    assert first == GripState.deal(number, None).view()
    assert steps[-1]["state"]["won"] is True and len(steps) == len(line)
