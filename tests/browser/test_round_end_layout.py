"""A round ends cleanly, from a test layout: every round of this module's
server starts from tests/browser/layouts/near-demon.json, where seat 0 (Ann) has every
card home but Q♠ and K♠, and seat 1 (Bob) is stuck from the deal (no stock, seven red
face-up cards that fit nowhere). A third seat is dealt from the seed. So a real
"Demon!" is two plays away, and a stuck seat is there from the first second.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import RACE_SEED
from tests.browser.helpers import Gate, create_room, join_by_link, notes_seen, wait_for_table, watch_notes
from tests.support.live_server import LiveServer

LAYOUT = Path(__file__).resolve().parent / "layouts" / "near-demon.json"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = LiveServer(
        tmp_path_factory.mktemp("browser-round-end"),
        test_seed=RACE_SEED,
        countdown_s=0.6,
        reconnect_grace_s=60,
        test_layout=LAYOUT,
    )
    with srv:
        yield srv


# Records the "Demon!" call and its burst as they are added to the page.
WATCH_CELEBRATION = """() => {
    window.__celebration = {call: null, bits: 0};
    new MutationObserver((records) => {
        for (const r of records) for (const node of r.addedNodes) {
            if (!(node instanceof HTMLElement)) continue;
            if (node.classList.contains('demon-call')) window.__celebration.call = node.textContent;
            if (node.classList.contains('demon-burst')) window.__celebration.bits = node.querySelectorAll('.burst-bit').length;
        }
    }).observe(document.body, {childList: true});
}"""


def test_a_stuck_seat_is_told_so_and_its_tags_go_with_the_round(open_page):
    ann = open_page("ann")
    code = create_room(ann, "Ann", rounds=2)
    bob = open_page("bob", path=None)
    join_by_link(bob, f"/r/{code}", "Bob")
    ann.click("#start-game")
    wait_for_table(ann)
    expect(bob.locator(".mine .tableau .card.up")).to_have_count(7)

    # Bob is stuck from the deal (the server says so: his stock is empty): for him the
    # vote matters now; Ann, who has plays, keeps the quiet button.
    expect(bob.locator(".mine-head .tag.stuck")).to_have_text("no play left — vote to end?")
    expect(bob.locator("#vote-end")).to_have_text("Stuck — vote to end 0/2", use_inner_text=True)
    expect(ann.locator("#vote-end")).to_have_class("vote quiet")
    expect(ann.locator('.opp[data-seat="1"] .tag.stuck')).to_have_text("stuck")
    # Round 1 of the match: everyone has 0 match points, so none are shown (once
    # "Σ0" and "total 0" beside "0/52 home" read as a riddle).
    expect(ann.locator(".table .total")).to_have_count(0)

    bob.click("#vote-end")
    expect(ann.locator('.opp[data-seat="1"] .tag.voted')).to_be_visible()
    ann.click("#vote-end")
    for page in (ann, bob):
        expect(page.locator("#results")).to_contain_text("Round 1 is over")
        # the results screen carries no tag of the round that ended
        expect(page.locator(".table .tag.stuck")).to_have_count(0)
        expect(page.locator(".table .tag.voted")).to_have_count(0)
        expect(page.locator(".table")).not_to_contain_text("no play left")
    # Round 2: the match points so far, in words.
    ann.click("#next-round")
    wait_for_table(bob)
    expect(bob.locator(".mine-head .total")).to_have_text("match points: 0")
    expect(bob.locator('.opp[data-seat="0"] .total')).to_have_text(re.compile(r"^\d+ pts$"))


def test_a_demon_win_is_celebrated_and_the_round_lost_is_said_once(open_page, artifacts):
    ann = open_page("ann")
    code = create_room(ann, "Ann", rounds=1)
    bob = open_page("bob", path=None)
    join_by_link(bob, f"/r/{code}", "Bob")
    cleo = open_page("cleo", path=None)
    gate = Gate()
    cleo.route_web_socket(re.compile(r".*/ws/.*"), gate.route)
    join_by_link(cleo, f"/r/{code}", "Cleo")
    expect(ann.locator(".seat:not(.free)")).to_have_count(3)
    ann.click("#start-game")
    for page in (ann, cleo):
        wait_for_table(page)
    expect(ann.locator(".opp", has_text="Bob")).to_contain_text("0/52")
    expect(ann.locator(".mine-head")).to_contain_text("50/52 home")

    # Cleo stops hearing from the server; Ann plays her last two cards: "Demon!".
    gate.closed = True
    ann.dblclick('.mine [data-card="QS"]')
    expect(ann.locator('.foundations [data-card="QS"]')).to_be_visible()
    for page in (ann, bob, cleo):
        page.evaluate(WATCH_CELEBRATION)
    ann.dblclick('.mine [data-card="KS"]')
    for page in (ann, bob):
        # the call and its burst of suits came (recorded as they were added: they last
        # under three seconds, less than a loaded machine may take to look)
        page.wait_for_function("window.__celebration.call !== null")
        seen = page.evaluate("window.__celebration")
        assert "Demon!" in seen["call"] and "Ann" in seen["call"], seen
        assert seen["bits"] >= 20, seen
        results = page.locator("#results")
        expect(results).to_have_class(re.compile(r"\bdemon\b"))
        expect(results).to_contain_text("Ann played all 52 cards")
        ann_row = results.locator("tbody tr", has_text="Ann")
        expect(ann_row.locator(".tag.demon-tag")).to_have_text("Demon!")
        expect(ann_row.locator("td").first).to_have_text("62")
    bob.wait_for_timeout(250)  # a fixed wait: the screenshot shows the suits on their way, mid-flight
    bob.screenshot(path=str(artifacts / "demon-win.png"))

    # Cleo, not yet told, draws: the server refuses it (the round is over). When she
    # hears again, the "Demon!" call says it all; no refusal note and no toast besides.
    cleo.keyboard.press("d")
    deadline = time.monotonic() + 5
    while not any('"round_over"' in m for m in gate.held) and time.monotonic() < deadline:
        cleo.wait_for_timeout(50)
    assert any('"round_over"' in m for m in gate.held), gate.held
    watch_notes(cleo)
    gate.release()
    cleo.wait_for_function("window.__celebration.call !== null")
    assert "Ann" in cleo.evaluate("window.__celebration.call")
    expect(cleo.locator("#results")).to_contain_text("Ann played all 52 cards")
    cleo.wait_for_timeout(500)  # a fixed wait: no refusal note may show meanwhile
    assert notes_seen(cleo) == [], notes_seen(cleo)
    expect(ann.locator(".demon-call")).to_have_count(0, timeout=6000)  # the call fades away
    expect(ann.locator(".demon-burst")).to_have_count(0)
