"""The first-round guide in a real Chromium (static/guide/guide.js): on a first visit to Devil's
Grip, and in a practice round against a bot from the home page, a bubble points at the
server's next useful move and says why; the move it points at is legal and the server
takes it when the player follows it; "Skip guide" hides it; it is not shown again after
a reload, and the rules dialog's "Show me again" brings it back."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, RACE_SEED
from tests.browser.helpers import create_room, join_by_link, no_horizontal_scroll, server_game, settled, wait_for_table
from tests.browser.test_accessibility import axe_violations
from tests.support.live_server import LiveServer

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
CHAINS = ["2-5-8-J", "3-6-9-Q", "4-7-10-K"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Quick hints that a loaded machine cannot make late, and slow bots (an easy bot
    thinks 15-30 s here), so the table holds still while the test follows the coach."""
    srv = LiveServer(
        tmp_path_factory.mktemp("browser-guide"),
        test_seed=RACE_SEED,
        countdown_s=0.6,
        reconnect_grace_s=60,
        hint_budget_s=0.1,
        hint_deadline_s=3,
        par_budget_s=0.1,
        winnable_ready=0,
        bot_think_scale=10,
    )
    with srv:
        yield srv


def card(code: str) -> str:
    rank = "10" if code[0] == "T" else code[0]
    return f"{rank}{SUITS[code[1]]}"


def grip_sentence(why: dict) -> str:
    """The English words for a hint's reason (static/i18n/en.js, guide.grip.*)."""
    kind = why["kind"]
    if kind == "deal":
        return "Nothing on the grid is worth building now: deal three cards from the stock."
    if kind == "redeal":
        return "The stock is empty: turn the talon over to go through it again."
    c, onto, chain = card(why["card"]), card(why["onto"]), CHAINS[why["chain"]]
    if kind == "talon":
        return f"This {c} from the talon goes on the {onto}: piles build in suit, three ranks up ({chain})."
    if kind == "whole" and why["refill"] == "stock":
        return f"Move the {c} onto the {onto} ({chain}): the cell it leaves takes a new card from the stock."
    if kind == "whole":
        return f"Move the {c} onto the {onto} ({chain}): the cell it leaves takes the talon’s top card."
    assert kind == "part", why
    return f"Move the {c} onto the {onto} ({chain}): that uncovers the {card(why['under'])} beneath it."


def follow_grip(page, hint: dict) -> None:
    """Play the marked move with clicks: the stock, or the marked card then its target."""
    if hint["type"] in ("deal", "redeal"):
        expect(page.locator("#grip-stock.guide-src")).to_be_visible()
        page.click("#grip-stock")
        return
    if hint["type"] == "talon":
        expect(page.locator("#grip-talon.guide-src")).to_be_visible()
        page.click("#grip-talon [data-pick]")
    else:
        assert hint["type"] == "move", hint
        src = page.locator(f'.cell.guide-src[data-target="c:{hint["src"]}"]')
        expect(src).to_be_visible()
        j = src.locator("[data-card]").count() - hint["count"]
        src.locator(f'[data-pick="c:{hint["src"]}:{j}"]').click(position={"x": 8, "y": 6})
    dst = page.locator(f'.cell.guide-dst[data-target="c:{hint["dst"]}"]')
    expect(dst).to_have_class(re.compile(r"legal-target"))
    dst.click()


def test_devils_grip_guide_on_a_first_visit(open_page):
    page = open_page("grip", path="/grip", guide=True)
    bubble = page.locator(".guide-bubble")
    expect(bubble).to_be_visible()
    expect(bubble.locator(".guide-title")).to_have_text("Your first deal")
    expect(bubble).to_contain_text("I’ll point at a useful move and say why")
    expect(page.locator(".grip-grid .cell").first).to_be_visible()
    axe_violations(page, "Devil's Grip with the guide")
    bubble.get_by_role("button", name="Show me").click()
    for step in (1, 2, 3):
        expect(bubble.locator(".guide-step")).to_have_text(f"Step {step} of 4")
        expect(page.locator(".guide-src")).to_have_count(1, timeout=15000)
        game = server_game(page)
        hint = game["hint"]
        assert hint is not None and hint in game["legal"], game["hint_info"]
        expect(bubble.locator(".guide-text")).to_have_text(grip_sentence(game["hint_info"]["why"]))
        if step == 1:
            assert game["used_hint"] is True  # a guided deal is a deal played with hints
        before = game["state"]
        follow_grip(page, hint)
        # the page shows the move at once and sends it after: ask the server once it has it
        page.wait_for_function("""() => { const g = JSON.parse(localStorage.getItem('dg.grip.current'));
            return g && g.id && g.pending.length === 0; }""")
        after = server_game(page)
        assert after["state"] != before, "the server took the move the guide pointed at"
    # Skip: the bubble and its marks are gone, and a reload does not bring them back.
    expect(bubble.locator(".guide-step")).to_have_text("Step 4 of 4")
    bubble.get_by_role("button", name="Skip guide").click()
    expect(bubble).to_be_hidden()
    expect(page.locator(".guide-src, .guide-dst")).to_have_count(0)
    page.reload()
    expect(page.locator(".grip-grid .cell").first).to_be_visible()
    page.wait_for_timeout(600)  # a fixed wait: the skipped guide must *not* come back meanwhile
    expect(page.locator(".guide-bubble")).to_be_hidden()
    # The rules dialog opens it again.
    page.click(".rules-btn")
    page.click("#guide-again")
    expect(page.locator(".guide-bubble")).to_be_visible()
    expect(page.locator(".guide-bubble .guide-title")).to_have_text("Your first deal")


