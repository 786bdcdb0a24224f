"""Devil's Grip searches (hints, par, certified-winnable deals) off the event loop.

A search is CPU work measured in hundreds of milliseconds to seconds; on the event loop
it would stall every Demon room for that long. So every search runs in a worker process
and the loop only awaits an asyncio future that the executor's done-callback resolves
(through `call_soon_threadsafe`): the loop never blocks.

Two pools, so that a long job never queues in front of a hint:

* ``hints``: `hint_workers` processes (DEMON_HINT_WORKERS). A hint has a wall-clock
  deadline counted from the request's arrival (`hint_deadline_s`): the worker is given
  whatever is left of it as its search budget, so a hint that waited in the queue
  searches less instead of answering late (degrades gracefully). At most `hint_queue`
  hints are pending at once; past that a request is refused at once (`Busy`) rather than
  queued behind work it cannot wait for.
* ``search``: `search_workers` processes (DEMON_SEARCH_WORKERS) for par (seconds) and the
  solver that certifies winnable deals (up to `solve_budget_s`). A par a player waits
  for goes before the server's own background work (the daily deal's par, certifying
  deals), which waits until a worker is free; requests are bounded the same way.

Workers lower their own priority (`os.nice`) in their initializer: on a small machine a
busy worker competes with the event loop for a core, and the scheduler should prefer the
server. The pools use the *forkserver* start method, on purpose: the server process has
threads (the SQLite checkpoint thread, the executor's own management thread) and an
event loop, and `fork` from such a process copies locks in whatever state they are in;
*spawn* would be as safe but starts a fresh interpreter for each worker, while a
forkserver is started once, clean, and forks workers from there. Workers start lazily,
on the first job (uvicorn and tests see no start-up delay), and `start()` sends each pool
a trivial job so the engine is imported before the first real request.

The jobs are plain module-level functions (picklable by name); what crosses the process
boundary is the fair view for a hint (`GripView`, no stock order), a deal number for par,
and a full state only for the solver, which is allowed to see everything.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Callable

log = logging.getLogger("demon.grip_advisor")

WORKER_NICE = 10
MIN_HINT_BUDGET_S = 0.01
SERVER_WATCH_S = 1.0
URGENT, BACKGROUND = 0, 10  # job priorities in a pool's queue: lower goes first
HINT_MARGIN_S = 0.03  # pickling, the pipe and the HTTP answer, out of the deadline


class Busy(Exception):
    """Too many searches are pending: try again shortly (HTTP 503)."""


@dataclass(frozen=True)
class HintAnswer:
    action: dict | None  # JSON of a GripAction, None when the engine has no step to suggest
    expected_score: float
    complete: bool
    budget_s: float  # the search budget the worker was given


# --------------------------------------------------------------------------- worker side


def _worker_init(server_pid: int) -> None:
    try:
        os.nice(WORKER_NICE)
    except OSError:  # not allowed here: keep the default priority
        pass
    # Ctrl-C goes to the whole process group: the server shuts the pool down itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with, args=(server_pid,), name="server-watch", daemon=True).start()


def _exit_with(server_pid: int) -> None:
    """End this worker when the server is gone. A server stopped normally ends its
    workers itself, but one that is killed (SIGKILL, out of memory) cannot: its workers
    would wait for jobs forever, and with them the forkserver, which lives as long as any
    process holding its "alive" pipe does (every worker holds it)."""
    while True:
        time.sleep(SERVER_WATCH_S)
        try:
            os.kill(server_pid, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:  # the pid was reused by another user's process: ours is gone
            os._exit(0)


def _warm() -> bool:
    import app.engine.grip_search  # noqa: F401 - import cost paid before the first request
    return True


def _hint_job(view: Any, deadline: float, budget_s: float, seed: int) -> tuple[dict | None, float, bool, float]:
    from app.engine.devils_grip import grip_action_to_json
    from app.engine.grip_search import hint

    # CLOCK_MONOTONIC is one clock for every process of the machine.
    left = deadline - time.monotonic() - HINT_MARGIN_S
    budget = max(MIN_HINT_BUDGET_S, min(budget_s, left))
    answer = hint(view, seed=seed, budget_s=budget)
    action = grip_action_to_json(answer.action) if answer.action is not None else None
    return action, float(answer.expected_score), bool(answer.complete), budget


def _par_job(number: int, passes: int | None, budget_s: float) -> int:
    from app.engine.grip_search import par

    return int(par(number, passes, budget_s=budget_s))


def _solve_job(number: int, budget_s: float) -> list[dict] | None:
    """A winning line for deal `number` with unlimited passes, or None (not found in
    the budget: not certified, which is not the same as unwinnable)."""
    from app.engine.devils_grip import GripState, grip_action_to_json
    from app.engine.grip_search import solve

    line = solve(GripState.deal(number, None), budget_s=budget_s)
    return None if line is None else [grip_action_to_json(a) for a in line]


# --------------------------------------------------------------------------- server side


class _Pool:
    """One ProcessPoolExecutor fed from a priority queue, with a bound on pending jobs.

    Jobs go to the executor only when a worker is free, the most urgent first (lowest
    `priority`, then first come): a player's par does not wait behind the background
    work queued before it, only behind the one job a worker is already running. A job
    whose requester gave up (its awaiting task was cancelled) is dropped before it
    reaches a worker.
    """

    def __init__(self, name: str, workers: int, limit: int) -> None:
        self.name = name
        self.workers = max(1, workers)
        self.limit = max(1, limit)
        self.pending = 0  # bounded jobs queued or running
        self.running = 0
        self._queue: list[tuple[int, int, Callable[..., Any], tuple, asyncio.Future]] = []
        self._seq = itertools.count()
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(max_workers=self.workers,
                                                 mp_context=multiprocessing.get_context("forkserver"),
                                                 initializer=_worker_init, initargs=(os.getpid(),))
        return self._executor

    async def run(self, fn: Callable[..., Any], *args: Any, bounded: bool = True, priority: int = 0) -> Any:
        """Run `fn(*args)` in a worker and await it; `Busy` when `limit` jobs are pending
        (`bounded=False`: work the server queues itself, which must not take a
        request's place)."""
        if bounded and self.pending >= self.limit:
            raise Busy(f"{self.pending} {self.name} searches are already pending")
        done: asyncio.Future = asyncio.get_running_loop().create_future()
        heapq.heappush(self._queue, (priority, next(self._seq), fn, args, done))
        self.pending += bounded
        try:
            self._dispatch()
            return await done
        finally:
            self.pending -= bounded

    def _dispatch(self) -> None:
        while self.running < self.workers and self._queue:
            _prio, _seq, fn, args, done = heapq.heappop(self._queue)
            if done.done():  # cancelled while queued
                continue
            try:
                future: Future = self._pool().submit(fn, *args)
            except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh
                self._reset()
                future = self._pool().submit(fn, *args)
            self.running += 1
            future.add_done_callback(lambda f, done=done: done.get_loop().call_soon_threadsafe(self._finished, f, done))

    def _finished(self, future: Future, done: asyncio.Future) -> None:
        self.running -= 1
        if not done.done():
            if future.cancelled():
                done.set_exception(Busy(f"the {self.name} search was stopped"))
            elif isinstance(future.exception(), BrokenProcessPool):
                self._reset()
                done.set_exception(Busy(f"the {self.name} worker stopped; try again"))
            elif future.exception() is not None:
                done.set_exception(future.exception())
            else:
                done.set_result(future.result())
        self._dispatch()

    def _reset(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            log.warning("event=grip_pool_restart pool=%s", self.name)
            self.running = 0
            self._shutdown(executor)

    @staticmethod
    def _shutdown(executor: ProcessPoolExecutor) -> None:
        # A solver job may have seconds to go; nobody waits for its answer any more, so
        # its process is ended rather than waited for (the executor has no public way).
        processes = list(getattr(executor, "_processes", {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for proc in processes:
            if proc.is_alive():
                proc.terminate()

    def stop(self) -> None:
        for *_rest, done in self._queue:
            if not done.done():
                done.cancel()
        self._queue.clear()
        if self._executor is not None:
            self._shutdown(self._executor)
            self._executor = None


class GripAdvisor:
    """The server's door to the search engine: `hint`, `par`, `solve`, all awaitable."""

    def __init__(self, *, hint_workers: int = 1, search_workers: int = 1, hint_queue: int = 8,
                 search_queue: int = 64, hint_budget_s: float = 0.25, hint_deadline_s: float = 0.3,
                 par_budget_s: float = 0.25, solve_budget_s: float = 10.0) -> None:
        self.hints = _Pool("hint", hint_workers, hint_queue)
        self.search = _Pool("search", search_workers, search_queue)
        self.hint_budget_s = hint_budget_s
        self.hint_deadline_s = hint_deadline_s
        self.par_budget_s = par_budget_s
        self.solve_budget_s = solve_budget_s
        self._background: set[asyncio.Task] = set()

    @classmethod
    def from_settings(cls, settings: Any) -> "GripAdvisor":
        return cls(hint_workers=settings.hint_workers, search_workers=settings.search_workers,
                   hint_queue=settings.hint_queue, hint_budget_s=settings.hint_budget_s,
                   hint_deadline_s=settings.hint_deadline_s, par_budget_s=settings.par_budget_s,
                   solve_budget_s=settings.solve_budget_s)

    def start(self) -> list[asyncio.Task]:
        """Start both pools' workers in the background (importing the engine)."""
        async def warm(pool: _Pool) -> None:
            try:
                await pool.run(_warm, bounded=False)
            except Exception:  # noqa: BLE001 - a failed warm-up shows again on real use
                log.exception("could not start the %s workers", pool.name)
        tasks = [asyncio.create_task(warm(p)) for p in (self.hints, self.search)]
        for task in tasks:  # the loop keeps only weak references to tasks
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        return tasks

    def stop(self) -> None:
        self.hints.stop()
        self.search.stop()

    async def hint(self, view: Any, *, arrived: float | None = None, seed: int = 0) -> HintAnswer:
        """A hint for the fair view `view`, answered by `arrived + hint_deadline_s`
        (monotonic clock) as best the engine can in the time left."""
        deadline = (arrived if arrived is not None else time.monotonic()) + self.hint_deadline_s
        action, expected, complete, budget = await self.hints.run(_hint_job, view, deadline,
                                                                 self.hint_budget_s, seed)
        return HintAnswer(action, expected, complete, budget)

    async def par(self, number: int, passes: int | None, *, background: bool = False) -> int:
        """A deal's par; `background` (precomputing) yields to every request a player
        is waiting for and does not count against the queue bound."""
        return await self.search.run(_par_job, number, passes, self.par_budget_s,
                                     bounded=not background, priority=BACKGROUND if background else URGENT)

    async def solve(self, number: int) -> list[dict] | None:
        """Certification runs in the background only: it yields to every player request."""
        return await self.search.run(_solve_job, number, self.solve_budget_s, bounded=False, priority=BACKGROUND)
