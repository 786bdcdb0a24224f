"""Shared by every test folder: the header says which variant of the hot path ran.

`make compile` builds Demon's rules and the room's move path with mypyc
(app/support/native.py); the same tests must pass with and without it, so a run's log
names the variant it tested, and a run refuses to start on compiled modules older than
their source (it would test the old code). `DEMON_EXPECT_COMPILED=1` (set by .ci/run after a
successful build) makes the run fail at once if the compiled modules are not the ones
loaded, rather than quietly testing pure Python.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.support import native

BROWSER_TESTS = Path(__file__).resolve().parent / "browser"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test under tests/browser/ is marked `browser`, so `-m "not browser"` runs
    the rest without Chromium."""
    for item in items:
        if item.path.is_relative_to(BROWSER_TESTS):
            item.add_marker(pytest.mark.browser)


def pytest_report_header() -> str:
    return native.status()


def pytest_sessionstart(session: pytest.Session) -> None:
    stale = native.stale_modules()
    if stale:  # the edited source would not be what runs
        raise pytest.UsageError(
            f"compiled modules older than their source: {', '.join(stale)}; "
            "run `make compile` again, or `make clean-compiled`"
        )
    if os.environ.get("DEMON_EXPECT_COMPILED") == "1":
        missing = sorted(set(native.NATIVE_MODULES) - set(native.compiled_modules()))
        if missing:
            raise pytest.UsageError(f"DEMON_EXPECT_COMPILED=1 but these run as Python: {', '.join(missing)}")
