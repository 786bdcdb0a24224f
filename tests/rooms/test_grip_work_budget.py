"""A hint's quality does not depend on the machine's load.

The server's hint budget is a count of search nodes (`WorkBudget`), the clock only its
safety stop. Here the same deal is followed hint by hint twice, once alone and once
with a thread that keeps the interpreter busy (each search then takes several times as
long on the clock, as on a loaded machine): every hint must be the same. With the
former clock budget the beam narrowed when time ran short and the hints changed.
"""

from __future__ import annotations

import threading
import time

import pytest

from app.grip.rules import GripState
from app.grip.rules.budget import SearchStopped
from app.grip.rules.search import PlanMemo, hint
from app.grip.rules.view import GripView
from app.grip.service.advisor import WorkerMemory, _hint_job
from app.grip.service.clock import WorkBudget

BUDGET_S = 0.02  # a small budget keeps the test short; the counting is the same at 0.25


def follow(number: int, passes: int | None) -> list:
    state, memo, hints = GripState.deal(number, passes), PlanMemo(), []
    while True:
        h = hint(GripView.of(state), WorkBudget.for_hint(BUDGET_S, time.monotonic() + 120), memo, seed=number)
        hints.append(h)
        if h.action is None:
            return hints
        state, _ = state.apply(h.action)


class BusyThread:
    """Takes the interpreter from the search half of the time, as another process on a
    busy core would."""

    def __enter__(self) -> BusyThread:
        self.stop = threading.Event()
        self.spins = 0

        def spin() -> None:
            while not self.stop.is_set():
                self.spins += 1

        self.thread = threading.Thread(target=spin, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


@pytest.mark.parametrize("number, passes", [(4, 3), (9, None)])
def test_the_same_deal_gets_the_same_hints_with_the_interpreter_busy(number, passes):
    quiet = follow(number, passes)
    with BusyThread() as busy:
        loaded = follow(number, passes)
    assert busy.spins > 0
    assert len(quiet) > 20 and loaded == quiet


def test_a_search_past_its_safety_stop_gives_no_hint():
    state = GripState.deal(4, 3)
    while state.stock:  # through the first pass: the order is known, so the search runs
        state, _ = state.apply(state.legal_actions()[0] if state.talon else state.hint())
    with pytest.raises(SearchStopped):
        hint(GripView.of(state), WorkBudget.for_hint(BUDGET_S, time.monotonic() - 1), PlanMemo())
    with pytest.raises(SearchStopped):  # the worker's job passes it back; the advisor answers 503
        _hint_job(WorkerMemory(), GripView.of(state), time.monotonic() - 1, BUDGET_S, 0)
