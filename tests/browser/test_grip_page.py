"""Devil's Grip in a real browser: a whole deal played by clicking the hinted cards and
targets until the end-of-deal summary shows, with the deal's par before and after, the
reason it ended, undo and redo on the way, and statistics kept across a reload."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, RACE_SEED
from tests.browser.helpers import follow_hint, no_horizontal_scroll, server_game, settled
from tests.support.live_server import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """This module's own server: shorter searches (a hint in 0.1 s, par with the same
    budget) so a whole deal of hints stays quick, a deadline that a loaded machine cannot
    miss (a refused hint is tested elsewhere), and one certified winnable deal kept
    ready."""
    srv = LiveServer(
        tmp_path_factory.mktemp("grip-browser"),
        test_seed=RACE_SEED,
        hint_budget_s=0.1,
        hint_deadline_s=3,
        par_budget_s=0.1,
        winnable_ready=1,
    )
    with srv:
        yield srv


def grid(page) -> list[list[str]]:
    return page.evaluate("""() => [...document.querySelectorAll('.grip-grid .cell')].map(
        (c) => [...c.querySelectorAll('[data-card]')].map((e) => e.dataset.card))""")


def expected_why(why: dict) -> str:
    """The English sentence for the server's end-of-deal numbers (static/grip/grip-explain.js)."""
    if why["by"] == "won":
        return "Every card is in the grid."
    if why["by"] == "player":
        return (
            f"You ended the deal. Still possible then — whole piles that could move: "
            f"{why['whole_moves']}; talon cards that would fit: {why['showable_fit']}."
        )
    if why["open_piles"] == 0:
        return "Every pile has a jack, queen or king on top: nothing can be built on any of them."
    if why["showable"] == 0:
        return "No pile can move on whole, and the talon has no card left to show."
    if why["showable"] == 1:
        return "No pile can move on whole, and the one card the talon can still show does not fit."
    return f"No pile can move on whole, and none of the {why['showable']} cards the talon can still show fits."


@pytest.mark.slow
def test_whole_deal_by_clicking_with_undo(open_page, artifacts):
    page = open_page("grip", path="/grip")
    expect(page.locator("#grip-stock")).to_be_visible()
    page.select_option("#grip-passes", "1")
    page.fill("#grip-number", "7")
    page.click("#grip-by-number")
    expect(page.locator(".deal-no")).to_have_text("Deal #7")
    expect(page.locator(".passes")).to_have_text("Pass 1 of 1")
    expect(page.locator("#grip-par")).to_have_text(re.compile(r"^Par \d+$"), timeout=30_000)  # before play
    page.screenshot(path=str(artifacts / "grip-start.png"), full_page=True)

    # play until the first move into the grid, then undo it and redo it
    start = grid(page)
    while grid(page) == start:
        follow_hint(page)
    moved = grid(page)
    before_stock = page.inner_text("#grip-stock .stock-count")
    page.click("#grip-undo")
    page.wait_for_function("() => !document.querySelector('.grip.busy')")
    expect(page.locator("#grip-redo")).to_be_enabled()
    assert grid(page) == start
    page.keyboard.press("r")  # redo with the keyboard
    page.wait_for_function("() => !document.querySelector('.grip.busy')")
    expect(page.locator("#grip-stock .stock-count")).to_have_text(before_stock)
    assert grid(page) == moved
    expect(page.locator(".grip-info .tag")).to_have_text(["undo used", "hint used"])

    steps = 0
    while not page.locator("#grip-summary").count():
        follow_hint(page)
        steps += 1
        assert steps < 300, "the deal did not end"
        if steps == 20:
            page.screenshot(path=str(artifacts / "grip-playing.png"), full_page=True)

    summary = page.locator("#grip-summary")
    expect(summary).to_contain_text("Score:")
    score = page.inner_text("#grip-score strong")
    expect(summary).to_contain_text(f"Score: {score}")
    page.screenshot(path=str(artifacts / "grip-summary.png"), full_page=True)

    # par, and why the deal ended, in words made from the server's numbers
    expect(page.locator("#summary-par")).to_have_text(re.compile(rf"^You {score} · Par \d+$"))
    par = int(page.inner_text("#summary-par").rsplit(" ", 1)[1])
    expect(page.locator("#grip-par")).to_have_text(f"Par {par}")
    why = server_game(page)["explain"]
    expect(page.locator("#grip-why")).to_have_text(expected_why(why))

    # statistics are kept in this browser: after a reload the played deal is counted,
    # apart from clean deals (hints and undo were used), under its pass limit
    page.reload()
    expect(page.locator("#grip-summary")).to_be_visible()
    stats = page.locator(".grip-stats")
    expect(stats.locator(".stats-clean")).to_have_count(0)
    expect(stats.locator(".stats-assisted caption")).to_have_text("Deals played with undo or hints")
    expect(stats.locator('.stats-assisted thead th[data-limit="1"]')).to_have_text("one")

    def figure(stat: str):
        return stats.locator(f'.stats-assisted tr[data-stat="{stat}"] td[data-limit="1"]')

    expect(figure("played")).to_have_text("1")
    expect(figure("best")).to_have_text(score)
    vs_par = int(score) - par
    expect(figure("vsPar")).to_have_text(("+" if vs_par > 0 else "−" if vs_par < 0 else "±") + f"{abs(vs_par)}.0")


