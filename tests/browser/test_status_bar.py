"""The table's status bar in real Chromium: the round, and a practice round's two
buttons ("End now", "Bots finish"), keep to one line in every language at the four fit
sizes (tests/browser/test_fit.py). On a Russian phone the buttons once wrapped, which
took a line from the player's own cards."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import wait_for_table
from tests.browser.test_fit import SIZES

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


@pytest.mark.parametrize("size", list(SIZES))
def test_a_practice_rounds_status_bar_keeps_to_one_line_in_every_language(open_page, size):
    viewport, touch = SIZES[size]
    page = open_page("ann", viewport=viewport, touch=touch)
    page.fill("#practice-name", "Ann")
    page.select_option("#practice-bots", "7")
    page.click("#practice-start")
    wait_for_table(page)
    expect(page.locator("#bots-finish")).to_be_visible()
    wrapped = []
    for code in ("en", "de", "fi", "ro", "ru"):
        page.select_option("select.lang", code)
        expect(page.locator("html")).to_have_attribute("lang", code)
        expect(page.locator("#bots-finish")).to_be_visible()
        parts = page.evaluate(BAR)
        tops = {p["top"] for p in parts}
        if (
            max(tops) - min(tops) > 12
            or any(p["broken"] for p in parts)
            or max(p["right"] for p in parts) > viewport["width"]
        ):
            wrapped.append((code, parts))
    assert wrapped == [], wrapped
