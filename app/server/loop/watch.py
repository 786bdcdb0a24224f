"""How late the rooms' event loop runs: a stall as every table feels it.

Every room of the process shares one event loop, so anything that holds it (a garbage
collection, a slow query, a long computation) delays every play of every table by the
same amount, and the per-move histograms cannot show it: the move that waited is timed
from when it ran. This watch asks the loop to wake it every `EVERY_S` and records how
late it woke (`demon_loop_lag_seconds`); a wake-up `STALL_S` late or more counts as a
stall (`demon_loop_stalls_total`) and is logged, at most once every `LOG_EVERY_S`, so a
self-hoster sees "the server stalled" in the logs and on the dashboard, and the
benchmarks can tell a stall of the server from one of the machine. It costs one timer
and one observation every tenth of a second.
"""

from __future__ import annotations

import asyncio
import logging

from app.ops import instruments

log = logging.getLogger("demon.loop")

EVERY_S = 0.1  # how often the loop is asked to wake the watch
STALL_S = 0.1  # a wake-up this late counts as a stall
LOG_EVERY_S = 10.0  # at most one stall line in the log this often (the counter has them all)


class LoopWatch:
    """`start()` on the running loop (the app's lifespan), `stop()` at shutdown."""

    def __init__(self, every_s: float = EVERY_S, stall_s: float = STALL_S) -> None:
        self.every_s = every_s
        self.stall_s = stall_s
        self.worst_s = 0.0  # the longest lateness seen (for /health and the tests)
        self.stalls = 0
        self._next_log = 0.0  # loop time before which a stall is counted but not logged
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def observe(self, late_s: float, now: float) -> None:
        """One wake-up, `late_s` after it was due, at loop time `now`."""
        late_s = max(0.0, late_s)
        instruments.LOOP_LAG_SECONDS.observe(late_s)
        self.worst_s = max(self.worst_s, late_s)
        if late_s < self.stall_s:
            return
        self.stalls += 1
        instruments.LOOP_STALLS.inc()
        if now >= self._next_log:
            self._next_log = now + LOG_EVERY_S
            log.warning(
                "the event loop stalled: %.0f ms late (%d stalls of %.0f ms or more since start)",
                late_s * 1e3,
                self.stalls,
                self.stall_s * 1e3,
            )

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + self.every_s
            await asyncio.sleep(self.every_s)
            now = loop.time()
            self.observe(now - due, now)
