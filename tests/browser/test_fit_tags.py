"""A table of eight fits in the middle of its round, with the round's tags showing.

The fit tests of test_fit.py read a table as dealt. In the middle of a round other seats
carry tags ("stuck", "voted", offline), your vote button says what it does in full once
others voted, and the foundations have taken a second row. At 1366 × 768 the heads of
the bots' panels then wrapped to a second line (German and Russian most) and the seventh
seat's cards fell below the window; on a phone the counts of face-down cards covered the
suit of the small cards over them.

The server here starts every round from tests/browser/layouts/eight-seats-tags.json: your
seat holds the tall pile of test_fit.py (six face-down cards under twelve face-up), seats
1, 2 and 4 are stuck from the deal, the others are tall-pile seats with their aces home,
and the ace of spades on your waste makes the twentieth foundation pile. Bob and Cleo
(seats 1 and 2) vote to end the round and leave: offline, stuck and voted; seat 4, a bot,
is stuck. Then, in each of the five languages, the checks of test_fit.py hold at its
four sizes, and so does the suit of every small card over a count.
"""

from __future__ import annotations

from itertools import cycle
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS, fixed_layout_server
from tests.browser.helpers import create_room, join_by_link, settled, wait_for_table
from tests.browser.test_fit import ACTIONABLE, OTHERS, SIZES, outside

LAYOUT = Path(__file__).resolve().parent / "layouts" / "eight-seats-tags.json"
SHOTS = ARTIFACTS / "fit"
LANGUAGES = ["en-GB", "de-DE", "fi-FI", "ro-RO", "ru-RU"]
LAPTOP = SIZES["1366x768"][0]
# the foundation piles of the layout, and with your ace of spades
DEALT_PILES = 19


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """This module's own server: every round starts from the layout above, and the bots
    think slowly (they fill the seats; the tags are the test's)."""
    with fixed_layout_server(tmp_path_factory.mktemp("browser-fit-tags"), LAYOUT) as srv:
        yield srv


# The foundations' rows, from where each pile's top edge lies; your cards' width.
SIZES_NOW = """() => ({
    rows: new Set([...document.querySelectorAll('.foundations .fnd')].map((f) => Math.round(f.getBoundingClientRect().top))).size,
    card: document.querySelector('.mine .tableau .card.up').getBoundingClientRect().width,
    mineBottom: document.querySelector('.mine').getBoundingClientRect().bottom,
})"""


def table_of_eight_with_tags(open_page, tag: str, *, viewport: dict, touch: bool = False, locale: str = "en-GB"):
    """Ann's room of eight: Bob and Cleo (stuck from the deal) and five bots. Returns Ann's
    page once the race is on, her table's sizes then, and a function that brings the
    middle of the round: Bob and Cleo vote and leave, and Ann's ace makes a new pile."""
    ann = open_page(tag, viewport=viewport, touch=touch, locale=locale)
    code = create_room(ann, "Ann", rounds=1, max_players=8)
    people = []
    for name in ("Bob", "Cleo"):
        page = open_page(f"{tag}-{name}", path=None, locale=locale)
        join_by_link(page, f"/r/{code}", name)
        people.append(page)
    seated = ann.locator(".seat:not(.free)")
    expect(seated).to_have_count(3)
    levels = cycle(("easy", "medium", "hard"))
    for n in range(4, 9):
        ann.select_option(".add-bot select", next(levels))
        ann.click(".add-bot-button")
        expect(seated).to_have_count(n)
    ann.click("#start-game")
    for page in (ann, *people):
        wait_for_table(page)
    expect(ann.locator(".countdown")).to_be_hidden()
    expect(ann.locator(".foundations [data-fpile] .card.face")).to_have_count(DEALT_PILES)
    settled(ann)
    dealt = ann.evaluate(SIZES_NOW)

    def middle_of_the_round(page: Page = ann) -> None:
        for seat, person in enumerate(people, start=1):
            person.click("#vote-end")
            expect(page.locator(f'.opp[data-seat="{seat}"] .tag.voted')).to_be_visible()
            person.close()
            expect(page.locator(f'.opp[data-seat="{seat}"] .conn-offline')).to_have_count(1)
        expect(page.locator('.opp[data-seat="4"] .tag.stuck')).to_have_count(1)
        page.keyboard.press("w")  # the waste's top card, the ace of spades
        page.keyboard.press("f")  # to a foundation: a new pile
        expect(page.locator(".foundations [data-fpile] .card.face")).to_have_count(DEALT_PILES + 1)
        settled(page)

    return ann, dealt, middle_of_the_round


def fit_problems(page: Page, shot: str | None, *, phone: bool, settle: bool = True) -> list[str]:
    """test_fit.py's checks, as a list of what is wrong (a screenshot saved either way,
    unless `shot` is None). `settle=False` for a table whose bots keep playing: the
    checks read the page as it is (two frames after a new window size)."""
    if settle:
        settled(page)
    else:
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    found = page.evaluate(ACTIONABLE)
    others = page.evaluate(OTHERS)
    if shot is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / shot))
    problems = outside(found) + others["problems"]
    if found["scrollY"] != 0 or others["pageTaller"]:
        problems.append("the page scrolls")
    if others["panels"] != 7:
        problems.append(f"{others['panels']} other seats shown")
    problems += [f"card {f['card']}'s corner covered" for f in found["fans"] if f["shown"] < 0.36 * f["width"] - 0.5]
    if phone:
        if min(others["mine"]) < 40 - 0.5:
            problems.append(f"your cards at {min(others['mine']):.1f} px")
        problems += [f"target {t} under 40 px" for t in others["targets"] if t[1] < 40 - 0.5 or t[2] < 40 - 0.5]
    return problems


@pytest.mark.parametrize("locale", LANGUAGES)
def test_a_table_of_eight_fits_with_the_rounds_tags_showing(open_page, locale):
    ann, _dealt, middle_of_the_round = table_of_eight_with_tags(
        open_page, f"tags-{locale}", viewport=LAPTOP, locale=locale
    )
    middle_of_the_round()
    # the tags are there, in the page's language: a head that carries them keeps to one line
    expect(ann.locator(".opp .tag.voted")).to_have_count(2)
    assert ann.evaluate("document.documentElement.lang") == locale[:2]
    problems = []
    for size, (viewport, _touch) in SIZES.items():
        ann.set_viewport_size(viewport)
        found = fit_problems(ann, f"tags-{size}-{locale}.png", phone=size == "phone")
        rows = ann.evaluate(SIZES_NOW)["rows"]
        if rows < 2 and size != "1920x1080":
            found.append(f"the foundations in {rows} row: the case this test is for needs two")
        problems += [f"{size}: {p}" for p in found]
    assert not problems, "\n".join(problems)