@pytest.mark.slow
def test_the_grip_guide_runs_its_steps_then_lets_go(open_page):
    """Followed to the end, the guide says its last word and goes."""
    page = open_page("grip", path="/grip", guide=True)
    bubble = page.locator(".guide-bubble")
    # in the page's language, switched while it shows
    page.select_option("select.lang", "de")
    expect(bubble.locator(".guide-title")).to_have_text("Dein erstes Spiel")
    expect(bubble.get_by_role("button", name="Anleitung überspringen")).to_be_visible()
    page.select_option("select.lang", "en")
    expect(bubble.locator(".guide-title")).to_have_text("Your first deal")
    bubble.get_by_role("button", name="Show me").click()
    for _ in range(4):
        expect(page.locator(".guide-src")).to_have_count(1, timeout=15000)
        game = server_game(page)
        follow_grip(page, game["hint"])
        page.wait_for_function("() => !document.querySelector('.grip.busy')")
    expect(bubble.locator(".guide-text")).to_have_text("That’s the idea! Ask for a hint (H) whenever you are stuck.")
    bubble.get_by_role("button", name="Got it").click()
    expect(bubble).to_be_hidden()


def frames(page) -> list:
    """Every WebSocket frame the page sends and receives, as parsed messages."""
    seen: list = []

    def on_socket(ws):
        def parse(direction, payload):
            if isinstance(payload, (bytes, bytearray)):
                return
            for line in payload.split("\n"):
                if line.strip():
                    seen.append((direction, json.loads(line)))

        ws.on("framesent", lambda payload: parse("sent", payload))
        ws.on("framereceived", lambda payload: parse("received", payload))

    page.on("websocket", on_socket)
    return seen


def test_demon_practice_round_with_the_coach(open_page):
    page = open_page("ann", guide=True)
    seen = frames(page)
    page.fill("#practice-name", "Ann")
    page.click("#guide-practice")
    wait_for_table(page)
    expect(page.locator(".opp")).to_have_count(1)  # one bot
    bubble = page.locator(".guide-bubble")
    expect(bubble).to_be_visible()
    expect(bubble.locator(".guide-title")).to_have_text("Practice round")
    for step in (1, 2, 3):
        expect(bubble.locator(".guide-step")).to_have_text(f"Step {step} of 5")
        expect(page.locator(".guide-src")).to_have_count(1, timeout=15000)
        advice = [msg for way, msg in seen if way == "received" and msg["type"] == "coach"][-1]
        action = advice["action"]
        assert action is not None, advice
        if step == 1:
            axe_violations(page, "a practice table with the coach")
            expect(bubble.locator(".guide-text")).to_contain_text("Race the bot to the middle!")
            # a language switch redraws the table; the coach stays, in the new language
            page.select_option("select.lang", "ru")
            expect(bubble.locator(".guide-title")).to_have_text("Тренировочный раунд")
            expect(page.locator(".guide-src")).to_have_count(1, timeout=15000)
            expect(bubble.locator(".guide-step")).to_have_text("Шаг 1 из 5")
            page.select_option("select.lang", "en")
            expect(bubble.locator(".guide-title")).to_have_text("Practice round")
            expect(page.locator(".guide-src")).to_have_count(1, timeout=15000)
            advice = [msg for way, msg in seen if way == "received" and msg["type"] == "coach"][-1]
            action = advice["action"]
        sent_before = len([m for w, m in seen if w == "sent" and m["type"] == "action"])
        if action["type"] in ("draw", "recycle"):
            expect(page.locator("#stock.guide-src")).to_be_visible()
            page.click("#stock")
        else:
            page.locator(".guide-src").click(position={"x": 10, "y": 8})
            page.locator(".guide-dst").click()

        # what the page sent is the play the coach advised, and the server acknowledged it
        def actions_sent():
            return [m for w, m in seen if w == "sent" and m["type"] == "action"]

        for _ in range(100):
            if len(actions_sent()) > sent_before:
                break
            page.wait_for_timeout(50)
        sent = actions_sent()[-1]
        assert {k: v for k, v in sent["action"].items() if v is not None} == {
            k: v for k, v in action.items() if v is not None
        }, (sent, advice)
        for _ in range(100):
            if any(w == "received" and m["type"] in ("ack", "rejected") and m.get("id") == sent["id"] for w, m in seen):
                break
            page.wait_for_timeout(50)
        answers = [m for w, m in seen if w == "received" and m.get("id") == sent["id"]]
        assert answers and answers[0]["type"] == "ack", answers
    # Skip, and no coach after a reload (it was shown once)
    bubble.get_by_role("button", name="Skip guide").click()
    expect(bubble).to_be_hidden()
    expect(page.locator(".guide-src, .guide-dst")).to_have_count(0)
    asked = len([m for w, m in seen if w == "sent" and m["type"] == "coach"])
    page.reload()
    wait_for_table(page)
    page.wait_for_timeout(800)  # a fixed wait: the coach shown once must *not* come back meanwhile
    expect(page.locator(".guide-bubble")).to_be_hidden()
    assert len([m for w, m in seen if w == "sent" and m["type"] == "coach"]) == asked
    # "Show me again" from the rules dialog
    page.click(".rules-btn")
    page.click("#guide-again")
    expect(page.locator(".guide-bubble")).to_be_visible()
    expect(page.locator(".guide-src")).to_have_count(1, timeout=15000)


