"""The table's status bar in real Chromium: the round, and a practice round's two
buttons ("End now", "Bots finish"), keep to one line in every language at the four fit
sizes (tests/browser/test_fit.py). On a Russian phone the buttons once wrapped, which
took a line from the player's own cards. So do the round, "The bots are finishing the
round…" and "Take the round back" once the bots finish it: on a phone they took three
lines, and at a table of eight your cards shrank under 40 px.

The server is this module's own: its bots think ten times slower, so a round left to
them lasts long enough to be read in five languages.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import RACE_SEED
from tests.browser.helpers import wait_for_table
from tests.browser.test_fit import SIZES
from tests.support.live_server import LiveServer

# Each child of the bar that shows, its box, and whether its words broke over lines.
BAR = """() => [...document.querySelectorAll('.table-status > *')]
    .filter((el) => el.getBoundingClientRect().width > 1)  // not what only a screen reader reads
    .map((el) => {
        const r = el.getBoundingClientRect();
        const line = parseFloat(getComputedStyle(el).lineHeight) || 20;
        const words = el.matches('button') ? el.querySelector('.vote-label, span:not([hidden])') : el;
        const w = words ? words.getBoundingClientRect() : r;
        return {what: el.id || el.className, top: Math.round(r.top), bottom: Math.round(r.bottom),
                right: r.right, broken: w.height > line * 1.5};
    })"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = LiveServer(
        tmp_path_factory.mktemp("browser-status-bar"),
        test_seed=RACE_SEED,
        countdown_s=0.6,
        reconnect_grace_s=60,
        bot_think_scale=10,
    )
    with srv:
        yield srv


def wrapped_in_every_language(page, viewport: dict, shown: str, *, two_lines: bool = False) -> list:
    """The languages whose bar does not keep to one line (or breaks words, or runs past
    the window's edge), with what it showed; `shown`: a part that must show first.
    `two_lines`: words may break into two lines inside the row of the 40 px buttons, as
    a phone's vote that matters does (style.css); the bar must still be one row."""
    wrapped = []
    for code in ("en", "de", "fi", "ro", "ru"):
        page.select_option("select.lang", code)
        expect(page.locator("html")).to_have_attribute("lang", code)
        expect(page.locator(shown)).to_be_visible()
        parts = page.evaluate(BAR)
        tops = {p["top"] for p in parts}
        if (
            max(tops) - min(tops) > 12
            or (two_lines and max(p["bottom"] for p in parts) - min(tops) > 42)
            or (not two_lines and any(p["broken"] for p in parts))
            or max(p["right"] for p in parts) > viewport["width"]
        ):
            wrapped.append((code, parts))
    return wrapped


@pytest.mark.parametrize("size", list(SIZES))
def test_a_practice_rounds_status_bar_keeps_to_one_line_in_every_language(open_page, size):
    viewport, touch = SIZES[size]
    page = open_page("ann", viewport=viewport, touch=touch)
    page.fill("#practice-name", "Ann")
    page.select_option("#practice-bots", "7")
    page.click("#practice-start")
    wait_for_table(page)
    expect(page.locator("#bots-finish")).to_be_visible()
    assert wrapped_in_every_language(page, viewport, "#bots-finish") == []
    # the bots finish it: the bar says so, and offers the round back, still on one line
    page.keyboard.press("b")
    expect(page.locator(".table-status .finishing")).to_be_visible()
    assert wrapped_in_every_language(page, viewport, ".table-status .finishing", two_lines=True) == []
    expect(page.locator("#results")).to_be_hidden()  # read while the bots still played
