"""On a phone your cards keep their size when the foundations become tabs.

From eight piles a phone draws the foundations as tabs (demon-panels.js `TABS_FROM`), so
their rows get lower in the middle of the race. Your own cards, sized to the room below
them (table.js `createTableFit`), then grew by a few px, and every card of your layout was laid
out and painted again at its new size (test_fit_steady.py says why that matters). They
keep their size now, and grow when the window does.

The server starts every round from tests/browser/layouts/seven-foundations.json: seven
aces home and the ace of spades on top of your waste, so your one play makes the eighth
pile.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import PHONE, fixed_layout_server
from tests.browser.helpers import settled
from tests.browser.test_fit_steady import SIZES, play_the_ace

LAYOUT = Path(__file__).resolve().parent / "layouts" / "seven-foundations.json"
# short enough that your cards are sized by the height left to them, not by the width
SHORT_PHONE = {"width": PHONE["width"], "height": 640}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """This module's own server: every round starts with seven foundation piles."""
    with fixed_layout_server(tmp_path_factory.mktemp("browser-fit-steady-phone"), LAYOUT) as srv:
        yield srv


def test_your_cards_keep_their_size_when_the_foundations_become_tabs(open_page):
    page = open_page("fit-steady-phone", viewport=SHORT_PHONE, touch=True)
    before, after = play_the_ace(page, bots=1, piles=7)
    assert not before["tabs"] and after["tabs"], (before, after)
    assert after["row"] < before["row"] - 10, (before, after)  # the room below grew
    assert after["card"] == pytest.approx(before["card"], abs=0.01), (before, after)

    # a taller window gives your cards the room again
    page.set_viewport_size({"width": PHONE["width"], "height": SHORT_PHONE["height"] + 80})
    settled(page)
    assert page.evaluate(SIZES)["card"] > after["card"] + 1