def test_no_coach_at_a_table_of_two_people(open_page):
    """A race between people gets no advice: the page does not ask for it (and the
    server would refuse: tests/rooms/test_coach.py)."""
    ann = open_page("ann", guide=True)
    seen = frames(ann)
    code = create_room(ann, "Ann")
    bob = open_page("bob", path=None, guide=True)
    join_by_link(bob, f"/r/{code}", "Bob")
    ann.click("#start-game")
    wait_for_table(ann)
    wait_for_table(bob)
    ann.wait_for_timeout(800)  # a fixed wait: no coach may show in a room of people meanwhile
    for page in (ann, bob):
        expect(page.locator(".guide-bubble")).to_be_hidden()
        expect(page.locator(".guide-src")).to_have_count(0)
    assert not [m for w, m in seen if w == "sent" and m["type"] == "coach"]
    ann.click(".rules-btn")
    expect(ann.locator(".rules-tab").first).to_be_visible()
    expect(ann.locator("#guide-again")).to_have_count(0)


def test_the_guide_on_a_phone(open_page):
    """On a phone the bubble stays inside the window, and the page still does not scroll
    sideways."""
    page = open_page("grip-phone", viewport=PHONE, path="/grip", guide=True, touch=True)
    bubble = page.locator(".guide-bubble")
    expect(bubble).to_be_visible()
    bubble.get_by_role("button", name="Show me").tap()
    expect(page.locator(".guide-src")).to_have_count(1, timeout=15000)
    box = bubble.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert box["y"] + box["height"] <= PHONE["height"], box
    assert no_horizontal_scroll(page)
    axe_violations(page, "Devil's Grip with the guide on a phone")


# ----------------------------------------------------------------- where it shows, what it covers

COVERED = """() => {
  const bubble = document.querySelector('.guide-bubble');
  const b = bubble.getBoundingClientRect();
  const marks = [...document.querySelectorAll(
    '[data-target], [data-pick], #stock, #grip-stock, #grip-talon, #vote-end, #bots-finish')];
  return marks.filter((n) => {
    const r = n.getBoundingClientRect();
    if (!r.width || !r.height) return false;
    return Math.min(b.right, r.right) - Math.max(b.left, r.left) > 0
      && Math.min(b.bottom, r.bottom) - Math.max(b.top, r.top) > 0;
  }).map((n) => n.dataset.target || n.dataset.pick || n.id || n.className);
}"""


def test_no_guide_in_an_ordinary_game_against_bots(open_page):
    """The coach once showed in ordinary bot games (saying "Race the bot" to a
    person facing three). It shows only where it was asked for."""
    page = open_page("ann", guide=True)
    seen = frames(page)
    page.fill("#practice-name", "Ann")
    page.select_option("#practice-bots", "3")
    page.click("#practice-start")
    wait_for_table(page)
    page.wait_for_timeout(1200)  # a fixed wait: no coach may show in a bot game meanwhile
    expect(page.locator(".guide-bubble")).to_have_count(0)
    assert not [m for w, m in seen if w == "sent" and m["type"] == "coach"]
    # Asked for from the rules dialog, it speaks of the bots, plural.
    page.click(".rules-btn")
    page.click("#guide-again")
    bubble = page.locator(".guide-bubble")
    expect(bubble).to_be_visible()
    expect(bubble.locator(".guide-text")).to_contain_text("Race the bots to the middle!")


