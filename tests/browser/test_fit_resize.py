"""A window resized across a phone's width fits your cards to the room it leaves.

A new window size fits your cards anew (test_fit_wrap.py). Crossing a phone's width
(600 px) the page also draws other seats' panels anew for it (demon-panels.js
`watchNarrow`), after the window's `resize` event took the room: measured before that
drawing, the room was wrong, and the fit that followed it (table.js `createTableFit`, on
its ResizeObserver) kept to the mid-round rules. From a laptop to a phone, a drawing in
the same frame that added a foundation pile made the room gained count as "the
foundations took less room as they grew": no growth, your cards at 30 px with 116 px of
room unused below them until the next resize (seen first while bots finished a round).
From a phone to a laptop the panels drawn anew took room back, owed and not taken:
your cards larger than a fresh fit gives (65 px for 61 at 1366 x 768).

The server is this module's own: every round starts from
tests/browser/layouts/eight-seats-wrap.json (Ann's ace of spades on top of her waste:
the table opens with 19 foundation piles and her play makes the twentieth), the bots
slow. The page's frames are held (Gate) while Ann's ace goes home, and its main thread
kept busy for half a second while the plays and the new window size are given to it,
so that they land in one frame, as on a busy phone: the interleaving every run, with the
page's own code.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.browser.conftest import fixed_layout_server
from tests.browser.helpers import Gate, practice_from_home, settled
from tests.browser.test_fit import SIZES

LAYOUT = Path(__file__).resolve().parent / "layouts" / "eight-seats-wrap.json"
DEALT_PILES = 19

# your cards' width, and the room left unused below your layout
MINE_NOW = """() => ({
    card: document.querySelector('.mine .tableau .card.up').getBoundingClientRect().width,
    below: Math.round(innerHeight - document.querySelector('.mine').getBoundingClientRect().bottom),
})"""

# the page's main thread busy for `ms` from its next task: what it is given meanwhile waits
BUSY = "(ms) => { setTimeout(() => { const t = performance.now(); while (performance.now() - t < ms); }, 0); }"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """This module's own server: every round starts from the layout above."""
    with fixed_layout_server(tmp_path_factory.mktemp("browser-fit-resize"), LAYOUT) as srv:
        yield srv


def fresh_fit(page: Page, viewport: ViewportSize) -> dict:
    """Your layout as a resize that crosses no phone's width fits it: one px shorter,
    then the window's own size again."""
    page.set_viewport_size({"width": viewport["width"], "height": viewport["height"] - 1})
    settled(page)
    page.set_viewport_size(viewport)
    settled(page)
    return page.evaluate(MINE_NOW)


def test_your_cards_fit_the_room_after_the_window_crosses_a_phones_width(open_page):
    ann = open_page("fit-resize", viewport=SIZES["1920x1080"][0], path=None)
    gate = Gate()
    ann.route_web_socket(re.compile(r".*/ws/.*"), gate.route)
    ann.goto("/")
    practice_from_home(ann, 7, "easy")
    piles = ann.locator(".foundations [data-fpile] .card.face")
    expect(piles).to_have_count(DEALT_PILES)
    settled(ann)

    # Ann's ace goes home; its play, held, lands in the frame of the phone's new size
    gate.closed = True
    ann.keyboard.press("w")  # the waste's top card, the ace of spades
    ann.keyboard.press("f")  # to a foundation: a new pile
    deadline = time.monotonic() + 5
    while not any('"new_pile":true' in m for m in gate.held) and time.monotonic() < deadline:
        ann.wait_for_timeout(20)
    assert any('"new_pile":true' in m for m in gate.held), "Ann's ace made no new pile"
    ann.evaluate(BUSY, 500)
    gate.release()
    gate.closed = True  # nothing more lands while the sizes are compared
    ann.set_viewport_size(SIZES["phone"][0])
    settled(ann)
    expect(piles).to_have_count(DEALT_PILES + 1)

    seen = []
    for size in ["phone", "1366x768", "phone", "1280x800", "phone"]:
        viewport = SIZES[size][0]
        if seen:  # across a phone's width, the frames as they come
            ann.set_viewport_size(viewport)
            settled(ann)
        now = ann.evaluate(MINE_NOW)
        fresh = fresh_fit(ann, viewport)
        seen.append((size, now, fresh))
    wrong = [s for s in seen if s[1]["card"] != pytest.approx(s[2]["card"], abs=0.5)]
    assert not wrong, "\n".join(f"{size}: {now} where a fresh fit gives {fresh}" for size, now, fresh in wrong)
