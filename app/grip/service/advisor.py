"""Devil's Grip searches (hints, par, certified-winnable deals) off the event loop.

A search is CPU work measured in hundreds of milliseconds to seconds; on the event loop
it would stall every Demon room for that long. So every search runs in a worker process
(a bounded pool of them, `_Pool`), and the loop only writes the job to the worker's
socket and awaits the answer on it: the loop never blocks, and no helper thread in the
server takes the GIL from it.

Two pools, so that a long job never queues in front of a hint:

* ``hints``: `hint_workers` processes (DEMON_HINT_WORKERS). A hint's search does a
  fixed amount of work, `hint_budget_s` at the engine's usual speed
  (`clock.WorkBudget`), so the same view always gets the same hint, on a quiet machine
  or a busy one. The wall clock is only the safety stop, counted from the
  request's arrival (`hint_deadline_s`): a hint that finds no free worker in time, whose
  search passes the stop (`SearchStopped`), or whose worker has not answered shortly
  after it (a worker starved of CPU on a busy machine) is refused (`Busy`, 503) rather
  than answered late or worse. At most `hint_queue` hints are pending at once; past
  that a request is refused at once.
* ``search``: `search_workers` processes (DEMON_SEARCH_WORKERS) for par (seconds) and the
  solver that certifies winnable deals (up to `solve_budget_s`). A par a player waits
  for goes before the server's own background work (the daily deal's par, certifying
  deals), which waits until a worker is free; requests are bounded the same way.

Workers lower their own priority when they start (`os.nice(10)` and, on Linux, the
SCHED_IDLE policy): on a small machine a busy worker competes with the event loop for a
core, and the scheduler should always prefer the server. They end themselves when the server process is gone (a killed server cannot end
them). The workers use the *forkserver* start method, on purpose: the server process has
threads (the SQLite checkpoint thread, asyncio's default executor) and an event loop,
and `fork` from such a process copies locks in whatever state they are in; *spawn* would
be as safe but starts a fresh interpreter for each worker, while a forkserver is started
once, clean, and forks workers from there. Workers start on a pool's first job;
`start()` (the app's lifespan) sends each pool a trivial job so that the engine is
imported before the first real request.

The jobs are plain module-level functions (picklable by name); one marked
`@_uses_memory` is called with the worker's `WorkerMemory` first; what crosses the process boundary is the fair view for a
hint (`GripView`, no stock order), a deal number for par, and a full state only for the
solver, which is allowed to see everything.

The engine reads no clock and keeps nothing between calls; both are this side's job. A
job turns the time it was given into a budget (`app.grip.service.clock`), and the
worker process owns the hint engine's `PlanMemo` (`WorkerMemory`): following one's own
hints then costs nothing, as long as the same worker answers (one hint worker by
default).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import multiprocessing
import os
import pickle
import signal
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from app.config import Settings
from app.grip.rules.actions import grip_action_to_json
from app.grip.rules.budget import SearchStopped
from app.grip.rules.search import PlanMemo
from app.grip.rules.search import hint as search_hint
from app.grip.rules.search import par as search_par
from app.grip.rules.search import solve as search_solve
from app.grip.rules.shapes import ActionJson
from app.grip.rules.state import GripState
from app.grip.rules.view import GripView
from app.grip.service.clock import ClockBudget, WorkBudget

log = logging.getLogger("demon.grip_advisor")

WORKER_NICE = 10
MIN_HINT_BUDGET_S = 0.01
SERVER_WATCH_S = 1.0
URGENT, BACKGROUND = 0, 10  # job priorities in a pool's queue: lower goes first
HINT_MARGIN_S = 0.03
HINT_GRACE_S = 0.05  # past its deadline by this, a hint is refused (503), not awaited longer  # pickling, the pipe and the HTTP answer, out of the deadline


class Busy(Exception):
    """Too many searches are pending: try again shortly (HTTP 503)."""


@dataclass(frozen=True)
class HintAnswer:
    action: ActionJson | None  # JSON of a GripAction, None when the engine has no step to suggest
    expected_score: float
    complete: bool
    budget_s: float  # the search budget the worker was given


# --------------------------------------------------------------------------- worker side


def _worker_init(server_pid: int) -> None:
    try:
        os.nice(WORKER_NICE)
    except OSError:  # not allowed here: keep the default priority
        pass
    # Linux: SCHED_IDLE runs the worker only on a core nothing else wants, and a waking
    # server takes the core back at once; niceness alone still shares the core for a
    # while (measured: with 10 clients asking hints, Demon's open-loop p99 rose 3.9x with
    # SCHED_IDLE against 6.1x with nice 10 alone,
    # bench/results/2026-12-01-grip-hints-on-server.md).
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except OSError:  # not allowed: niceness must do
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


@dataclass
class WorkerMemory:
    """What a worker process keeps from one job to the next: the hint engine's plans."""

    memo: PlanMemo = field(default_factory=PlanMemo)


