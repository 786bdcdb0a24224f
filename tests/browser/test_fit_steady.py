"""Your own cards keep their size when the foundations take less room as they grow (issue 23).

From twelve piles the foundations are drawn with smaller cards (style.css
`.foundations.many`; on a phone, tabs from eight), so the row they stand in gets lower
just as the race fills up. Your own cards were sized to the room below it (table.js
`fitMine`), so they grew by a few px in the middle of the race: every card of your layout
laid out and painted again at its new size (each face an SVG image drawn anew), which at a
CPU slowed 4x was the longest task of the table, 190–320 ms (bench/page.py --long-tasks).
Now they keep their size until the window changes size or a new round begins; they still
shrink whenever the room does, so nothing you can play leaves the window.

The server starts every round from tests/browser/layouts/eleven-foundations.json: eleven
aces home and the ace of spades on top of your waste, so your one play makes the twelfth
pile.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import RACE_SEED
from tests.browser.helpers import wait_for_table
from tests.support.live_server import LiveServer

LAYOUT = Path(__file__).resolve().parent / "layouts" / "eleven-foundations.json"
LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """This module's own server: every round starts with eleven foundation piles, and the
    bots think slowly."""
    srv = LiveServer(tmp_path_factory.mktemp("browser-fit-steady"), test_seed=RACE_SEED,
                     countdown_s=0.3, reconnect_grace_s=60, bot_think_scale=10, test_layout=LAYOUT)
    with srv:
        yield srv


SIZES = """() => ({
    card: document.querySelector('.mine .tableau .card.up').getBoundingClientRect().width,
    foundations: document.querySelector('.foundations').getBoundingClientRect().height,
    many: document.querySelector('.foundations').classList.contains('many'),
})"""


def test_your_cards_keep_their_size_when_the_foundations_get_smaller(open_page):
    page = open_page("fit-steady", viewport=LAPTOP)
    page.fill("#practice-name", "Ann")
    page.select_option("#create-rounds", "1")
    page.select_option("#practice-bots", "2")
    page.select_option("#practice-level", "easy")
    page.click("#practice-start")
    wait_for_table(page)
    expect(page.locator(".countdown")).to_be_hidden()
    piles = page.locator(".foundations [data-fpile] .card.face")
    expect(piles).to_have_count(11)
    page.wait_for_timeout(300)  # the layout settles
    before = page.evaluate(SIZES)
    assert not before["many"]

    page.keyboard.press("w")  # the waste's top card, the ace of spades
    page.keyboard.press("f")  # to a foundation: the twelfth pile
    expect(piles).to_have_count(12)
    page.wait_for_timeout(300)
    after = page.evaluate(SIZES)
    assert after["many"] and after["foundations"] < before["foundations"] - 10, (before, after)
    assert after["card"] == pytest.approx(before["card"], abs=0.01), (before, after)

    # a taller window gives them the room again
    page.set_viewport_size({"width": 1366, "height": 900})
    page.wait_for_timeout(300)
    assert page.evaluate(SIZES)["card"] > after["card"] + 1
