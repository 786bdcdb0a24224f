"""Devil's Grip in a real browser: a whole deal played by clicking the hinted cards and
targets until the end-of-deal summary shows; undo and redo on the way; statistics kept
across a reload."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.helpers import no_horizontal_scroll


def grid(page) -> list[list[str]]:
    return page.evaluate("""() => [...document.querySelectorAll('.grip-grid .cell')].map(
        (c) => [...c.querySelectorAll('[data-card]')].map((e) => e.dataset.card))""")



def follow_hint(page) -> None:
    """Ask for a hint and play it with clicks: the stock, or a card then its target."""
    page.click("#grip-hint")
    page.wait_for_function("() => document.querySelector('.hint') || document.querySelector('#grip-summary')")
    if page.locator("#grip-summary").count():
        return
    if page.locator("#grip-stock.hint").count():
        page.click("#grip-stock")
    else:
        if page.locator("#grip-talon.hint").count():
            page.click("#grip-talon [data-pick]")
        else:
            # the whole pile: its bottom card, on the strip left showing above the others
            page.locator(".cell.hint-src [data-card]").first.click(position={"x": 8, "y": 6})
        expect(page.locator(".cell.hint-dst.legal-target")).to_be_visible()
        page.click(".cell.hint-dst")
    # the answer re-draws the board without the hint
    page.wait_for_function("() => !document.querySelector('.hint') && !document.querySelector('.grip.busy')")


def test_whole_deal_by_clicking_with_undo(open_page, artifacts):
    page = open_page("grip", path="/grip")
    expect(page.locator("#grip-stock")).to_be_visible()
    page.select_option("#grip-passes", "1")
    page.fill("#grip-number", "7")
    page.click("#grip-by-number")
    expect(page.locator(".deal-no")).to_have_text("Deal #7")
    expect(page.locator(".passes")).to_have_text("Pass 1 of 1")
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
    expect(page.locator(".grip-info .tag")).to_have_text("undo used")

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

    # statistics are kept in this browser: after a reload the played deal is counted
    page.reload()
    expect(page.locator("#grip-summary")).to_be_visible()
    stats = page.locator(".grip-stats")
    expect(stats).to_contain_text("Deals played with undo")
    expect(stats.locator("dl").nth(1)).to_contain_text(score)


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
