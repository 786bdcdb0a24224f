"""A table of eight well into its round still fits, your own cards at least 40 px.

With eight players the foundations grow to as many as 32 piles. On a 390 × 844 phone they
wrap to three rows and more, and each row took its height from your own layout: once the
foundations reached three rows the player's cards shrank below 40 CSS px (to about
35 px), under the size the issue asks for cards and tap targets on a phone.

The server here starts every round from tests/browser/layouts/tall-pile-32-foundations.json:
the tall-pile layout of test_fit.py (pile 7: six face-down cards under twelve face-up, the
tallest pile a layout can have) with three aces of each of the eight seats already home,
so the table opens with 24 foundation piles and the place for a new one. The checks are
test_fit.py's: everything you can act on inside the unscrolled window, each covered card's
corner in view, every other seat's panel whole, and your cards and their targets ≥ 40 px.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, fixed_layout_server
from tests.browser.helpers import settled, wait_for_table
from tests.browser.test_fit import ACTIONABLE, OTHERS, SIZES, TALL, outside

LAYOUT = Path(__file__).resolve().parent / "layouts" / "tall-pile-32-foundations.json"
SHOTS = ARTIFACTS / "fit"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """This module's own server: every round starts with 32 foundation piles, and the bots
    think slowly (they fill the seats; the test reads the table as dealt)."""
    with fixed_layout_server(tmp_path_factory.mktemp("browser-fit-foundations"), LAYOUT) as srv:
        yield srv


# The foundations' rows, from where each pile's top edge lies.
ROWS = """() => new Set([...document.querySelectorAll('.foundations .fnd')]
    .map((f) => Math.round(f.getBoundingClientRect().top))).size"""


@pytest.mark.parametrize("size", list(SIZES))
def test_a_table_of_eight_with_many_foundations_fits(open_page, size):
    viewport, touch = SIZES[size]
    page = open_page(f"fit-foundations-{size}", viewport=viewport, touch=touch)
    page.fill("#practice-name", "Ann")
    page.select_option("#create-rounds", "1")
    page.select_option("#practice-bots", "7")
    page.select_option("#practice-level", "easy")
    page.click("#practice-start")
    wait_for_table(page)
    expect(page.locator(".countdown")).to_be_hidden()
    expect(page.locator(".mine .tableau .pile[data-src='6'] .card.up")).to_have_count(len(TALL))
    expect(page.locator(".foundations [data-fpile] .card.face")).to_have_count(32)
    settled(page)  # card sizes follow the window
    rows = page.evaluate(ROWS)
    fit = page.evaluate(ACTIONABLE)
    others = page.evaluate(OTHERS)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"fit-foundations-{size}-8p.png"))
    if size == "phone":
        assert rows >= 3, f"the foundations take {rows} rows: the case this test is for needs three"
    assert fit["scrollY"] == 0 and not others["pageTaller"], others
    assert not outside(fit), "\n".join(outside(fit))
    hidden = [f for f in fit["fans"] if f["shown"] < 0.36 * f["width"] - 0.5]
    assert not hidden, hidden
    assert others["panels"] == 7 and not others["problems"], "\n".join(others["problems"])
    assert min(others["mine"]) >= 40 - 0.5, (
        f"your cards at {min(others['mine']):.1f} px with {rows} rows of foundations"
    )
    small = [t for t in others["targets"] if t[1] < 40 - 0.5 or t[2] < 40 - 0.5]
    assert not small, small