def test_grip_on_a_phone(open_page, artifacts):
    page = open_page("grip-phone", viewport=PHONE, path="/grip")
    expect(page.locator(".grip-grid .cell [data-card]").first).to_be_visible()
    assert no_horizontal_scroll(page)
    widths = page.eval_on_selector_all(".grip-grid .cell", "els => els.map(e => e.getBoundingClientRect().right)")
    assert len(widths) == 24 and max(widths) <= PHONE["width"]
    page.screenshot(path=str(artifacts / "grip-phone.png"), full_page=True)


def test_grip_fits_a_laptop_and_stays_clear_of_the_header(open_page):
    """At 1280 x 800 the whole grid shows under the deal bar without scrolling. On a
    shorter window the page scrolls: the sticky header hides what passes under it (no
    half-transparent overlap), and whatever keyboard focus scrolls to lands below it."""
    page = open_page("grip-laptop", viewport={"width": 1280, "height": 800}, path="/grip")
    expect(page.locator('[data-cell="23"] [data-card]').first).to_be_visible()
    header = page.locator("#top").bounding_box()
    header_bottom = header["y"] + header["height"]
    assert page.locator(".grip-bar").bounding_box()["y"] >= header_bottom
    last = page.locator('[data-cell="23"]').bounding_box()
    assert last["y"] + last["height"] <= 800, last
    stock = page.locator("#grip-stock").bounding_box()
    assert stock["y"] + stock["height"] <= 800, stock
    alpha = page.evaluate("""() => {
        const c = getComputedStyle(document.querySelector('#top')).backgroundColor;
        const m = /rgba\\([^)]*,\\s*([\\d.]+)\\)/.exec(c);
        return m ? Number(m[1]) : 1;
    }""")
    assert alpha == 1, "the sticky header must not show the page through it"

    page.set_viewport_size({"width": 1280, "height": 560})
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.focus('[data-cell="16"]')
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    focused = page.evaluate("""() => ({cell: document.activeElement.dataset.cell,
                                       top: document.activeElement.getBoundingClientRect().top})""")
    assert focused["cell"] == "0"
    assert focused["top"] >= header_bottom, focused


