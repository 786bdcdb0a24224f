"""Your cards keep their size while your layout still ends in the window.

Your cards are sized for the tallest pile a layout can hold (test_fit.py), in the room
below what stands above them. In the middle of a round that room shrinks: at 1366 × 768
the foundations take a second row, other seats' tags and your vote button grow. Your
cards then shrank at once (at 1366 × 768 from about 70 to 60 px when the foundations
wrapped) while your piles, far shorter than the tallest, left 250 px empty below them;
a phone lost a few px of its own. They keep their size now until one of your piles
needs the room (with the tall pile of test_fit_tags.py they shrink at once).

The server starts every round from tests/browser/layouts/eight-seats-wrap.json:
test_fit_tags.py's table of eight (19 foundation piles, one row at 1366 × 768; Bob and
Cleo stuck from the deal, vote and leave), your own piles short.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import fixed_layout_server
from tests.browser.helpers import settled
from tests.browser.test_fit import SIZES
from tests.browser.test_fit_tags import SIZES_NOW, fit_problems, table_of_eight_with_tags

LAYOUT = Path(__file__).resolve().parent / "layouts" / "eight-seats-wrap.json"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """This module's own server: every round starts from the layout above."""
    with fixed_layout_server(tmp_path_factory.mktemp("browser-fit-wrap"), LAYOUT) as srv:
        yield srv


# (Not 1920 x 1080: there your cards are at their largest, with room to spare; nothing
# above them could take it.)
@pytest.mark.parametrize("size", ["1280x800", "1366x768", "phone"])
def test_your_cards_keep_their_size_when_the_room_above_them_grows(open_page, size):
    viewport, touch = SIZES[size]
    ann, dealt, middle_of_the_round = table_of_eight_with_tags(
        open_page, f"wrap-{size}", viewport=viewport, touch=touch
    )
    middle_of_the_round()
    now = ann.evaluate(SIZES_NOW)
    if size == "1366x768":
        assert (dealt["rows"], now["rows"]) == (1, 2), (dealt, now)
    assert now["mineBottom"] > dealt["mineBottom"] + 5, (dealt, now)  # the room above grew
    assert now["card"] == pytest.approx(dealt["card"], abs=0.01), (dealt, now)
    problems = fit_problems(ann, f"wrap-{size}.png", phone=size == "phone")
    assert not problems, "\n".join(problems)

    # a new window size fits your cards to the room anew: the room lost is taken
    ann.set_viewport_size({"width": viewport["width"], "height": viewport["height"] - 1})
    settled(ann)
    assert ann.evaluate(SIZES_NOW)["card"] < dealt["card"] - 0.5


def test_your_cards_shrink_once_a_pile_of_yours_needs_the_room(open_page):
    """The room owed is taken when your layout reaches the window's bottom: your waste
    holds Q♥ down to 2♥ under the ace, played one by one onto your K♠ (pile 7)."""
    viewport, _touch = SIZES["1366x768"]
    ann, dealt, middle_of_the_round = table_of_eight_with_tags(open_page, "wrap-grow", viewport=viewport)
    middle_of_the_round()
    assert ann.evaluate(SIZES_NOW)["card"] == pytest.approx(dealt["card"], abs=0.01)
    pile = ann.locator('.mine .tableau .pile[data-src="6"] .card.up')
    widths = []
    for n in range(2, 13):
        ann.keyboard.press("w")  # the waste's top card
        ann.keyboard.press("7")  # onto pile 7
        expect(pile).to_have_count(n)
        settled(ann)
        widths.append(round(ann.evaluate(SIZES_NOW)["card"], 2))
        problems = fit_problems(ann, "wrap-grow.png", phone=False)
        assert not problems, (n, widths, problems)
    # kept while the pile had room, then smaller once, for the room owed
    assert widths[0] == pytest.approx(dealt["card"], abs=0.01), widths
    assert widths[-1] < dealt["card"] - 5, widths
    assert len(set(widths)) == 2, widths
