"""Deals certified winnable (unlimited passes), each with the winning line that proves it.

"Only deals that can be won" cannot be decided while the player waits: the solver may
search for seconds per deal and fails on some. So a background task keeps `ready` deals
certified ahead of demand: it draws random deal numbers, asks the solver (which may see
everything: it certifies, it does not advise) in the advisor's search pool, checks the
line it returns by replaying it (every action legal, ending at score 0), and stores it.
A deal the solver could not win within its budget is remembered as tried, not retried.

Taking a deal prefers the certified deals dealt least often, so with the task idle (the
reserve full) players still get variety, and once any deal is certified a request never
waits for the solver.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Protocol

from app.common.errors import IllegalAction
from app.grip.rules import GripState, grip_action_from_json
from app.grip.rules.shapes import ActionJson, GripStateView
from app.grip.service.advisor import Busy, GripAdvisor
from app.grip.service.shapes import GripSolutionStep
from app.support.logfmt import log_event

log = logging.getLogger("demon.grip_winnable")

MAX_NUMBER = 1_000_000_000
PAUSE_AFTER_MISS_S = 1.0  # a solver that gives up at once must not spin the loop


def check_line(number: int, line: list[ActionJson]) -> bool:
    """Whether `line` plays deal `number` (unlimited passes) legally to score 0."""
    state = GripState.deal(number, None)
    try:
        for item in line:
            state, _ = state.apply(grip_action_from_json(item))
    except IllegalAction:
        return False
    return state.won


def replay_line(number: int, line: list[ActionJson]) -> tuple[GripStateView, list[GripSolutionStep]]:
    """The deal's first view and, for each action of a (checked) line, the action with the
    view after it: what the page steps through when it shows a solution."""
    state = GripState.deal(number, None)
    first = state.view()
    steps: list[GripSolutionStep] = []
    for item in line:
        state, _ = state.apply(grip_action_from_json(item))
        steps.append({"action": item, "state": state.view()})
    return first, steps


class SolutionTable(Protocol):
    """What certification needs of a store (`app.storage.grip_store.GripStore` is one)."""

    def grip_solution(self, number: int) -> list[ActionJson] | None: ...

    def grip_tried(self, number: int) -> bool: ...

    def grip_winnable_count(self, *, undealt: bool = False) -> int: ...

    def take_grip_winnable(self) -> int | None: ...

    def save_grip_solution(self, number: int, line: list[ActionJson] | None) -> None: ...


class WinnableDeals:
    """The reserve of certified deals and the task that keeps it full."""

    def __init__(self, advisor: GripAdvisor, store: SolutionTable | None, ready: int) -> None:
        self.advisor = advisor
        self.store = store
        self.ready = ready
        self._memory: dict[int, list[ActionJson] | None] = {}  # without persistence
        self._dealt: dict[int, int] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.tried = 0

    # ------------------------------------------------------------ lookups

    def solution(self, number: int) -> list[ActionJson] | None:
        if self.store is not None:
            return self.store.grip_solution(number)
        return self._memory.get(number)

    def _tried(self, number: int) -> bool:
        return self.store.grip_tried(number) if self.store is not None else number in self._memory

    def _certified(self, *, undealt: bool) -> int:
        if self.store is not None:
            return self.store.grip_winnable_count(undealt=undealt)
        return sum(1 for n, line in self._memory.items() if line is not None and not (undealt and self._dealt.get(n)))

    def take(self) -> int | None:
        """A certified deal's number (None when none is certified yet)."""
        if self.store is not None:
            number = self.store.take_grip_winnable()
        else:
            known = [n for n, line in self._memory.items() if line is not None]
            number = min(known, key=lambda n: (self._dealt.get(n, 0), secrets.randbits(32)), default=None)
            if number is not None:
                self._dealt[number] = self._dealt.get(number, 0) + 1
        self._wake.set()
        return number

    # ------------------------------------------------------------ the background search

    def start(self) -> None:
        if self.ready > 0 and self._task is None:
            self._task = asyncio.create_task(self._keep_ready())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - stopping anyway
                pass
            self._task = None

    async def _keep_ready(self) -> None:
        while True:
            if self._certified(undealt=True) >= self.ready:
                self._wake.clear()
                await self._wake.wait()
                continue
            number = secrets.randbelow(MAX_NUMBER) + 1
            if self._tried(number):
                continue
            try:
                if not await self.certify(number):
                    await asyncio.sleep(PAUSE_AFTER_MISS_S)
            except Busy:
                await asyncio.sleep(1.0)
            except Exception:
                log.exception("certifying deal %s failed", number)
                await asyncio.sleep(5.0)

    async def certify(self, number: int) -> bool:
        """Ask the solver about one deal and store what it found; True when certified."""
        line = await self.advisor.solve(number)
        self.tried += 1
        if line is not None and not check_line(number, line):
            log.error("the solver's line for deal %s does not win it; not certified", number)
            line = None
        if self.store is not None:
            self.store.save_grip_solution(number, line)
        else:
            self._memory[number] = line
        log_event("grip_certify", number=number, winnable=line is not None, steps=len(line) if line is not None else 0)
        return line is not None
