"""Par: the score the hint engine reaches on a deal (number + pass limit), kept for good.

Computing a par follows the hints from the deal's start: seconds of search, so it runs in
the advisor's search pool, once per deal: the answer is kept in SQLite (and in memory,
which is all there is without persistence) and reused by every later game of that deal.
Requests for a par being computed wait for the same job (one job per deal at a time), and
the job is shielded from the request: a client that gives up does not waste the work.

A par belongs to the engine that computed it: the tag stored with it is a hash of the
search engine's source and the per-hint budget, so a changed engine computes pars afresh
instead of comparing players against an old engine's numbers.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import OrderedDict
from pathlib import Path
from typing import Protocol

import app.grip.rules as grip_rules
from app.grip.service.advisor import GripAdvisor
from app.support.logfmt import log_event

log = logging.getLogger("demon.grip_par")

# The modules whose change changes a hint: the search and everything it plays by.
ENGINE_FILES = (
    "search.py",
    "solver.py",
    "budget.py",
    "view.py",
    "state.py",
    "layout.py",
    "actions.py",
    "position.py",
    "moves.py",
    "play.py",
)
PASS_LIMITS: tuple[int | None, ...] = (1, 3, None)
MEMORY_KEYS = 10_000


def engine_tag(budget_s: float) -> str:
    """Names the engine and budget a par was computed with (see the module docstring)."""
    digest = hashlib.sha256(f"budget={budget_s}".encode())
    root = Path(grip_rules.__file__).resolve().parent
    for name in ENGINE_FILES:
        path = root / name
        digest.update(path.read_bytes() if path.exists() else b"")
    return digest.hexdigest()[:16]


class ParTable(Protocol):
    """What par needs of a store (`app.storage.grip_store.GripStore` is one)."""

    def grip_par(self, number: int, passes: int | None, engine: str) -> int | None: ...

    def save_grip_par(self, number: int, passes: int | None, engine: str, par: int) -> None: ...


class ParBook:
    """Every par known, and the jobs computing the others (see the module docstring)."""

    def __init__(self, advisor: GripAdvisor, store: ParTable | None, budget_s: float) -> None:
        self.advisor = advisor
        self.store = store
        self.engine = engine_tag(budget_s)
        self._known: OrderedDict[tuple[int, int | None], int] = OrderedDict()
        self._running: dict[tuple[int, int | None], asyncio.Task[int]] = {}
        self._background: set[asyncio.Task[None]] = set()
        self.computed = 0  # pars computed by this process (tests read it)

    def known(self, number: int, passes: int | None) -> int | None:
        """The par if it is already known (memory, then SQLite); never searches."""
        key = (number, passes)
        par = self._known.get(key)
        if par is None and self.store is not None:
            par = self.store.grip_par(number, passes, self.engine)
            if par is not None:
                self._remember(key, par)
        return par

    async def get(self, number: int, passes: int | None, *, background: bool = False) -> int:
        """The par, computed in the search pool if nobody has yet (raises `Busy` when the
        pool is full); `background`: the server's own precomputing, which yields to
        players' requests."""
        par = self.known(number, passes)
        if par is not None:
            return par
        key = (number, passes)
        task = self._running.get(key)
        if task is None:
            task = self._running[key] = asyncio.create_task(self._compute(key, background))
            task.add_done_callback(lambda _t: self._running.pop(key, None))
        return await asyncio.shield(task)

    def precompute(self, number: int) -> list[asyncio.Task[None]]:
        """Start computing a deal's par under every pass limit (the daily deal's at start)."""
        tasks = [asyncio.create_task(self._quietly(number, p)) for p in PASS_LIMITS]
        for task in tasks:  # the loop keeps only weak references to tasks
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        return tasks

    async def _quietly(self, number: int, passes: int | None) -> None:
        try:
            await self.get(number, passes, background=True)
        except Exception:
            log.exception("could not precompute the par of deal %s", number)

    async def _compute(self, key: tuple[int, int | None], background: bool) -> int:
        number, passes = key
        par = await self.advisor.par(number, passes, background=background)
        self.computed += 1
        self._remember(key, par)
        if self.store is not None:
            self.store.save_grip_par(number, passes, self.engine, par)
        log_event("grip_par", number=number, passes=passes or "unlimited", par=par)
        return par

    def _remember(self, key: tuple[int, int | None], par: int) -> None:
        self._known[key] = par
        self._known.move_to_end(key)
        if len(self._known) > MEMORY_KEYS:
            self._known.popitem(last=False)
