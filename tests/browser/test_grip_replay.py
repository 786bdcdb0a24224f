"""A Devil's Grip game watched again in real Chromium: a game played (a few
moves, then ended, or left for another deal, or played offline and verified when the
network is back) is listed under "Your recent games" on the Grip page, and its replay
ends on the very grid the page showed; the scrubber lands on the same position as
stepping; another browser is refused (the server answers 404 without the game's token);
the viewer fits the four screen sizes of the fit test, passes axe with no violation,
and speaks all five languages."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.helpers import follow_hint, no_horizontal_scroll, settled
from tests.browser.test_accessibility import axe_violations
from tests.support.live_server import LiveServer

SIZES = {  # the fit test's four (tests/browser/test_fit.py)
    "1280x800": {"width": 1280, "height": 800},
    "1366x768": {"width": 1366, "height": 768},
    "1920x1080": {"width": 1920, "height": 1080},
    "phone": {"width": 390, "height": 844},
}

# Every card, count and mark of the board, as plain data: two positions are the same when
# this is. Works on the Grip page and in the viewer alike (the same panels draw both).
BOARD = """() => ({
    grid: [...document.querySelectorAll('.grip-grid .cell')].map(
        (c) => [...c.querySelectorAll('[data-card]')].map((e) => e.dataset.card)),
    talon: [...document.querySelectorAll('#grip-talon [data-card]')].map((e) => e.dataset.card),
    stock: document.querySelector('#grip-stock .stock-count').textContent,
    talonCount: document.querySelector('.talon-count').textContent,
    score: document.querySelector('#grip-score strong').textContent,
})"""
# In the viewer, the board and the words of the move that made it (ending a deal changes
# no card).
POSITION = f"""() => ({{ board: ({BOARD})(), move: document.querySelector('#grip-watch-move').textContent }})"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Quick par (a finished game counts in the statistics, and is listed, once its par is
    known), quick hints."""
    srv = LiveServer(
        tmp_path_factory.mktemp("grip-replay"), hint_budget_s=0.1, hint_deadline_s=3, par_budget_s=0.1, winnable_ready=0
    )
    with srv:
        yield srv


def deal_by_number(page, number: int) -> None:
    page.fill("#grip-number", str(number))
    page.click("#grip-by-number")
    expect(page.locator(".deal-no")).to_have_text(f"Deal #{number}")


def play_and_end(page, number: int) -> dict:
    """Deal `number`, play a few moves and end the deal; returns the board it ended on,
    once the game is listed with its replay."""
    deal_by_number(page, number)
    for _ in range(2):
        page.click("#grip-stock")
    follow_hint(page)
    follow_hint(page)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#grip-end")
    expect(page.locator("#grip-summary")).to_be_visible()
    final = page.evaluate(BOARD)
    # listed once it counts, which waits for its par (a search: slow on a loaded machine)
    expect(page.locator(f'#grip-recent li:has-text("Deal #{number}")')).to_be_visible(timeout=60_000)
    return final


def open_replay(page, number: int):
    page.locator(f'#grip-recent li:has-text("Deal #{number}") a').first.click()
    expect(page.locator("#replay-scrub")).to_be_visible()
    assert re.fullmatch(r"/grip/replay/[A-Za-z0-9_-]+", page.evaluate("location.pathname"))
    return page


def test_a_game_is_played_then_replayed_to_the_same_final_grid(open_page):
    page = open_page("player", path="/grip")
    final = play_and_end(page, 7)
    expect(page.locator("#grip-recent li").first).to_contain_text("Deal #7: score")
    open_replay(page, 7)
    expect(page.locator(".replay-title")).to_have_text("Replay of deal #7")
    expect(page.locator("#grip-watch-outcome")).to_have_text(f"The deal ended with a score of {final['score']}.")
    expect(page.locator("#grip-watch-differs")).to_have_count(0)  # the page's rules end where the server's did
    # the first position is the deal: a full grid, an empty talon, no move yet
    assert page.evaluate(BOARD)["talon"] == []
    expect(page.locator("#grip-watch-move")).to_have_text("The deal, before the first move.")
    last = int(page.get_attribute("#replay-scrub", "max"))
    assert last == 5  # two deals, two hinted moves, the end
    page.keyboard.press("End")
    assert page.evaluate(BOARD) == final
    expect(page.locator("#grip-watch-move")).to_have_text("The deal is ended here.")
    # played at ×8 from the start, it gets to the same end by itself
    page.keyboard.press("Home")
    page.select_option("#replay-speed", "8")
    page.click("#replay-play")
    expect(page.locator(".grip-watch")).to_have_attribute("data-at", str(last), timeout=15_000)
    assert page.evaluate(BOARD) == final
    expect(page.locator("#replay-play")).to_have_text("Play")
    # and back to the game's page
    page.click("#grip-watch-back")
    expect(page.locator("#grip-recent")).to_be_visible()


@pytest.mark.slow
def test_the_scrubber_lands_on_the_same_position_as_stepping(open_page):
    page = open_page("scrub", path="/grip")
    play_and_end(page, 11)
    open_replay(page, 11)
    last = int(page.get_attribute("#replay-scrub", "max"))
    stepped = []
    for _ in range(last):
        page.click("#replay-forward")
        stepped.append(page.evaluate(POSITION))
    expect(page.locator("#replay-forward")).to_be_disabled()
    assert len({str(b) for b in stepped}) == last, "every move changes what is shown"
    for k in (1, 3, last - 1, last, 2):
        page.evaluate(
            """(k) => { const s = document.querySelector('#replay-scrub');
            s.value = String(k); s.dispatchEvent(new Event('input', {bubbles: true})); }""",
            k,
        )
        assert page.evaluate(POSITION) == stepped[k - 1], k
    page.keyboard.press("End")
    for k in range(last - 1, 0, -1):
        page.click("#replay-back")
        assert page.evaluate(POSITION) == stepped[k - 1], k
    page.click("#replay-back")
    expect(page.locator("#replay-back")).to_be_disabled()


def test_a_game_left_for_another_deal_is_listed_and_replays_to_where_it_was_left(open_page):
    page = open_page("leaver", path="/grip")
    deal_by_number(page, 21)
    page.click("#grip-stock")
    follow_hint(page)
    page.wait_for_function(
        "() => { const g = JSON.parse(localStorage.getItem('dg.grip.current')); return g.id && !g.pending.length; }"
    )  # the server has its moves
    left = page.evaluate(BOARD)
    deal_by_number(page, 22)  # a new deal: deal 21 is left unfinished
    expect(page.locator("#grip-recent li").first).to_have_text(re.compile(r"^Deal #21: left unfinished"))
    open_replay(page, 21)
    expect(page.locator("#grip-watch-outcome")).to_contain_text("unfinished")
    page.keyboard.press("End")
    assert page.evaluate(BOARD) == left


def test_a_game_played_offline_is_replayable_once_verified(open_page):
    page = open_page("offline", path="/grip")
    expect(page.locator("#grip-stock")).to_be_visible()
    page.context.set_offline(True)
    deal_by_number(page, 4242)
    for _ in range(3):
        page.click("#grip-stock")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#grip-end")
    expect(page.locator("#grip-sync")).to_contain_text("counts once the server has checked")
    final = page.evaluate(BOARD)
    expect(page.locator("#grip-recent li")).to_have_count(0)  # not verified: nothing to watch yet
    page.context.set_offline(False)  # the page hears "online", sends the game, the server replays it
    expect(page.locator("#grip-recent li:has-text('Deal #4242')")).to_be_visible(timeout=30_000)
    open_replay(page, 4242)
    page.keyboard.press("End")
    assert page.evaluate(BOARD) == final
    assert int(page.get_attribute("#replay-scrub", "max")) == 4
    # the requests made while the network was cut failed, as they should (and the service
    # worker's check for an update of itself)
    problems = open_page.problems.items
    problems[:] = [
        p
        for p in problems
        if not (
            p.startswith("offline ")
            and ("ERR_INTERNET_DISCONNECTED" in p or "error occurred when fetching the script" in p)
        )
    ]


def test_another_browser_is_refused(open_page, server):
    page = open_page("owner", path="/grip")
    play_and_end(page, 31)
    open_replay(page, 31)
    link = page.evaluate("location.pathname")
    game_id = link.rsplit("/", 1)[1]
    stranger = open_page("stranger", path=link)
    expect(stranger.locator(".grip-watch-missing")).to_contain_text("only in the browser that played it")
    expect(stranger.locator("#replay-scrub")).to_have_count(0)
    # the refusal is the server's: without the game's token, or with another's, a 404
    problems = open_page.problems.items
    expected = [p for p in problems if p.startswith("stranger ") and "404" in p]
    assert len(expected) == 2, problems  # the answer, and Chromium's console line for it
    problems[:] = [p for p in problems if p not in expected]
    other = httpx.post(f"{server.base}/api/grip", json={"number": 5}, timeout=10).json()
    for headers in ({}, {"Authorization": f"Bearer {other['token']}"}):
        assert httpx.get(f"{server.base}/api/grip/{game_id}/sync", headers=headers, timeout=10).status_code == 404
    token = page.evaluate(
        "(id) => JSON.parse(localStorage.getItem('dg.grip.played')).find((g) => g.id === id).token", game_id
    )
    mine = httpx.get(f"{server.base}/api/grip/{game_id}/sync", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert mine.status_code == 200 and mine.json()["number"] == 31


def viewer_fits(page, name: str, size: dict, shot) -> None:
    """The controls and the whole grid, with the stock and talon, in the window unscrolled,
    nothing wider than it, and no text of the header or the controls cut or overflowing."""
    page.set_viewport_size(size)
    page.keyboard.press("End")
    settled(page)  # card sizes follow the window
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shot))
    assert no_horizontal_scroll(page), name
    shown = ["#replay-play", "#replay-back", "#replay-forward", "#replay-scrub", "#replay-speed", ".replay-clock"]
    shown += [".grip-grid", "#grip-stock", "#grip-talon", ".replay-title", "#grip-watch-back", "#replay-copy"]
    for sel in shown:
        box = page.locator(sel).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5, (name, sel, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (name, sel, box)
    right = page.evaluate(
        "Math.max(...[...document.querySelectorAll('.grip-watch [data-card]')]"
        ".map((c) => c.getBoundingClientRect().right))"
    )
    assert right <= size["width"] + 0.5, (name, right)
    # no word cut: no button, link or select narrower than its text
    cut = page.evaluate(
        """() => [...document.querySelectorAll('.grip-watch-head *, .grip-watch-controls *')]
            .filter((e) => e.matches('button, a, select') && e.scrollWidth > e.clientWidth + 1)
            .map((e) => e.id || e.tagName)"""
    )
    assert cut == [], (name, cut)


def test_the_viewer_fits_every_screen_and_passes_axe_in_every_language(open_page, artifacts):
    page = open_page("fit", path="/grip")
    play_and_end(page, 41)
    assert axe_violations(page, "grip page with its recent games") == []
    open_replay(page, 41)
    for name, size in SIZES.items():
        viewer_fits(page, name, size, artifacts / f"grip-replay-{name}.png")
        assert axe_violations(page, f"grip replay {name}") == [], name
    # the heading says what is shown: a replay being watched; the way back follows the language
    for code, play, heading, to_grip in (
        ("ro", "Redă", "Reluarea împărțirii #41", "Înapoi la Devil's Grip"),
        ("de", "Abspielen", "Wiederholung von Blatt #41", "Zurück zu Devil's Grip"),
        ("fi", "Toista", "Jaon #41 uusinta", "Takaisin Devil's Gripiin"),
        ("ru", "Смотреть", "Повтор раздачи №41", "Назад к Devil's Grip"),
        ("en", "Play", "Replay of deal #41", "Back to Devil's Grip"),
    ):
        page.set_viewport_size(SIZES["1280x800"])
        page.select_option("select.lang", code)
        expect(page.locator("html")).to_have_attribute("lang", code)
        expect(page.locator("#replay-play")).to_have_text(play)
        expect(page.locator(".replay-title")).to_have_text(heading)
        expect(page.locator("#grip-watch-back")).to_have_text(to_grip)
        assert axe_violations(page, f"grip replay {code}") == [], code
        for name, size in SIZES.items():
            viewer_fits(page, f"{code} {name}", size, artifacts / f"grip-replay-{code}-{name}.png")