Job = TypeVar("Job", bound=Callable[..., Any])
T = TypeVar("T")
Args = tuple[Any, ...]
Queued = tuple[
    int, int, Callable[..., Any], Args, "asyncio.Future[Any]", float | None
]  # priority, seq, job, args, answer, expires


def _uses_memory(fn: Job) -> Job:
    """Mark a job that takes the worker's `WorkerMemory` as its first argument (other
    jobs, like the pool's tests' standard-library functions, are called as they are)."""
    fn.uses_memory = True  # type: ignore[attr-defined]  # a flag the worker loop reads
    return fn


def _warm() -> bool:
    """A trivial job: starts the worker (the engine is imported with this module)."""
    return True


@_uses_memory
def _hint_job(
    memory: WorkerMemory, view: GripView, deadline: float, budget_s: float, seed: int
) -> tuple[ActionJson | None, float, bool, float]:
    # The work is fixed (the same view, the same hint); the deadline is the safety stop.
    # CLOCK_MONOTONIC is one clock for every process of the machine.
    answer = search_hint(view, WorkBudget.for_hint(budget_s, deadline - HINT_MARGIN_S), memory.memo, seed=seed)
    action = grip_action_to_json(answer.action) if answer.action is not None else None
    return action, float(answer.expected_score), bool(answer.complete), budget_s


def _par_job(number: int, passes: int | None, budget_s: float) -> int:
    """Par with `budget_s` per hint; a run of its own memo (`search.play_hints`)."""
    return search_par(number, passes, lambda: ClockBudget.for_hint(budget_s))


def _solve_job(number: int, budget_s: float) -> list[ActionJson] | None:
    """A winning line for deal `number` with unlimited passes, or None (not found in
    the budget: not certified, which is not the same as unwinnable)."""
    line = search_solve(GripState.deal(number, None), ClockBudget(budget_s))
    return None if line is None else [grip_action_to_json(a) for a in line]


# --------------------------------------------------------------------------- server side


def _worker_main(sock: socket.socket, server_pid: int) -> None:
    """A worker's life: read a job (length-prefixed pickle of (function, args)), run it,
    write back (True, result) or (False, exception); until the server closes the socket."""
    _worker_init(server_pid)
    memory = WorkerMemory()
    stream = sock.makefile("rwb")
    while True:
        try:
            header = stream.read(4)
            job = stream.read(int.from_bytes(header, "big")) if len(header) == 4 else b""
        except (BrokenPipeError, ConnectionResetError):
            return  # the server was killed with a job unread: nobody to answer
        if not job:
            return
        fn, args = pickle.loads(job)
        try:
            out = (True, fn(memory, *args) if getattr(fn, "uses_memory", False) else fn(*args))
        except Exception as exc:  # noqa: BLE001 - sent back to the server, which decides
            out = (False, exc)
        try:
            data = pickle.dumps(out)
        except Exception as exc:  # noqa: BLE001 - an exception that does not pickle
            data = pickle.dumps((False, RuntimeError(f"{type(exc).__name__}: {exc}")))
        try:
            stream.write(len(data).to_bytes(4, "big") + data)
            stream.flush()
        except (BrokenPipeError, ConnectionResetError):
            return  # the server went away (killed) while this job ran: nobody to answer


