"""Browser tests: the real server in a subprocess, driven by a real Chromium.

The server is `python -m app` (tests/support/live_server.py) on a free loopback port
with a temporary data directory and a fixed Demon deal (`DEMON_TEST_SEED`), so a test
knows which cards each seat holds. Chromium is Debian's (/usr/bin/chromium) or the one
named by $CHROMIUM_PATH; failing both, Playwright's own download is tried once.

Every page a test opens is watched: a console error, an uncaught exception, a failed
request or an HTTP error answer fails the test that caused it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.chromium import CHROMIUM_ARGS, DEBIAN_CHROMIUM
from tests.support.live_server import LiveServer

playwright_api = pytest.importorskip("playwright.sync_api")

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"

# With this seed (2 to 4 players), seat 0 holds A♣ on pile 1 and 2♣ on pile 4, and
# seat 1 holds 2♣ on pile 1 and A♣ on pile 7: both can race for the same foundation.
RACE_SEED = 288


PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def find_chromium() -> str | None:
    """$CHROMIUM_PATH, then Debian's Chromium, then Playwright's own (installed once)."""
    for candidate in (
        os.environ.get("CHROMIUM_PATH"),
        DEBIAN_CHROMIUM,
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    try:
        subprocess.run(
            [sys.executable, "-m", "playwright", "install", "chromium"], check=True, capture_output=True, timeout=300
        )
    except (subprocess.SubprocessError, OSError):
        return None
    return ""  # Playwright's own browser: no executable_path


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        pytest.fail(
            "No Chromium for the browser tests: install Debian's `chromium` package, "
            "set CHROMIUM_PATH to a Chromium binary, or make `python -m playwright "
            "install chromium` work.",
            pytrace=False,
        )
    return path


# Package scope, not session: Playwright's sync API keeps an event loop running in this
# thread while it is open, which would break the asyncio tests that run after these.
@pytest.fixture(scope="package")
def server(tmp_path_factory):
    srv = LiveServer(
        tmp_path_factory.mktemp("browser-server"), test_seed=RACE_SEED, countdown_s=0.6, reconnect_grace_s=60
    )
    with srv:
        yield srv


def fixed_layout_server(data_dir: Path, layout: Path) -> LiveServer:
    """A server of a module's own for the fit tests: every round starts from `layout`
    (DEMON_TEST_LAYOUT), the races are dealt from RACE_SEED, and the bots think slowly
    (they fill the seats; they are not there to end the round)."""
    return LiveServer(
        data_dir,
        test_seed=RACE_SEED,
        countdown_s=0.3,
        reconnect_grace_s=60,
        bot_think_scale=10,
        test_layout=layout,
    )


@pytest.fixture(scope="package")
def browser(chromium_path):
    with playwright_api.sync_playwright() as pw:
        kwargs = {"args": CHROMIUM_ARGS}
        if chromium_path:
            kwargs["executable_path"] = chromium_path
        try:
            chromium = pw.chromium.launch(**kwargs)
        except Exception as err:  # noqa: BLE001 - turned into a clear failure
            pytest.fail(f"Chromium at {chromium_path or 'Playwright default'} did not start: {err}", pytrace=False)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


class PageProblems:
    """Console errors, page errors, failed requests and HTTP errors seen on pages."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def watch(self, page, tag: str) -> None:
        page.on(
            "console",
            lambda msg: self.items.append(f"{tag} console.{msg.type}: {msg.text}") if msg.type == "error" else None,
        )
        page.on("pageerror", lambda err: self.items.append(f"{tag} uncaught: {err}"))
        page.on(
            "requestfailed",
            lambda req: (
                self.items.append(f"{tag} request failed: {req.method} {req.url} ({req.failure})")
                if not _aborted_by_navigation(req)
                else None
            ),
        )
        page.on(
            "response",
            lambda resp: (
                self.items.append(f"{tag} HTTP {resp.status}: {resp.request.method} {resp.url}")
                if resp.status >= 400
                else None
            ),
        )


def _aborted_by_navigation(request) -> bool:
    # A reload cancels the requests still in flight; that is the reload, not a failure.
    return (request.failure or "") == "net::ERR_ABORTED"


# The first-round guide (static/guide/guide.js) shows once per browser; a page opened for any
# other test is a browser that has seen it, so its bubble covers nothing a test clicks.
GUIDE_SEEN = """(() => { try {
  const prefs = JSON.parse(localStorage.getItem('dg.prefs') || '{}');
  if (!('guideGrip' in prefs)) {
    localStorage.setItem('dg.prefs', JSON.stringify({ ...prefs, guideGrip: true }));
  }
} catch (e) { /* no storage: nothing to remember */ } })();"""


@pytest.fixture
def open_page(browser, server):
    """open_page(tag, viewport=DESKTOP, path="/", guide=False) -> a new page in its own
    context (own storage, like another person's browser); `guide=True` for a browser that
    has not seen the first-round guide yet. Problems on any page fail the test."""
    problems = PageProblems()
    contexts = []

    def _open(
        tag: str,
        viewport: dict | None = None,
        path: str = "/",
        locale: str = "en-GB",
        touch: bool = False,
        guide: bool = False,
    ):
        context = browser.new_context(
            viewport=viewport or DESKTOP, locale=locale, base_url=server.base, has_touch=touch, is_mobile=touch
        )
        if not guide:  # a browser that has seen the first-round guide (tests/browser/test_guide.py)
            context.add_init_script(GUIDE_SEEN)
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(8000)
        problems.watch(page, tag)
        if path is not None:
            page.goto(path)
        return page

    _open.problems = problems
    yield _open
    for context in contexts:
        context.close()
    assert not problems.items, "problems on the pages:\n" + "\n".join(problems.items)
