"""Emotes in real browsers ("Say hello"): one player taps an emote and it floats
over their seat on everyone's screen, is read out politely, and can be hidden per player.

Two people in their own browser contexts (own storage), a third who joins mid-round and
only watches. The server is the real one (conftest.py); whether an emote reached a page
is read from the page's own WebSocket frames, so "not shown" is checked against an emote
that did arrive.
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.helpers import create_room, join_by_link, wait_for_table


def record_emotes(page) -> list[str]:
    """The `emote` messages this page's room socket receives, as raw lines."""
    seen: list[str] = []

    def on_socket(ws) -> None:
        ws.on(
            "framereceived",
            lambda payload: seen.extend(
                line for line in (payload if isinstance(payload, str) else "").split("\n") if '"type":"emote"' in line
            ),
        )

    page.on("websocket", on_socket)
    return seen


def float_centre_inside(page, float_sel: str, box_sel: str) -> bool:
    """Whether the emote's anchor point (its centre before it rises) lies inside the box."""
    return page.evaluate(
        """([f, b]) => {
        const node = document.querySelector(f), box = document.querySelector(b);
        if (!node || !box) return false;
        const x = parseFloat(node.style.left), y = parseFloat(node.style.top);
        const r = box.getBoundingClientRect();
        return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
    }""",
        [float_sel, box_sel],
    )


def test_an_emote_floats_over_its_seat_is_read_out_and_can_be_hidden(open_page):
    ann = open_page("ann")
    code = create_room(ann, "Ann")
    bob = open_page("bob", viewport=PHONE, path=None, touch=True)
    bob_heard = record_emotes(bob)
    join_by_link(bob, f"/r/{code}", "Bob")
    expect(ann.locator(".seat", has_text="Bob")).to_contain_text("online")
    ann_id, bob_id = (page.evaluate(f"JSON.parse(localStorage.getItem('dg.room.{code}')).you") for page in (ann, bob))

    # The lobby: Bob says hello from the bar under the seats; on Ann's screen it floats
    # beside Bob's name, and her screen reader hears it.
    bob.tap('.emote-bar [data-emote="wave"]')
    bob_float = f'.emote-float[data-player="{bob_id}"][data-emote="wave"]'
    expect(ann.locator(bob_float)).to_have_count(1)
    assert float_centre_inside(ann, bob_float, '.lobby li.seat[data-seat="1"]')
    said = ann.locator("#emotes-said")
    expect(said).to_have_attribute("aria-live", "polite")
    expect(said).to_contain_text("Bob: Wave")
    expect(ann.locator(bob_float)).to_have_count(0, timeout=5000)  # it goes by itself

    ann.click("#start-game")
    wait_for_table(ann)
    wait_for_table(bob)

    # The table, by keyboard: Tab reaches the "Say hello" button, Enter opens the six,
    # an arrow goes to the next, Enter sends it.
    toggle = ann.locator("#emote-toggle")
    expect(toggle).to_have_accessible_name("Say hello")
    toggle.focus()
    ann.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(ann.locator('.emote-pop [data-emote="wave"]')).to_be_focused()
    for name in ("Wave", "Thumbs up", "Laugh", "Wow", "Sad", "Good game"):
        expect(ann.get_by_role("button", name=name, exact=True)).to_be_visible()
    ann.keyboard.press("ArrowRight")
    expect(ann.locator('.emote-pop [data-emote="thumbs_up"]')).to_be_focused()
    ann.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(toggle).to_be_focused()

    # Bob's phone: over Ann's panel, and read out; Ann's own: beside her name.
    ann_float = f'.emote-float[data-player="{ann_id}"][data-emote="thumbs_up"]'
    expect(bob.locator(ann_float)).to_have_count(1)
    assert float_centre_inside(bob, ann_float, '.opponents .opp[data-seat="0"]')
    expect(bob.locator("#emotes-said")).to_contain_text("Ann: Thumbs up")
    expect(ann.locator(ann_float)).to_have_count(1)
    assert float_centre_inside(ann, ann_float, ".table .mine")
    expect(ann.locator("#emotes-said")).to_contain_text("You: Thumbs up")
    # the buttons rest a moment (the server allows one emote every 1.5 s)
    expect(ann.locator('.emote-pop [data-emote="gg"]')).to_have_attribute("aria-disabled", "true")

    # A spectator sees the emotes but has nothing to send them with.
    eve = open_page("eve", path=None)
    eve.goto(f"/r/{code}")
    eve.fill("#link-name", "Eve")
    eve.click("#join-by-link")
    expect(eve.locator(".opp")).to_have_count(2)
    expect(eve.locator("#emote-toggle")).to_be_hidden()

    # Bob hides Ann's emotes: the next one arrives on his socket but is neither shown
    # nor read out; Eve still sees it; Bob's choice survives a reload.
    mute = bob.locator(f'.opp[data-seat="0"] .emote-mute[data-player="{ann_id}"]')
    expect(mute).to_have_accessible_name("Hide Ann's emotes")
    expect(mute).to_have_attribute("aria-pressed", "false")
    mute.tap()
    expect(mute).to_have_attribute("aria-pressed", "true")
    heard_before = len(bob_heard)
    said_before = bob.locator("#emotes-said p").count()
    expect(ann.locator('.emote-pop [data-emote="gg"]')).not_to_have_attribute("aria-disabled", "true", timeout=5000)
    ann.click("#emote-toggle")
    ann.click('.emote-pop [data-emote="gg"]')
    gg = f'.emote-float[data-player="{ann_id}"][data-emote="gg"]'
    expect(eve.locator(gg)).to_have_count(1)
    assert float_centre_inside(eve, gg, '.opponents .opp[data-seat="0"]')
    assert _eventually(bob, lambda: len(bob_heard) > heard_before), bob_heard
    assert '"emote":"gg"' in bob_heard[-1]
    bob.wait_for_timeout(200)  # a fixed wait: the muted emote must *not* float meanwhile
    expect(bob.locator(gg)).to_have_count(0)
    assert bob.locator("#emotes-said p").count() == said_before
    bob.reload()
    wait_for_table(bob)
    expect(bob.locator(f'.opp[data-seat="0"] .emote-mute[data-player="{ann_id}"]')).to_have_attribute(
        "aria-pressed", "true"
    )


def test_with_reduced_motion_the_emote_does_not_rise(open_page):
    ann = open_page("ann")
    code = create_room(ann, "Ann")
    bob = open_page("bob", path=None)
    bob.emulate_media(reduced_motion="reduce")
    join_by_link(bob, f"/r/{code}", "Bob")
    ann.click('.emote-bar [data-emote="laugh"]')
    node = bob.locator('.emote-float[data-emote="laugh"]')
    expect(node).to_have_count(1)
    assert node.evaluate("(el) => getComputedStyle(el).animationName") == "none"
    assert (
        ann.locator('.emote-float[data-emote="laugh"]').evaluate("(el) => getComputedStyle(el).animationName")
        == "emote-rise"
    )
    expect(node).to_have_count(0, timeout=5000)


def _eventually(page, check, seconds: float = 5.0) -> bool:
    """Playwright delivers a page's events only while it is called: wait on the page."""
    for _ in range(int(seconds / 0.05)):
        if check():
            return True
        page.wait_for_timeout(50)
    return check()