@pytest.mark.slow
def test_a_winnable_deal_shows_its_solution_step_by_step(open_page, artifacts):
    page = open_page("grip-solution", path="/grip")
    expect(page.locator("#grip-stock")).to_be_visible()
    page.select_option("#grip-passes", "")
    page.check("#grip-winnable")
    page.click("#grip-new")
    expect(page.locator(".grip-info .tag.winnable")).to_have_text("can be won", timeout=60_000)
    expect(page.locator(".passes")).to_have_text("Pass 1 (unlimited)")
    start = grid(page)

    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#grip-end")
    expect(page.locator("#grip-summary")).to_be_visible()
    expect(page.locator("#grip-why")).to_contain_text("You ended the deal.")
    page.click("#show-solution")
    expect(page.locator("#replay-title")).to_have_text(re.compile(r"^A solution: step 0 of \d+$"))
    total = int(page.inner_text("#replay-title").rsplit(" ", 1)[1])
    assert grid(page) == start  # the replay starts from the deal as dealt
    expect(page.locator("#replay-prev")).to_be_disabled()
    page.click("#replay-next")
    expect(page.locator("#replay-title")).to_have_text(f"A solution: step 1 of {total}")
    expect(page.locator("#replay-step")).not_to_have_text("The deal as it was dealt.")
    # The step's card is marked where it went, and at 1280 x 800 the whole grid
    # stays in view while the solution shows (row 3 went below the fold).
    step = page.evaluate("() => document.querySelectorAll('.cell.replay-moved').length")
    kind = page.inner_text("#replay-step")
    assert step == 1 or kind.startswith(("Deal", "Redeal")), kind
    page.set_viewport_size({"width": 1280, "height": 800})
    settled(page)
    low = page.evaluate("""() => Math.max(...[...document.querySelectorAll('.grip-grid .cell')]
        .map((c) => c.getBoundingClientRect().bottom))""")
    assert low <= 800 and page.evaluate("window.scrollY") == 0, low
    expect(page.locator("#replay-next")).to_be_in_viewport()
    # and on a phone: the whole grid with the solution's buttons, unscrolled
    page.set_viewport_size(PHONE)
    settled(page)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / "grip-solution-phone.png"))
    low = page.evaluate("""() => Math.max(...[...document.querySelectorAll('.grip-grid .cell')]
        .map((c) => c.getBoundingClientRect().bottom))""")
    assert low <= PHONE["height"], low
    for sel in ("#replay-prev", "#replay-next", "#replay-play", "#replay-close"):
        expect(page.locator(sel)).to_be_in_viewport(ratio=1)
    page.set_viewport_size({"width": 1280, "height": 900})
    for _ in range(total - 1):
        page.click("#replay-next")
    expect(page.locator("#replay-title")).to_have_text(f"A solution: step {total} of {total}")
    expect(page.locator("#replay-next")).to_be_disabled()
    expect(page.locator("#grip-score strong")).to_have_text("0")
    final = grid(page)
    assert all(len(pile) == 4 for pile in final) and len(final) == 24
    # no move can be made while the solution shows; closing it returns to the deal
    expect(page.locator("#grip-undo")).to_be_disabled()
    page.click("#replay-close")
    expect(page.locator("#grip-summary")).to_be_visible()
    assert grid(page) == start
    # A deal whose solution was shown is an aided game, like a hinted one; so
    # is the same deal started again by number in this browser.
    expect(page.locator(".grip-info .tag.hint-tag")).to_be_visible()
    number = page.evaluate("() => JSON.parse(localStorage.getItem('dg.prefs')).gripSolutionsSeen[0]")
    page.fill("#grip-number", str(number))
    page.click("#grip-by-number")
    expect(page.locator(".grip-info .tag.winnable")).to_have_count(0)  # a new game, by number
    assert grid(page) == start
    expect(page.locator(".grip-info .tag.hint-tag")).to_be_visible()


def follow_hint_by_keys(page) -> None:
    """Ask for a hint and play it with the keyboard only: D for the stock; T or Enter on a
    focused cell to pick up (each Enter one card more of the run), Enter on the target to
    build, X to swap."""
    page.keyboard.press("h")
    page.wait_for_function("() => document.querySelector('.hint') || document.querySelector('#grip-summary')")
    if page.locator("#grip-summary").count():
        return
    if page.locator("#grip-stock.hint").count():
        page.keyboard.press("d")
    else:
        if page.locator("#grip-talon.hint").count():
            page.keyboard.press("t")
            expect(page.locator("#grip-talon [data-pick].selected")).to_have_count(1)
        else:
            page.focus(".cell.hint-src")
            target = page.locator(".cell.hint-dst.legal-target, .cell.hint-dst.swap-target")
            for _ in range(14):  # one card more each time, until the hinted target lights up
                page.keyboard.press("Enter")
                if target.count():
                    break
        expect(page.locator(".grip.holding")).to_have_count(1)
        swap = page.locator(".cell.hint-dst.swap-target").count() > 0
        page.focus(".cell.hint-dst")
        page.keyboard.press("x" if swap else "Enter")
    page.wait_for_function("() => !document.querySelector('.hint') && !document.querySelector('.grip.busy')")
    expect(page.locator(".grip.holding")).to_have_count(0)


