"""The replay viewer in real Chromium: a round played by two people, then
watched again from the results screen's link, ends on the very table they saw; the
scrubber lands on the same table as stepping; the large layout can be anyone's; a
stranger's browser is refused; the viewer fits the four screen sizes of the fit test and
passes axe with no violation at all, in every language.

The deal is RACE_SEED's (conftest.py): Ann (seat 0) holds A♣ and 2♣ face up.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import (
    create_room,
    foundation_cards,
    join_by_link,
    my_layout,
    no_horizontal_scroll,
    wait_for_table,
)
from tests.browser.test_accessibility import axe_violations

SIZES = {
    "1280x800": {"width": 1280, "height": 800},
    "1366x768": {"width": 1366, "height": 768},
    "1920x1080": {"width": 1920, "height": 1080},
    "phone": {"width": 390, "height": 844},
}

# Every card, count and tag of the viewer's table, as plain data: two tables are the
# same when this is.
TABLE_SHOWN = """() => {
    const t = document.querySelector('.replay-table');
    return {
        cards: [...t.querySelectorAll('[data-card]')].map((c) => c.dataset.card),
        counts: [...t.querySelectorAll('.stock-count, .down-count, .home-count')].map((c) => c.textContent),
        backs: t.querySelectorAll('.card.down').length,
        at: document.querySelector('.replay').dataset.at,
    };
}"""


def play_a_round(open_page):
    """Ann and Bob play a little and both vote: the round is over. Returns their pages
    and each one's final layout and the foundations as their pages showed them."""
    ann = open_page("ann")
    code = create_room(ann, "Ann")
    bob = open_page("bob", path=None)
    join_by_link(bob, f"/r/{code}", "Bob")
    ann.click("#start-game")
    wait_for_table(ann)
    wait_for_table(bob)
    ann.dblclick('.mine [data-card="AC"]')
    expect(ann.locator('.foundations [data-card="AC"]')).to_be_visible()
    ann.dblclick('.mine [data-card="2C"]')
    expect(bob.locator('.foundations [data-card="2C"]')).to_be_visible()
    for _ in range(3):
        before = my_layout(bob)["stock"]
        bob.click("#stock")
        expect(bob.locator(".mine .stock .stock-count")).not_to_have_text(before)
    ann.click("#stock")
    expect(ann.locator(".mine .stock .stock-count")).to_have_text("21")
    final = {"Ann": my_layout(ann), "Bob": my_layout(bob), "foundations": foundation_cards(ann)}
    ann.click("#vote-end")
    bob.click("#vote-end")
    expect(ann.locator("#results")).to_be_visible()
    expect(bob.locator("#results")).to_be_visible()
    return ann, bob, code, final


def open_replay(page):
    with page.context.expect_page() as opened:
        page.click("#watch-replay")
    viewer = opened.value
    viewer.set_default_timeout(8000)
    expect(viewer.locator("#replay-scrub")).to_be_visible()
    return viewer


def test_a_round_is_played_then_replayed_to_the_same_final_table(open_page):
    ann, bob, code, final = play_a_round(open_page)
    viewer = open_replay(bob)
    assert re.fullmatch(rf"/replay/{code}/[A-Za-z0-9_-]+", viewer.evaluate("location.pathname"))
    expect(viewer.locator(".replay-title")).to_contain_text(code)
    # the first table is the deal: no foundation yet
    expect(viewer.locator(".foundations [data-fpile] [data-card]")).to_have_count(0)
    viewer.keyboard.press("End")
    expect(viewer.locator("#replay-results")).to_be_visible()
    assert foundation_cards(viewer) == final["foundations"]
    # the large layout is the first person's (Ann) and can be Bob's: each as they saw it
    assert my_layout(viewer) == final["Ann"]
    viewer.select_option("#replay-large", label="Bob")
    assert my_layout(viewer) == final["Bob"]
    expect(viewer.locator('.opponents [data-seat="0"]')).to_be_visible()

    # played at ×8 from the start, it gets to the same end by itself
    viewer.keyboard.press("Home")
    viewer.select_option("#replay-speed", "8")
    viewer.click("#replay-play")
    expect(viewer.locator("#replay-results")).to_be_visible(timeout=15000)
    assert my_layout(viewer) == final["Bob"]
    assert foundation_cards(viewer) == final["foundations"]


def test_the_scrubber_lands_on_the_same_table_as_stepping(open_page):
    ann, _bob, _code, _final = play_a_round(open_page)
    viewer = open_replay(ann)
    last = int(viewer.get_attribute("#replay-scrub", "max"))
    assert last >= 6
    stepped = []
    for _ in range(last):
        viewer.click("#replay-forward")
        stepped.append(viewer.evaluate(TABLE_SHOWN))
    expect(viewer.locator("#replay-forward")).to_be_disabled()
    for k in (1, 2, last - 1, last, 3):
        viewer.evaluate(
            """(k) => { const s = document.querySelector('#replay-scrub');
            s.value = String(k); s.dispatchEvent(new Event('input', {bubbles: true})); }""",
            k,
        )
        assert viewer.evaluate(TABLE_SHOWN) == stepped[k - 1], k
    # and stepping back from the end retraces the same tables
    viewer.keyboard.press("End")
    for k in range(last - 1, 0, -1):
        viewer.click("#replay-back")
        assert viewer.evaluate(TABLE_SHOWN) == stepped[k - 1], k


