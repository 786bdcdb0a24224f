"""The Demon table draws by patching: a play from another seat changes that
seat's panel and the foundations, and nothing of the other seats' panels.

Watched in a real Chromium at a table of one idle person and seven Hard bots: the page's
socket is tapped (an init script, before the app) to know which seats moved, and a
MutationObserver records which panels had nodes added or removed. When every play
rebuilt every panel, each move touched all seven panels and made hundreds of nodes.
"""

from __future__ import annotations

import time

from playwright.sync_api import expect

from tests.browser.helpers import practice_from_home, settled, wait_for_table

# Which seats moved, from the raw frames (one JSON message a line).
TAP = """(() => {
  window.__movers = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        if (typeof e.data !== 'string') return;
        for (const line of e.data.split('\\n')) {
          try {
            const m = JSON.parse(line);
            if (m.type === 'event' && m.event.kind === 'move') window.__movers.push(m.event.seat);
          } catch (err) { /* not JSON: nothing to count */ }
        }
      });
    }
  };
})();"""

WATCH = """() => {
  window.__movers = [];
  window.__touched = {};
  window.__made = 0;
  const opponents = document.querySelector('.opponents');
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type !== 'childList') continue;
      const panel = r.target.closest('[data-seat]');
      const seat = panel ? panel.dataset.seat : 'outside a panel';
      window.__touched[seat] = (window.__touched[seat] || 0) + 1;
      for (const n of r.addedNodes) if (n.nodeType === 1) window.__made += 1 + n.querySelectorAll('*').length;
    }
  }).observe(opponents, { childList: true, subtree: true });
}"""


def start_practice(open_page, bots: int, viewport=None):
    page = open_page("patch", viewport=viewport)
    page.context.add_init_script(TAP)
    page.reload()
    practice_from_home(page, bots, "hard")
    expect(page.locator(".opp")).to_have_count(bots)
    return page


def test_a_play_changes_only_the_movers_panel(open_page):
    page = start_practice(open_page, 7)
    page.evaluate(WATCH)
    # polled from here: the page's CSP (script-src 'self') refuses wait_for_function's eval
    deadline = time.monotonic() + 30
    while page.evaluate("() => window.__movers.length") < 12:
        assert time.monotonic() < deadline, "the bots made fewer than 12 moves in 30 s"
        page.wait_for_timeout(200)
    settled(page)  # the last move's drawing is done
    got = page.evaluate("({movers: window.__movers, touched: window.__touched, made: window.__made})")
    movers = {str(s) for s in got["movers"]}
    touched = set(got["touched"])
    assert "outside a panel" not in touched, got  # the panels themselves are kept
    # a panel changes only for a seat that moved (its name, votes and connection did not
    # change here: the bots stay, and nobody voted yet)
    assert touched <= movers, (touched, movers)
    # a move makes a pile, the waste, the stock or the head again: a few nodes, not the
    # seven panels (about forty nodes each) that a rebuild makes
    assert got["made"] <= 12 * len(got["movers"]), got


def test_the_first_round_guide_pulses_a_few_times_then_stops(open_page):
    """The coach's ring on the card to play animates `transform` a finite number of times:
    an endless pulse kept the main thread busy on a table where nothing happened."""
    page = open_page("guide-pulse", guide=True)
    page.fill("#practice-name", "Ann")
    page.click("#guide-practice")
    wait_for_table(page)
    ring = page.locator(".guide-src")
    expect(ring).to_have_count(1, timeout=15000)
    timing = ring.evaluate("""el => el.getAnimations().map(a => ({
        name: a.animationName, iterations: a.effect.getComputedTiming().iterations,
        props: a.effect.getKeyframes().flatMap(k => Object.keys(k)).filter(k => !['offset', 'easing', 'composite', 'computedOffset'].includes(k)) }))""")
    pulse = [a for a in timing if a["name"] == "guide-pulse"]
    assert pulse, timing
    assert all(0 < a["iterations"] <= 4 for a in pulse), timing
    assert all(set(a["props"]) <= {"transform", "opacity"} for a in pulse), timing


def test_the_panels_words_are_read_as_descriptions_but_never_laid_out(open_page):
    """Each seat's panel and the foundations are described in words (aria-describedby),
    written again on every play: the words are a hidden node, which a screen reader still
    reads as the description, so the browser does not lay out and paint a sentence per
    play (an `sr-only` node was laid out, shaped and painted each time)."""
    page = start_practice(open_page, 3)
    for panel, words in (
        (page.locator(".opp").first, "#" + page.locator(".opp").first.get_attribute("aria-describedby")),
        (page.locator(".foundations"), "#fnd-words"),
    ):
        # Hard bots play on: the words may change between reading them and reading the
        # description, so both are read again until they meet.
        for attempt in range(20):
            text = page.locator(words).text_content()
            assert text and len(text) > 10, text
            try:
                expect(panel).to_have_accessible_description(text, timeout=300)
                break
            except AssertionError:
                if attempt == 19:
                    raise
        assert page.locator(words).evaluate("el => el.getClientRects().length") == 0


# Attribute writes that changed nothing: Chromium recalculates style for a `hidden` (or a
# class) written again with the value it has, so each is a frame of work for nothing.
UNCHANGED_WRITES = """() => {
  window.__unchanged = [];
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.oldValue === r.target.getAttribute(r.attributeName)) {
        window.__unchanged.push(`${r.target.tagName}.${r.target.className}@${r.attributeName}`);
      }
    }
  }).observe(document.body, { subtree: true, attributes: true, attributeOldValue: true,
                              attributeFilter: ['hidden', 'class'] });
}"""


def test_the_clock_and_the_drawing_write_no_attribute_that_does_not_change(open_page):
    """The 200 ms clock wrote `hidden` on the time and the countdown five times a second,
    and every drawing wrote it on the play log and the emote dock, unchanged: each such
    write made Chromium recalculate style on a table where nothing had changed."""
    page = start_practice(open_page, 1)
    page.evaluate(UNCHANGED_WRITES)
    page.wait_for_timeout(1500)  # a fixed wait: seven ticks of the clock, and the bot's plays drawn
    assert page.evaluate("window.__unchanged") == []


def test_the_guide_writes_no_mark_that_does_not_change(open_page):
    """The guide took its ring off the card to play and put it back after every drawing
    of the table (the clock's text every second, every bot play): a class written for
    nothing each time, and the ring's pulse started again."""
    page = open_page("guide-writes", guide=True)
    page.fill("#practice-name", "Ann")
    page.click("#guide-practice")
    wait_for_table(page)
    expect(page.locator(".guide-src")).to_have_count(1, timeout=15000)
    page.evaluate(UNCHANGED_WRITES)
    page.wait_for_timeout(2500)  # a fixed wait: two ticks of the clock's seconds at least
    assert page.evaluate("window.__unchanged") == []