class _Worker:
    """One worker process and the socket to it, read and written by the event loop."""

    def __init__(self, name: str) -> None:
        parent, child = socket.socketpair()
        ctx = multiprocessing.get_context("forkserver")
        self.proc = ctx.Process(target=_worker_main, args=(child, os.getpid()), name=name, daemon=True)
        self.proc.start()  # a few milliseconds: the forkserver forks it
        child.close()
        self.sock = parent
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.busy = False

    async def call(self, fn: Callable[..., Any], args: Args) -> Any:
        if self.reader is None or self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(sock=self.sock)
        data = pickle.dumps((fn, args))
        self.writer.write(len(data).to_bytes(4, "big") + data)
        header = await self.reader.readexactly(4)
        ok, value = pickle.loads(await self.reader.readexactly(int.from_bytes(header, "big")))
        if ok:
            return value
        raise value

    def stop(self) -> None:
        if self.writer is not None:
            self.writer.close()
        else:
            self.sock.close()
        if self.proc.is_alive():
            self.proc.terminate()


def _drop_answer(done: asyncio.Future[Any]) -> None:
    if not done.cancelled():
        done.exception()  # retrieved: an answer nobody waits for is not an error


class _Pool:
    """Worker processes fed from a priority queue, with a bound on pending jobs.

    Jobs go to a worker only when one is free, the most urgent first (lowest `priority`,
    then first come): a player's par does not wait behind the background work queued
    before it, only behind the one job a worker is already running. A job whose
    requester gave up (its awaiting task was cancelled) is dropped before it reaches a
    worker. A worker that dies fails its job (`Busy`) and is replaced.

    Why not `concurrent.futures.ProcessPoolExecutor`: it moves every job through two
    helper threads in the server process (a queue feeder and a manager), which take the
    GIL from the event loop. Measured on this 2-core machine (load average 7), a hint
    request cost the server 3.6-4.0 ms of CPU more than a plain look at the game with the
    executor, 2.2-2.7 ms with this (bench/results/2026-12-01-grip-hints-on-server.md). Here the loop itself writes the
    job to the worker's socket and reads the answer as it arrives: no helper thread.
    """

    def __init__(self, name: str, workers: int, limit: int) -> None:
        self.name = name
        self.size = max(1, workers)
        self.limit = max(1, limit)
        self.pending = 0  # bounded jobs queued or running
        self._workers: list[_Worker] = []
        self._queue: list[Queued] = []
        self._seq = itertools.count()
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def running(self) -> int:
        return sum(w.busy for w in self._workers)

    def _start_workers(self) -> None:
        while len(self._workers) < self.size:
            self._workers.append(_Worker(f"grip-{self.name}-{len(self._workers)}"))

    async def run(
        self,
        fn: Callable[..., T],
        *args: Any,
        bounded: bool = True,
        priority: int = 0,
        expires: float | None = None,
        give_up: float | None = None,
    ) -> T:
        """Run `fn(*args)` in a worker and await it; `Busy` when `limit` jobs are pending
        (`bounded=False`: work the server queues itself, which must not take a
        request's place), when no worker was free before `expires`, or when the answer
        has not come by `give_up` (both on the monotonic clock): an answer that can only
        come late is refused instead. A job given up on still runs to its end (the
        worker is not interrupted); its answer is dropped."""
        if bounded and self.pending >= self.limit:
            raise Busy(f"{self.pending} {self.name} searches are already pending")
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._queue, (priority, next(self._seq), fn, args, done, expires))
        self.pending += bounded
        try:
            self._dispatch()
            if give_up is None:
                return await done
            try:
                return await asyncio.wait_for(asyncio.shield(done), max(0.0, give_up - time.monotonic()))
            except TimeoutError:
                done.add_done_callback(_drop_answer)
                raise Busy(f"the {self.name} search did not answer in time") from None
        finally:
            self.pending -= bounded

    def _dispatch(self) -> None:
        self._start_workers()
        for worker in self._workers:
            if worker.busy:
                continue
            while self._queue:
                _prio, _seq, fn, args, done, expires = heapq.heappop(self._queue)
                if not done.done() and expires is not None and time.monotonic() > expires:
                    done.set_exception(Busy(f"no {self.name} worker was free in time"))
                if not done.done():  # else cancelled while queued, or expired
                    worker.busy = True
                    task = asyncio.get_running_loop().create_task(self._run_on(worker, fn, args, done))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
                    break

    async def _run_on(self, worker: _Worker, fn: Callable[..., Any], args: Args, done: asyncio.Future[Any]) -> None:
        try:
            result = await worker.call(fn, args)
        except (asyncio.IncompleteReadError, ConnectionError, OSError) as err:
            log.warning("event=grip_worker_lost pool=%s reason=%r", self.name, err)
            self._replace(worker)
            if not done.done():
                done.set_exception(Busy(f"the {self.name} worker stopped; try again"))
        except Exception as err:  # noqa: BLE001 - the job's own error, for its requester
            if not done.done():
                done.set_exception(err)
        else:
            if not done.done():
                done.set_result(result)
        finally:
            worker.busy = False
        if self._workers:  # not stopped meanwhile
            self._dispatch()

    def _replace(self, worker: _Worker) -> None:
        worker.stop()
        if worker in self._workers:
            self._workers.remove(worker)

    def stop(self) -> None:
        for *_rest, done, _expires in self._queue:
            if not done.done():
                done.cancel()
        self._queue.clear()
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.stop()


