"""Small steps the browser tests share: create and join rooms, read the layout shown,
record the messages a page shows, hold back what the server sends a page (Gate)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, WebSocketRoute, expect


def create_room(page: Page, name: str, *, rounds: int | None = None, max_players: int | None = None) -> str:
    """On the home page: create a room (with the form's defaults unless told otherwise);
    returns its code once the lobby shows."""
    page.fill("#create-name", name)
    if rounds is not None:
        page.select_option("#create-rounds", str(rounds))
    if max_players is not None:
        page.select_option("#create-max", str(max_players))
    page.click("#create-room")
    expect(page.locator("#room-code")).to_be_visible()
    code = page.inner_text("#room-code").strip()
    assert re.fullmatch(r"[A-Z0-9]{4,12}", code), code
    return code


def practice_from_home(page: Page, bots: int, level: str, *, rounds: int | None = None) -> None:
    """On the home page: "Play against bots" as Ann, with `bots` bots of `level`; returns
    once the countdown is over and the race is on."""
    page.fill("#practice-name", "Ann")
    if rounds is not None:
        page.select_option("#create-rounds", str(rounds))
    page.select_option("#practice-bots", str(bots))
    page.select_option("#practice-level", level)
    page.click("#practice-start")
    wait_for_table(page)
    expect(page.locator(".countdown")).to_be_hidden()


def join_by_link(page: Page, link: str, name: str) -> None:
    page.goto(link)
    page.fill("#link-name", name)
    page.click("#join-by-link")
    expect(page.locator("#room-code")).to_be_visible()


def wait_for_table(page: Page) -> None:
    """The round is on: this seat's tableau has face-up cards to pick."""
    expect(page.locator(".mine .tableau [data-pick]").first).to_be_visible()


def my_layout(page: Page) -> dict:
    """Everything this seat's own layout shows, as plain data."""
    return page.evaluate("""() => {
        const piles = [...document.querySelectorAll('.mine .tableau .pile')].map((p) => ({
            down: p.querySelectorAll('.card.down').length,
            up: [...p.querySelectorAll('.card.up')].map((c) => c.dataset.card),
        }));
        const waste = [...document.querySelectorAll('.mine .waste [data-card]')].map((c) => c.dataset.card);
        const stock = document.querySelector('.mine .stock .stock-count').textContent;
        return {piles, waste, stock};
    }""")


def foundation_cards(page: Page) -> list[str]:
    return page.eval_on_selector_all(".foundations [data-fpile] [data-card]", "els => els.map(e => e.dataset.card)")


def no_horizontal_scroll(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def touch_drag(page: Page, source, target, steps: int = 8) -> None:
    """Drag with a finger: touch start on `source`, move in steps, lift over `target`."""
    a = source.bounding_box()
    b = target.bounding_box()
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 4
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, steps + 1):
        f = i / steps
        cdp.send(
            "Input.dispatchTouchEvent",
            {"type": "touchMove", "touchPoints": [{"x": x0 + (x1 - x0) * f, "y": y0 + (y1 - y0) * f}]},
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


# Records every message the page shows for a moment (a toast, a note over the layout)
# as it is added, so a test can tell what was said even after it faded.
WATCH_NOTES = """() => {
    window.__notes = [];
    const seen = new WeakSet();
    new MutationObserver((records) => {
        for (const r of records) for (const node of r.addedNodes) {
            if (!(node instanceof HTMLElement)) continue;
            for (const el of [node, ...node.querySelectorAll('.toast, .race-note')]) {
                if (!el.matches('.toast, .race-note') || seen.has(el)) continue;
                seen.add(el);
                window.__notes.push([el.className, el.textContent]);
            }
        }
    }).observe(document.body, {childList: true, subtree: true});
}"""


def watch_notes(page: Page) -> None:
    page.evaluate(WATCH_NOTES)


def notes_seen(page: Page) -> list:
    return page.evaluate("window.__notes")


class Gate:
    """Holds the messages the server sends one page, to make a race deterministic."""

    def __init__(self) -> None:
        self.closed = False
        self.held: list[str] = []
        self.page_side: WebSocketRoute | None = None

    def route(self, ws) -> None:
        server = ws.connect_to_server()
        self.page_side = ws

        def from_server(message):
            if self.closed:
                self.held.append(message)
            else:
                ws.send(message)

        server.on_message(from_server)
        ws.on_message(lambda message: server.send(message))

    def release(self) -> None:
        self.closed = False
        for message in self.held:
            assert self.page_side is not None  # held only once route() has run
            self.page_side.send(message)
        self.held = []


def server_game(page: Page) -> dict:
    """The Devil's Grip game as the server describes it, fetched with the page's own token."""
    return page.evaluate("""async () => {
        const g = JSON.parse(localStorage.getItem('dg.grip.current'));
        const r = await fetch(`/api/grip/${g.id}`, {headers: {Authorization: `Bearer ${g.token}`}});
        return r.json();
    }""")


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


# The layout and the card animations, still: the same boxes for `frames` frames in a row
# and no finite animation running. A promise run by page.evaluate, not wait_for_function,
# whose predicate the pages' CSP (script-src 'self') refuses to eval.
SETTLED = """([frames, timeoutMs]) => new Promise((resolve, reject) => {
    const started = performance.now();
    let last = null;
    let same = 0;
    const boxes = () => {
        const root = document.documentElement;
        let sig = `${innerWidth}x${innerHeight} ${root.scrollWidth}x${root.scrollHeight}`;
        for (const el of document.querySelectorAll('[data-card], .pile, .cell, .opp, .mine, .foundations, .guide-bubble')) {
            const r = el.getBoundingClientRect();
            sig += `|${r.x},${r.y},${r.width},${r.height}`;
        }
        return sig;
    };
    const moving = () => document.getAnimations().some(
        (a) => a.playState === 'running' && a.effect && a.effect.getComputedTiming().iterations !== Infinity);
    const step = () => {
        const sig = boxes();
        if (!moving() && sig === last) same += 1;
        else { same = 0; last = sig; }
        if (same >= frames) return resolve(true);
        if (performance.now() - started > timeoutMs) return reject(new Error('the layout is still moving'));
        requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
})"""


def settled(page: Page, frames: int = 3, timeout_ms: int = 10_000) -> None:
    """Returns once the page's layout has settled after a change (a new window size, a
    drawing, cards flying): instead of a fixed pause long enough for the slowest machine."""
    page.evaluate(SETTLED, [frames, timeout_ms])
