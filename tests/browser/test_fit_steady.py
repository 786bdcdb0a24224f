"""The table does not change size in the middle of the race when the foundations grow.

Two things grew or shrank as the foundations filled up, and each was the longest task of
the table on a CPU slowed 4x (bench/page.py --long-tasks: 110–320 ms): at the twelfth pile
the foundations switched to smaller cards (style.css `.foundations.many`), so every
foundation card was laid out and painted again at its new size (each face an SVG image
drawn anew) and the row got lower; and your own cards, sized to the room below that row
(table.js `createTableFit`), grew by a few px, every card of your layout drawn anew too. Now a
round that can reach twelve piles (three seats and more) draws its foundations small from
its start, and your cards do not grow because the foundations took less room as they grew
(a phone's tabs from eight piles: test_fit_steady_phone.py); they still shrink whenever
the room does, and grow when the window does.

The server starts every round from tests/browser/layouts/eleven-foundations.json: eleven
aces home and the ace of spades on top of your waste, so your one play makes the twelfth
pile.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import fixed_layout_server
from tests.browser.helpers import practice_from_home, settled

LAYOUT = Path(__file__).resolve().parent / "layouts" / "eleven-foundations.json"
LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """This module's own server: every round starts with eleven foundation piles, and the
    bots think slowly."""
    with fixed_layout_server(tmp_path_factory.mktemp("browser-fit-steady"), LAYOUT) as srv:
        yield srv


SIZES = """() => ({
    card: document.querySelector('.mine .tableau .card.up').getBoundingClientRect().width,
    foundation: document.querySelector('.foundations [data-fpile] .card').getBoundingClientRect().width,
    row: document.querySelector('.foundations').getBoundingClientRect().height,
    tabs: document.querySelector('.foundations').classList.contains('tabs'),
})"""


def play_the_ace(page, *, bots: int, piles: int) -> tuple[dict, dict]:
    """A practice round with `bots` easy bots; the sizes before and after your ace of
    spades (the waste's top card) makes foundation pile number `piles + 1`."""
    practice_from_home(page, bots, "easy", rounds=1)
    shown = page.locator(".foundations [data-fpile] .card.face")
    expect(shown).to_have_count(piles)
    settled(page)
    before = page.evaluate(SIZES)
    page.keyboard.press("w")  # the waste's top card, the ace of spades
    page.keyboard.press("f")  # to a foundation: a new pile
    expect(shown).to_have_count(piles + 1)
    settled(page)
    return before, page.evaluate(SIZES)


def test_nothing_changes_size_at_the_twelfth_foundation_pile(open_page):
    page = open_page("fit-steady", viewport=LAPTOP)
    before, after = play_the_ace(page, bots=2, piles=11)
    assert after["foundation"] == pytest.approx(before["foundation"], abs=0.01), (before, after)
    assert after["row"] == pytest.approx(before["row"], abs=0.5), (before, after)
    assert after["card"] == pytest.approx(before["card"], abs=0.01), (before, after)
