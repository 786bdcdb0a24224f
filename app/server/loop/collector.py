"""The garbage collector's policy for a server whose rooms share one event loop.

Why not CPython's default: every collection stops the loop, and this server's heap does
not follow the generational rule. A move replaces a seat's cached analysis (legal
actions, pile views, rule-16 search results: docs/architecture.md) and frees the old
one, so the young generation fills with objects that live for seconds, while the old
ones they replace die. The collector counts allocations *minus* deallocations, so it
starts a young collection only after the slow net growth passes its threshold, by which
time the young list holds a whole second of replaced caches: measured at 50 practice
rooms of 7 bots, young collections of 17,000-40,000 objects costing 15-35 ms of CPU
each (more in wall time on a busy machine) about once a second, finding nothing to free
(bench/results/2026-12-03-collector-stalls.md). A lower threshold does not help (the list is long for
the reason above) and the objects surviving it are scanned again in the next
generation.

What the server does instead:

* `tick()`, every `TICK_S` on the loop: `gc.freeze()`, which moves every tracked object
  into the permanent generation in constant time (three list splices). The automatic
  young collection then only ever sees what was allocated since the last tick, and
  rarely runs at all (freezing resets its count). Frozen objects are still freed by
  reference counting the moment nothing points to them; only *cyclic* garbage waits.
* `check()`, every `CHECK_EVERY` ticks: a full collection (`gc.unfreeze()`,
  `gc.collect()`, `gc.freeze()`) frees any reference cycles kept since the last one.
  Its cost is the whole heap's (about 0.9 us an object: 160 ms for the 190,000 objects
  of 50 rooms of 8, measured in `bench/server.py --targets on --gc-log`), and every
  table stops for it, to free almost nothing (84 objects in that run). So it waits for
  a moment when nobody races: when no one is connected to a round in play (`busy()`
  is false) and the frozen heap has grown by `QUIET_GROWTH` since the last one. While
  people race it runs only if the heap has grown `BUSY_GROWTH` times *and* holds
  `BUSY_FLOOR` objects, which the rooms alone do not reach before the process runs out
  of CPU: a safety net against a leak, not a schedule. The floor matters for a server
  that starts nearly empty and fills up: growth alone fired at 1,600 players (501,000
  objects, 8x the start-up heap), a 307 ms pause in the middle of everyone's races,
  which set the players one process holds (bench/results/2026-12-07-server-on-uvloop.md).
  Either way it is logged with its duration; a busy one as a warning.

The code keeps its side of the bargain: a move makes no reference cycle (the test
tests/rooms/test_no_cycles.py plays rounds through the hub and counts what a full
collection finds), so nothing piles up between full collections.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable

from app.ops import instruments

log = logging.getLogger("demon.collector")

TICK_S = 0.1  # how often survivors are frozen: the longest young list the collector can meet
CHECK_EVERY = 100  # ticks between looks at the frozen heap's size (the look walks the whole list)
QUIET_GROWTH = 1.25  # a full collection when nobody races and the frozen heap has grown this much
BUSY_GROWTH = 8.0  # ... or while people race, only past this growth (a leak's safety net)
BUSY_FLOOR = 2_000_000  # ... and this many objects: more than a process at capacity holds
FLOOR = 200_000  # ... and never while it holds fewer objects than this
GEN0_THRESHOLD = 20_000  # the automatic young collection, a safety net between ticks


class Collector:
    """See the module docstring. `start()` once the server has started (rooms restored);
    `stop()` at shutdown."""

    def __init__(
        self,
        busy: Callable[[], bool] = lambda: False,
        *,
        tick_s: float = TICK_S,
        check_every: int = CHECK_EVERY,
        quiet_growth: float = QUIET_GROWTH,
        busy_growth: float = BUSY_GROWTH,
        busy_floor: int = BUSY_FLOOR,
        floor: int = FLOOR,
    ) -> None:
        self.busy = busy  # whether a pause now would be felt (Hub.racing)
        self.tick_s = tick_s
        self.check_every = check_every
        self.quiet_growth = quiet_growth
        self.busy_growth = busy_growth
        self.busy_floor = busy_floor
        self.floor = floor
        self.baseline = 0  # frozen objects after the last full collection
        self.full_collections = 0
        self.ticks = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.full_collection()
        gc.set_threshold(GEN0_THRESHOLD, 20, 20)
        self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def full_collection(self, busy: bool = False) -> float:
        """Collect everything, then freeze what is left; returns the seconds it took.
        `busy`: people were racing (logged as a warning: every table stopped for it)."""
        t0 = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        took = time.perf_counter() - t0
        self.baseline = gc.get_freeze_count()
        self.full_collections += 1
        (instruments.GC_FULL_RACING if busy else instruments.GC_FULL_QUIET).observe(took)
        log.log(
            logging.WARNING if busy else logging.INFO,
            "full collection%s: %d unreachable, %d objects kept, %.1f ms",
            " while people raced" if busy else "",
            found,
            self.baseline,
            took * 1e3,
        )
        return took

    def tick(self) -> None:
        gc.freeze()
        self.ticks += 1
        if self.ticks % self.check_every == 0:
            self.check()

    def check(self) -> bool:
        """A full collection if the frozen heap has grown past the limit for now (see
        the module docstring); whether it ran."""
        frozen = gc.get_freeze_count()
        if frozen < self.floor:
            return False
        busy = self.busy()
        if busy and frozen < self.busy_floor:
            return False
        if frozen < self.baseline * (self.busy_growth if busy else self.quiet_growth):
            return False
        self.full_collection(busy)
        return True

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.tick_s)
            try:
                self.tick()
            except Exception:  # the policy must never stop the server
                log.exception("collector tick failed")
