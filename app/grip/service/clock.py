"""The server's search budget: wall-clock time, read here and nowhere in the rules.

A player waits for a hint, so production budgets are time (`hint_budget_s`), which the
rules cannot read (`app.grip.rules.budget` says why). `ClockBudget` answers the engine's
`Budget` questions from the monotonic clock; the advisor's worker processes make one per
job.
"""

from __future__ import annotations

import time

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
    def for_hint(cls, seconds: float) -> "ClockBudget":
        """A hint's search budget: `SEARCH_SHARE` of its time (the rest is margin for
        building and sending the answer)."""
        return cls(seconds * SEARCH_SHARE)

    def exhausted(self) -> bool:
        return time.perf_counter() >= self._end

    def left(self) -> float:
        """Seconds left (negative once past the end)."""
        return self._end - time.perf_counter()
