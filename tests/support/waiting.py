"""Waiting for a condition instead of sleeping for a fixed time.

A fixed sleep is either too short on a loaded machine (the test fails at random) or too
long everywhere else (the suite crawls). `wait_until` polls the condition and returns as
soon as it holds, failing only after `timeout`; `wait_until_async` does the same on an
event loop without blocking it. A fixed sleep stays only where time passing is itself what
a test checks (a limit elapsing, a window, something that must *not* happen meanwhile).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(condition: Callable[[], T], timeout: float = 10.0, interval: float = 0.05, what: str = "") -> T:
    """The first truthy value of `condition()`, polled every `interval` seconds; an
    AssertionError naming `what` if it has not held after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"not so after {timeout} s: {what or condition}")
        time.sleep(interval)
    return value


async def wait_until_async(
    condition: Callable[[], T], timeout: float = 10.0, interval: float = 0.02, what: str = ""
) -> T:
    """`wait_until` on an event loop: the loop runs on while the condition is polled."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"not so after {timeout} s: {what or condition}")
        await asyncio.sleep(interval)
    return value