def test_hinted_moves_with_the_keyboard_only(open_page):
    page = open_page("grip-keys", path="/grip")
    expect(page.locator("#grip-stock")).to_be_visible()
    page.select_option("#grip-passes", "3")
    page.fill("#grip-number", "11")
    page.click("#grip-by-number")
    expect(page.locator(".deal-no")).to_have_text("Deal #11")
    page.focus('[data-cell="0"]')
    page.keyboard.press("Escape")  # nothing held: Escape changes nothing
    changes = 0
    previous = grid(page)
    for _ in range(40):
        follow_hint_by_keys(page)
        if page.locator("#grip-summary").count():
            break
        now = grid(page)
        if now != previous:
            changes += 1
            previous = now
        if changes >= 3:
            break
    assert changes >= 3 or page.locator("#grip-summary").count(), "no card reached the grid by the keyboard"
    # a picked-up card is put down again with Escape
    page.keyboard.press("h")
    page.wait_for_function("() => document.querySelector('.hint') || document.querySelector('#grip-summary')")
    if not page.locator("#grip-summary").count() and page.locator(".cell.hint-src").count():
        page.focus(".cell.hint-src")
        page.keyboard.press("Enter")
        expect(page.locator(".grip-grid .selected")).not_to_have_count(0)
        page.keyboard.press("Escape")
        expect(page.locator(".grip-grid .selected")).to_have_count(0)


FIXTURE = Path(__file__).resolve().parent.parent / "js" / "fixtures" / "grip-deal3-solution.json"


def play_by_keys(page, action: dict) -> None:
    """One action of a known line with the keyboard, at once (no hint, no wait): D for
    the stock (a deal or a redeal); T or Enter on a cell (once per card of the run) to
    pick up, Enter on the target to build."""
    if action["type"] in ("deal", "redeal"):
        page.keyboard.press("d")
        return
    if action["type"] == "talon":
        page.keyboard.press("t")
    else:
        page.focus(f'[data-cell="{action["src"]}"]')
        for _ in range(action["count"]):
            page.keyboard.press("Enter")
    page.focus(f'[data-cell="{action["dst"]}"]')
    page.keyboard.press("Enter")


@pytest.mark.slow
def test_finish_is_offered_as_soon_as_the_win_is_proven(open_page):
    """Deal 3, unlimited passes, played fast along a known winning line: "Finish" shows
    right after the redeal that lets the player know the stock's order (tens of cards
    out, no pause needed), stays offered while the player keeps moving at once, and
    plays the deal to its win."""
    line = json.loads(FIXTURE.read_text())
    assert line["number"] == 3 and line["passes"] is None
    page = open_page("grip-finish", path="/grip")
    expect(page.locator("#grip-stock")).to_be_visible()
    page.select_option("#grip-passes", "")
    page.fill("#grip-number", "3")
    page.click("#grip-by-number")
    expect(page.locator(".deal-no")).to_have_text("Deal #3")
    finish = page.locator("#grip-finish")
    redeal = next(i for i, a in enumerate(line["line"]) if a["type"] == "redeal")
    for action in line["line"][:redeal]:
        play_by_keys(page, action)
        expect(finish).to_have_count(0)  # the first pass: the order is not known
    play_by_keys(page, line["line"][redeal])
    expect(page.locator(".passes")).to_have_text(re.compile(r"^Pass 2\b"))
    # no pause: shown within 300 ms (it waited for 350 ms of stillness before)
    expect(finish).to_be_visible(timeout=300)
    out = int(page.inner_text("#grip-score strong"))
    assert out > 40, out
    # moving at once, move after move: every position is still offered within 300 ms
    for action in line["line"][redeal + 1 : redeal + 6]:
        play_by_keys(page, action)
        expect(finish).to_be_visible(timeout=300)
    finish.click()
    expect(page.locator("#grip-summary")).to_be_visible(timeout=60_000)
    expect(page.locator("#grip-why")).to_have_text("Every card is in the grid.")
