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
import re
from collections.abc import Generator
from pathlib import Path
from typing import Any

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


# Skip reasons that mean "a tool this machine lacks", not "this test does not apply here".
_MISSING_TOOL = re.compile(r"not installed|no \w+ binary|could not import|does not detect ES module", re.IGNORECASE)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """With DEMON_REQUIRE_TOOLS=1 (set by .ci/run, which installs Node, Chromium, HAProxy
    and Prometheus) a test skipped for a missing tool fails instead: a quiet skip would
    leave the JavaScript, the browser or the balancer untested while CI reads green."""
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    if os.environ.get("DEMON_REQUIRE_TOOLS") != "1" or not report.skipped:
        return
    reason = str(report.longrepr[-1]) if isinstance(report.longrepr, tuple) else str(report.longrepr)
    if _MISSING_TOOL.search(reason):
        report.outcome = "failed"
        report.longrepr = f"DEMON_REQUIRE_TOOLS=1, but this test was skipped for a missing tool: {reason}"
