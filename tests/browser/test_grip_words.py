"""The Devil's Grip page in the five languages at the four sizes of the fit test: no word
cut (a button, link, label or select narrower than its text, a panel whose table scrolls
its last columns out of sight), no button or short label broken over two lines, and nothing
wider than the window."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.helpers import no_horizontal_scroll, settled
from tests.browser.test_grip_page import FIXTURE, play_by_keys

SIZES = {  # the fit test's four (tests/browser/test_fit.py)
    "1280x800": {"width": 1280, "height": 800},
    "1366x768": {"width": 1366, "height": 768},
    "1920x1080": {"width": 1920, "height": 1080},
    "phone": PHONE,
}
LANGS = ("en", "de", "fi", "ro", "ru")

# Words cut: a control narrower than its text (a select: than its chosen option's
# text, which it clips), a panel wider inside than out; words broken: a button, tag or
# label whose text runs over more than one line (a table's headings may wrap between
# words). Each as "what: its text".
TROUBLE = """() => {
  const out = [];
  const name = (e) => `${e.id ? '#' + e.id : e.tagName.toLowerCase() + '.' + [...e.classList].join('.')}: ${e.textContent.trim().slice(0, 40)}`;
  const shown = (e) => e.offsetParent !== null && !e.closest('.sr-only, [hidden]');
  // the lines of an element's own words (not a select's options, not a card's picture)
  const lines = (e) => {
    const bottoms = new Set();
    const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (!n.textContent.trim() || n.parentElement.closest('select, [data-card], .sr-only')) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) if (r.width > 1) bottoms.add(Math.round(r.bottom));
    }
    return bottoms.size;
  };
  const grip = document.querySelector('.grip');
  for (const e of grip.querySelectorAll('button:not(#grip-stock), a, label, .tag, .rating, .passes, .row-goal, .talon-count, .deal-no')) {
    if (!shown(e)) continue;
    if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).display !== 'inline') out.push(`cut ${name(e)}`);
    if (lines(e) > 1) out.push(`wraps ${name(e)}`);
  }
  // a table wider than its panel scrolls inside it: its last columns are out of sight
  for (const e of grip.querySelectorAll('.panel')) {
    if (shown(e) && e.scrollWidth > e.clientWidth + 1) out.push(`cut ${name(e)}`);
  }
  const canvas = document.createElement('canvas').getContext('2d');
  for (const s of grip.querySelectorAll('select')) {
    if (!shown(s)) continue;
    const cs = getComputedStyle(s);
    canvas.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const text = s.options[s.selectedIndex] ? s.options[s.selectedIndex].text : '';
    const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 16; // the arrow
    if (canvas.measureText(text).width > room) out.push(`cut #${s.id}: ${text}`);
  }
  return out;
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_no_word_cut_or_broken_in_any_language(open_page, artifacts, size):
    viewport = SIZES[size]
    page = open_page(f"grip-words-{size}", viewport=viewport, path="/grip")
    expect(page.locator(".grip-grid .cell [data-card]").first).to_be_visible()
    found = {}

    def check(when: str) -> None:
        for code in LANGS:
            page.select_option("select.lang", code)
            expect(page.locator("html")).to_have_attribute("lang", code)
            settled(page)
            page.screenshot(path=str(artifacts / f"grip-words-{when}-{code}-{size}.png"), full_page=True)
            assert no_horizontal_scroll(page), (when, code, size)
            trouble = page.evaluate(TROUBLE)
            if trouble:
                found[f"{when} {code}"] = trouble

    check("playing")
    # the end of a deal: the summary, and the statistics with the deal counted
    page.select_option("select.lang", "en")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#grip-end")
    expect(page.locator("#grip-summary")).to_be_visible()
    expect(page.locator(".grip-stats table").first).to_be_visible(timeout=60_000)
    check("ended")
    assert found == {}, found


def test_the_bar_with_finish_offered_in_any_language(open_page, artifacts):
    """With "Finish" offered the bar has its most buttons: in every language and at every
    size its words stay whole, and on a laptop the whole grid still shows under it."""
    line = json.loads(FIXTURE.read_text())
    page = open_page("grip-words-finish", viewport=SIZES["1366x768"], path="/grip")
    expect(page.locator("#grip-stock")).to_be_visible()
    page.select_option("#grip-passes", "")
    page.fill("#grip-number", str(line["number"]))
    page.click("#grip-by-number")
    expect(page.locator(".deal-no")).to_have_text(f"Deal #{line['number']}")
    redeal = next(i for i, a in enumerate(line["line"]) if a["type"] == "redeal")
    for action in line["line"][: redeal + 1]:
        play_by_keys(page, action)
    expect(page.locator("#grip-finish")).to_be_visible()
    page.evaluate("document.activeElement && document.activeElement.blur()")
    found = {}
    for code in LANGS:
        page.select_option("select.lang", code)
        expect(page.locator("html")).to_have_attribute("lang", code)
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            settled(page)
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(artifacts / f"grip-words-finish-{code}-{size}.png"))
            assert no_horizontal_scroll(page), (code, size)
            trouble = page.evaluate(TROUBLE)
            if size != "phone":
                low = page.evaluate(
                    "Math.max(...[...document.querySelectorAll('.grip-grid .cell')].map((c) => c.getBoundingClientRect().bottom))"
                )
                if low > viewport["height"]:
                    trouble.append(f"grid bottom at {low:.0f}")
            if trouble:
                found[f"{code} {size}"] = trouble
    assert found == {}, found
