"""The server's search budgets, and the clock, read here and nowhere in the rules.

A player waits for a hint, so its budget is stated as time (`hint_budget_s`), which the
rules cannot read (`app.grip.rules.budget` says why). Two ways to turn time into a
budget:

* `WorkBudget` (hints): the time turned into a *count* of search nodes, at the speed
  the engine searches when it has a core (`WORK_NODES_PER_SECOND`). The search stops at
  that count, so the same view gets the same hint however busy the machine is; a busy
  machine makes the hint later, not worse. With a clock budget the 3-pass hint's median
  fell from 2.0 cards left on a quiet machine to 10.5 at load average 12-16
  (bench/results/2026-12-03-hint-work-budget.md). The clock is only the owner's safety stop (`stop_at`): past
  it the search ends with no answer (`SearchStopped`), which the server answers 503.
* `ClockBudget` (par, the solver's certificates: background work nobody watches
  move by move): wall-clock time, the work divided by `nodes` and cut by the clock.
"""

from __future__ import annotations

import time

from app.grip.rules.budget import SearchStopped

# Depth-first nodes a second of CPU buys (measured on the development machine: about
# 57,000 at load average 15; beam expansions are counted as 3 nodes each, search.py).
WORK_NODES_PER_SECOND = 50_000
NODES_PER_SECOND = 30_000  # depth-first search speed measured here (positions per second)
SEARCH_SHARE = 0.8  # of a hint's time for searching; the rest is margin for the answer


class ClockBudget:
    """`seconds` of wall-clock time from now. `nodes` is what that time buys at the usual
    speed: it only divides the work (about equal shares among the move orders), the clock
    has the last word (`counted` is False)."""

    counted = False

    def __init__(self, seconds: float) -> None:
        self.nodes = max(1, int(seconds * NODES_PER_SECOND))
        self._end = time.perf_counter() + seconds

    @classmethod
    def for_hint(cls, seconds: float) -> ClockBudget:
        """A hint's search budget: `SEARCH_SHARE` of its time (the rest is margin for
        building and sending the answer)."""
        return cls(seconds * SEARCH_SHARE)

    def exhausted(self) -> bool:
        return time.perf_counter() >= self._end

    def left(self) -> float:
        """Seconds left (negative once past the end)."""
        return self._end - time.perf_counter()


class WorkBudget:
    """A counted budget of `nodes` (the searches stop there: deterministic), with the
    owner's safety stop: past `stop_at` (`time.monotonic()`) `exhausted()` raises
    `SearchStopped` instead of letting the search finish late."""

    counted = True

    def __init__(self, nodes: int, stop_at: float) -> None:
        self.nodes = max(1, nodes)
        self.stop_at = stop_at

    @classmethod
    def for_hint(cls, seconds: float, stop_at: float) -> WorkBudget:
        """The work `SEARCH_SHARE` of `seconds` buys at `WORK_NODES_PER_SECOND`."""
        return cls(int(seconds * SEARCH_SHARE * WORK_NODES_PER_SECOND), stop_at)

    def exhausted(self) -> bool:
        if time.monotonic() >= self.stop_at:
            raise SearchStopped(f"the search passed its safety stop ({self.nodes} nodes budgeted)")
        return False

    def left(self) -> float:
        return float(self.nodes)