def test_a_stranger_cannot_open_it_until_the_host_shares_it(open_page):
    ann, _bob, _code, _final = play_a_round(open_page)
    viewer = open_replay(ann)
    link = viewer.evaluate("location.pathname")
    stranger = open_page("stranger", path=None)
    stranger.goto(link)
    expect(stranger.locator(".replay-missing")).to_contain_text("Only the players of a round")
    # that refusal is this test's point: the 404 (and Chromium's console line for it) is expected
    problems = open_page.problems.items
    expected = [p for p in problems if p.startswith("stranger ") and "404" in p]
    assert len(expected) == 2, problems
    problems[:] = [p for p in problems if p not in expected]
    viewer.check("#replay-shared")
    expect(viewer.locator("#replay-shared")).to_be_checked()
    stranger.reload()
    expect(stranger.locator("#replay-scrub")).to_be_visible()
    expect(stranger.locator("#replay-shared")).to_have_count(0)


def test_the_viewer_fits_every_screen_and_passes_axe_in_every_language(open_page, artifacts):
    ann, _bob, _code, _final = play_a_round(open_page)
    viewer = open_replay(ann)
    link = viewer.evaluate("location.pathname")
    viewer.check("#replay-shared")  # so that fresh browsers in other languages may open it
    expect(viewer.locator("#replay-shared")).to_be_checked()
    for name, size in SIZES.items():
        page = open_page(f"fit-{name}", viewport=size, path=link, touch=name == "phone")
        expect(page.locator("#replay-scrub")).to_be_visible()
        page.keyboard.press("End")
        expect(page.locator("#replay-results")).to_be_attached()
        page.evaluate("window.scrollTo(0, 0)")
        assert no_horizontal_scroll(page), name
        # the controls and the foundations are in the window, unscrolled
        for sel in (
            "#replay-play",
            "#replay-back",
            "#replay-forward",
            "#replay-scrub",
            "#replay-speed",
            "#replay-large",
            ".replay-clock",
            ".foundations",
            ".mine .tableau",
            ".mine .stock",
        ):
            box = page.locator(sel).bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5, (name, sel, box)
            assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (name, sel, box)
        # every card is inside the page's width
        right = page.evaluate(
            "Math.max(...[...document.querySelectorAll('.replay [data-card]')]"
            ".map((c) => c.getBoundingClientRect().right))"
        )
        assert right <= size["width"] + 0.5, (name, right)
        assert axe_violations(page, f"replay {name}") == [], name
        page.screenshot(path=str(artifacts / f"replay-{name}.png"))
    for locale, play in (("ro-RO", "Redă"), ("de-DE", "Abspielen"), ("fi-FI", "Toista"), ("ru-RU", "Смотреть")):
        page = open_page(f"lang-{locale}", path=link, locale=locale)
        expect(page.locator("#replay-play")).to_have_text(play)
        assert axe_violations(page, f"replay {locale}") == [], locale


def test_an_eight_seat_replay_shows_every_seat_and_the_results_on_a_laptop(open_page):
    """At 1366 x 768 the last of seven other seats and the results stood below the fold,
    under the controls and the table. On the laptops and the big screen of the fit test,
    at the round's end, every seat and the results are in the window, unscrolled."""
    ann = open_page("ann", viewport=SIZES["1366x768"])
    ann.fill("#practice-name", "Ann")
    ann.select_option("#create-rounds", "1")
    ann.select_option("#practice-bots", "7")
    ann.click("#practice-start")
    wait_for_table(ann)
    ann.keyboard.press("v")  # alone with bots: her vote ends the round
    expect(ann.locator("#results")).to_be_visible(timeout=10000)
    viewer = open_replay(ann)
    viewer.keyboard.press("End")
    expect(viewer.locator("#replay-results")).to_be_visible()
    expect(viewer.locator(".replay .opp")).to_have_count(7)
    for name in ("1280x800", "1366x768", "1920x1080"):
        size = SIZES[name]
        viewer.set_viewport_size(size)
        viewer.evaluate("window.scrollTo(0, 0)")
        outside = viewer.evaluate(
            """([w, h]) => [...document.querySelectorAll('.replay .opp, #replay-results, .replay .mine, .replay-controls')]
                .map((el) => [el.className || el.id, el.getBoundingClientRect()])
                .filter(([, r]) => r.top < 0 || r.left < 0 || r.bottom > h || r.right > w)
                .map(([what, r]) => [what, Math.round(r.top), Math.round(r.bottom)])""",
            [size["width"], size["height"]],
        )
        assert outside == [], (name, outside)
        assert no_horizontal_scroll(viewer), name