class GripAdvisor:
    """The server's door to the search engine: `hint`, `par`, `solve`, all awaitable."""

    def __init__(
        self,
        *,
        hint_workers: int = 1,
        search_workers: int = 1,
        hint_queue: int = 8,
        search_queue: int = 64,
        hint_budget_s: float = 0.25,
        hint_deadline_s: float = 0.3,
        par_budget_s: float = 0.25,
        solve_budget_s: float = 10.0,
    ) -> None:
        self.hints = _Pool("hint", hint_workers, hint_queue)
        self.search = _Pool("search", search_workers, search_queue)
        self.hint_budget_s = hint_budget_s
        self.hint_deadline_s = hint_deadline_s
        self.par_budget_s = par_budget_s
        self.solve_budget_s = solve_budget_s
        self._background: set[asyncio.Task[None]] = set()

    @classmethod
    def from_settings(cls, settings: Settings) -> GripAdvisor:
        return cls(
            hint_workers=settings.hint_workers,
            search_workers=settings.search_workers,
            hint_queue=settings.hint_queue,
            hint_budget_s=settings.hint_budget_s,
            hint_deadline_s=settings.hint_deadline_s,
            par_budget_s=settings.par_budget_s,
            solve_budget_s=settings.solve_budget_s,
        )

    def start(self) -> list[asyncio.Task[None]]:
        """Start both pools' workers in the background (importing the engine)."""

        async def warm(pool: _Pool) -> None:
            try:
                await pool.run(_warm, bounded=False)
            except Exception:
                log.exception("could not start the %s workers", pool.name)

        tasks = [asyncio.create_task(warm(p)) for p in (self.hints, self.search)]
        for task in tasks:  # the loop keeps only weak references to tasks
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        return tasks

    def stop(self) -> None:
        self.hints.stop()
        self.search.stop()

    async def hint(self, view: GripView, *, arrived: float | None = None, seed: int = 0) -> HintAnswer:
        """A hint for the fair view `view` (the same for the same view and memo), or
        `Busy` when it cannot be had by `arrived + hint_deadline_s` (monotonic clock)."""
        deadline = (arrived if arrived is not None else time.monotonic()) + self.hint_deadline_s
        try:
            action, expected, complete, budget = await self.hints.run(
                _hint_job,
                view,
                deadline,
                self.hint_budget_s,
                seed,
                expires=deadline - HINT_MARGIN_S - MIN_HINT_BUDGET_S,
                give_up=deadline + HINT_GRACE_S,
            )
        except SearchStopped:
            raise Busy("the hint search passed its safety stop") from None
        return HintAnswer(action, expected, complete, budget)

    async def par(self, number: int, passes: int | None, *, background: bool = False) -> int:
        """A deal's par; `background` (precomputing) yields to every request a player
        is waiting for and does not count against the queue bound."""
        return await self.search.run(
            _par_job,
            number,
            passes,
            self.par_budget_s,
            bounded=not background,
            priority=BACKGROUND if background else URGENT,
        )

    async def solve(self, number: int) -> list[ActionJson] | None:
        """Certification runs in the background only: it yields to every player request."""
        return await self.search.run(_solve_job, number, self.solve_budget_s, bounded=False, priority=BACKGROUND)