@pytest.mark.parametrize("viewport", [{"width": 1366, "height": 768}, {"width": 1280, "height": 800}])
def test_the_coach_covers_no_card_outlives_esc_and_is_near_in_tab_order(open_page, viewport):
    page = open_page("ann", viewport=viewport, guide=True)
    page.fill("#practice-name", "Ann")
    page.click("#guide-practice")
    wait_for_table(page)
    bubble = page.locator(".guide-bubble")
    expect(page.locator(".guide-src")).to_have_count(1, timeout=15000)
    settled(page)  # placed on the frame after the marks
    assert page.evaluate(COVERED) == []
    # From the top of the page, "Skip guide" is at most three Tabs away.
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    page.focus("a.skip")
    reached = False
    for _ in range(3):
        page.keyboard.press("Tab")
        if page.evaluate("() => Boolean(document.activeElement.closest('.guide-bubble'))"):
            reached = True
            break
    assert reached, page.evaluate("() => document.activeElement.outerHTML.slice(0, 120)")
    # Esc puts a held card down and leaves the guide alone (it once ended the guide for
    # good); only the guide's own "Skip guide" ends it.
    page.locator('.mine [data-pick^="t:"]').last.click()
    expect(page.locator(".mine .selected")).not_to_have_count(0)
    page.keyboard.press("Escape")
    expect(page.locator(".mine .selected")).to_have_count(0)
    page.wait_for_timeout(300)  # a fixed wait: time for a wrong close to happen
    expect(bubble).to_be_visible()
    bubble.get_by_role("button", name="Skip guide").click()
    expect(bubble).to_be_hidden()
    expect(page.locator(".guide-src, .guide-dst")).to_have_count(0)


def test_the_grip_guide_covers_no_card_at_1280_by_800(open_page):
    page = open_page("grip", viewport={"width": 1280, "height": 800}, path="/grip", guide=True)
    bubble = page.locator(".guide-bubble")
    expect(bubble).to_be_visible()
    settled(page)
    assert page.evaluate(COVERED) == []
    bubble.get_by_role("button", name="Show me").click()
    for _ in range(3):
        expect(page.locator(".guide-src")).to_have_count(1, timeout=15000)
        settled(page)
        assert page.evaluate(COVERED) == []
        follow_grip(page, server_game(page)["hint"])
        page.wait_for_function("() => !document.querySelector('.grip.busy')")


# What the first Devil's Grip bubble must leave in view: everything one can pick up, drop
# on or click on the page (the grid, stock and talon, the bar's buttons, the "New deal"
# panel), and the grid it talks about.
NEEDED_ON_GRIP = """() => {
  const bubble = document.querySelector('.guide-bubble');
  const b = bubble.getBoundingClientRect();
  const needed = [...document.querySelectorAll(
    '.grip [data-target], .grip [data-pick], #grip-stock, #grip-talon, .grip-grid, .grip-bar button, .grip-new')];
  return needed.filter((n) => {
    const r = n.getBoundingClientRect();
    if (!r.width || !r.height) return false;
    return Math.min(b.right, r.right) - Math.max(b.left, r.left) > 0
      && Math.min(b.bottom, r.bottom) - Math.max(b.top, r.top) > 0;
  }).map((n) => n.id || n.dataset.target || n.dataset.pick || n.className);
}"""

FIT_SIZES = {  # the fit test's four (tests/browser/test_fit.py)
    "1280x800": {"width": 1280, "height": 800},
    "1366x768": {"width": 1366, "height": 768},
    "1920x1080": {"width": 1920, "height": 1080},
    "phone": PHONE,
}


@pytest.mark.parametrize("size", list(FIT_SIZES))
def test_the_first_grip_bubble_covers_nothing_it_talks_about_or_needs_clicking(open_page, artifacts, size):
    viewport = FIT_SIZES[size]
    page = open_page("grip", viewport=viewport, path="/grip", guide=True)
    bubble = page.locator(".guide-bubble")
    expect(bubble).to_be_visible()
    expect(bubble.locator(".guide-title")).to_have_text("Your first deal")
    expect(page.locator(".grip-new")).to_be_visible()
    settled(page)
    page.screenshot(path=str(artifacts / f"guide-grip-first-{size}.png"))
    box = bubble.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], box
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], box
    assert page.evaluate(NEEDED_ON_GRIP) == []
    # pointing at a move, the bubble sits by the card and the room it took is given back
    bubble.get_by_role("button", name="Show me").click()
    expect(page.locator(".guide-src")).to_have_count(1, timeout=15000)
    expect(page.locator(".guide-room")).to_have_count(0)
