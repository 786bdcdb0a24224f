"""The settings dialog in real Chromium: reached with the keyboard, every setting takes
effect where it should (card letters, left hand, table colour, animations, sound) and is
still there after a reload."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import settled, wait_for_table
from tests.browser.test_accessibility import axe_violations
from tests.browser.test_fit import SIZES

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# A face's picture is an SVG in a data: URL; its letters are <text> elements.
FACE_LETTERS = """(el) => [...decodeURIComponent(el.style.backgroundImage)
    .matchAll(/<text[^>]*>([^<]*)<\\/text>/g)].map((m) => m[1])"""


def open_settings(page):
    page.click("#settings-btn")
    dialog = page.get_by_role("dialog", name=re.compile("Settings|Einstellungen|Настройки"))
    expect(dialog).to_be_visible()
    return dialog


def close_settings(page):
    page.keyboard.press("Escape")
    expect(page.locator(".settings-panel")).to_have_count(0)


def practice(page, name="Ann"):
    """A practice table with one bot; with the test seed, Ann's first draw shows 2♦ J♠ Q♦."""
    page.fill("#practice-name", name)
    page.select_option("#practice-bots", "1")
    page.click("#practice-start")
    wait_for_table(page)


def centre_x(page, selector: str) -> float:
    """Where the element's middle is, read in one step (the bot's plays redraw the table)."""
    page.wait_for_selector(selector)
    return page.evaluate(
        """(sel) => {
        const r = document.querySelector(sel).getBoundingClientRect();
        return r.left + r.width / 2;
    }""",
        selector,
    )


def test_the_dialog_is_reached_and_used_with_the_keyboard_and_kept_after_a_reload(open_page):
    page = open_page("keys")
    expect(page.locator("#create-name")).to_be_visible()
    page.locator("body").focus()
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "settings-btn":
            break
    expect(page.locator("#settings-btn")).to_be_focused()
    expect(page.locator("#settings-btn")).to_have_accessible_name("Settings")
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog", name="Settings")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading", name="Settings", level=2)).to_be_visible()
    # every control is labelled
    for name in ("Four-colour deck", "Left-handed layout", "Animations", "Sound effects", "Read out only my own plays"):
        expect(dialog.get_by_role("checkbox", name=name)).to_have_count(1)
    expect(dialog.get_by_role("combobox", name="Card letters")).to_have_count(1)
    for name in ("Green felt", "Dark", "Light"):
        expect(dialog.get_by_role("radio", name=name)).to_have_count(1)
    axe_violations(page, "settings dialog")

    # Tab to the left-hand choice, Space ticks it; Escape goes back to the button
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "set-hand":
            break
    expect(dialog.get_by_role("checkbox", name="Left-handed layout")).to_be_focused()
    page.keyboard.press("Space")
    expect(page.locator("html")).to_have_class(re.compile(r"\bleft-handed\b"))
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(page.locator("#settings-btn")).to_be_focused()

    page.reload()
    expect(page.locator("#create-name")).to_be_visible()
    expect(page.locator("html")).to_have_class(re.compile(r"\bleft-handed\b"))
    dialog = open_settings(page)
    expect(dialog.get_by_role("checkbox", name="Left-handed layout")).to_be_checked()
    expect(dialog.get_by_role("checkbox", name="Sound effects")).not_to_be_checked()
    # the screen-reader choice is the same one the keyboard help shows at a table
    dialog.get_by_role("checkbox", name="Read out only my own plays").check()
    page.reload()
    dialog = open_settings(page)
    expect(dialog.get_by_role("checkbox", name="Read out only my own plays")).to_be_checked()
    assert page.evaluate("JSON.parse(localStorage.getItem('dg.prefs')).announce") == "mine"


def test_card_letters_follow_the_language_and_the_choice(open_page):
    page = open_page("de", locale="de-DE")
    # German players expect B D K: the home page's chains say so
    expect(page.get_by_text("2-5-8-B, 3-6-9-D und 4-7-10-K")).to_be_visible()
    # and the How to play pictures: the jack of spades of the grip's chains is a B
    page.click("header .rules-btn")
    page.locator(".rules-tab[data-game='devils-grip']").click()
    jack = page.locator(".rules-howto .rules-cards .card.face[data-card='JS']")
    expect(jack).to_be_visible()
    assert jack.evaluate(FACE_LETTERS)[0] == "B"
    page.keyboard.press("Escape")
    practice(page)
    page.keyboard.press("d")
    queen = page.locator('.mine .waste [data-card="QD"]')
    expect(queen).to_have_count(1)
    # the index, the letter in the middle, the suit's letter, the index upside down
    assert queen.evaluate(FACE_LETTERS) == ["D", "D", "Ka", "D"]
    jack = page.locator('.mine .waste [data-card="JS"]')
    assert jack.evaluate(FACE_LETTERS)[0] == "B"
    # the accessible name stays the language's words
    expect(queen).to_have_accessible_name("Karo Dame")

    # the international letters, chosen in the settings, everywhere at once, and kept
    dialog = open_settings(page)
    dialog.get_by_role("combobox", name="Buchstaben auf den Karten").select_option("intl")
    close_settings(page)
    queen = page.locator('.mine .waste [data-card="QD"]')
    assert queen.evaluate(FACE_LETTERS) == ["Q", "Q", "D", "Q"]
    page.goto("/grip")
    expect(page.locator(".row-goal").first).to_have_text("2 → J")
    page.reload()
    expect(page.locator(".row-goal").nth(2)).to_have_text("4 → K")
    expect(page.locator(".row-goal").first).to_have_text("2 → J")

    # back to the usual ones: B D K on the Devil's Grip rows
    dialog = open_settings(page)
    dialog.get_by_role("combobox", name="Buchstaben auf den Karten").select_option("usual")
    close_settings(page)
    expect(page.locator(".row-goal").first).to_have_text("2 → B")
    expect(page.locator(".row-goal").nth(1)).to_have_text("3 → D")
    # a change of language brings that language's usual letters
    page.select_option("select.lang", "ru")
    expect(page.locator(".row-goal").first).to_have_text("2 → В")
    page.select_option("select.lang", "en")
    expect(page.locator(".row-goal").first).to_have_text("2 → J")


def test_russian_letters_by_default_and_english_ones_for_english(open_page):
    ru = open_page("ru", locale="ru-RU", path="/grip")
    expect(ru.locator(".row-goal").first).to_have_text("2 → В")
    expect(ru.locator(".row-goal").nth(1)).to_have_text("3 → Д")
    court = ru.locator(".grip-grid [data-card^='K']").first
    if court.count():
        assert court.evaluate(FACE_LETTERS)[0] == "К"  # Cyrillic Ka
    en = open_page("en", path="/grip")
    expect(en.locator(".row-goal").first).to_have_text("2 → J")
    # English has no letters of its own to offer: usual and international only
    dialog = open_settings(en)
    options = dialog.get_by_role("combobox", name="Card letters").locator("option")
    expect(options).to_have_count(2)


def test_left_handed_puts_the_stock_on_the_other_side_on_a_laptop_and_a_phone(open_page):
    page = open_page("left", viewport=LAPTOP)
    practice(page)
    assert centre_x(page, "#stock") < centre_x(page, ".mine .tableau")
    open_settings(page).get_by_role("checkbox", name="Left-handed layout").check()
    close_settings(page)
    wait_for_table(page)
    assert centre_x(page, "#stock") > centre_x(page, ".mine .tableau")
    page.keyboard.press("d")
    expect(page.locator(".mine .waste [data-card]").first).to_be_visible()
    assert centre_x(page, ".mine .waste") > centre_x(page, ".mine .tableau")
    page.set_viewport_size(PHONE)
    settled(page)
    assert centre_x(page, "#stock") > centre_x(page, ".mine .tableau")
    assert centre_x(page, "#stock") > centre_x(page, ".mine .waste")
    page.reload()
    wait_for_table(page)
    assert centre_x(page, "#stock") > centre_x(page, ".mine .tableau")

    # Devil's Grip: the stock and talon too, beside the grid on a laptop, above it on a phone
    page.goto("/grip")
    expect(page.locator("#grip-stock")).to_be_visible()
    assert centre_x(page, "#grip-stock") > centre_x(page, ".grip-grid")
    page.set_viewport_size(LAPTOP)
    settled(page)
    assert centre_x(page, "#grip-stock") < centre_x(page, ".grip-grid")
    open_settings(page).get_by_role("checkbox", name="Left-handed layout").uncheck()
    close_settings(page)
    expect(page.locator("html")).not_to_have_class(re.compile(r"\bleft-handed\b"))
    assert centre_x(page, "#grip-stock") > centre_x(page, ".grip-grid")
    page.set_viewport_size(PHONE)
    settled(page)
    assert centre_x(page, "#grip-stock") < centre_x(page, ".grip-grid")


def test_dark_and_light_tables_change_the_colours_and_pass_axe(open_page):
    page = open_page("theme", viewport=LAPTOP)
    expect(page.locator("#create-name")).to_be_visible()
    background = "getComputedStyle(document.documentElement).backgroundColor"
    felt = page.evaluate(background)
    seen = {felt}
    for theme, label in (("dark", "Dark"), ("light", "Light")):
        open_settings(page).get_by_role("radio", name=label).check()
        close_settings(page)
        expect(page.locator("html")).to_have_attribute("data-theme", theme)
        colour = page.evaluate(background)
        assert colour not in seen, (theme, colour, seen)
        seen.add(colour)
        axe_violations(page, f"home, {theme} table")
        page.goto("/grip")
        expect(page.locator(".grip-grid [data-card]").first).to_be_visible()
        axe_violations(page, f"Devil's Grip, {theme} table")
        page.goto("/")
        expect(page.locator("#create-name")).to_be_visible()
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    # the page for a wrong address is on the same table
    assert page.goto("/nothing").status == 404
    expect(page.locator("h1#notice-title")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    assert page.evaluate(background) == colour
    open_page.problems.items[:] = [item for item in open_page.problems.items if "404" not in item]
    page.goto("/")
    practice(page)
    page.keyboard.press("d")
    expect(page.locator(".mine .waste [data-card]").first).to_be_visible()
    settled(page)  # the drawn cards finish fanning in
    axe_violations(page, "Demon table, light")
    page.set_viewport_size(PHONE)
    axe_violations(page, "Demon table on a phone, light")
    open_settings(page).get_by_role("radio", name="Dark").check()
    close_settings(page)
    wait_for_table(page)
    axe_violations(page, "Demon table on a phone, dark")


FLIGHT = """async () => {
    const app = document.querySelector('script[src$="/app.js"]').src;
    const { flyFrom } = await import(app.replace(/app\\.js$/, 'cards/input.js'));
    const el = document.querySelector('.grip-grid [data-card]');
    flyFrom(el, { left: 0, top: 0, width: el.getBoundingClientRect().width });
    return el.classList.contains('flying');
}"""


# Watches the talon for the first newly dealt card and notes its animation's length at
# once: the page may redraw the talon a moment later (a statistics or hint answer), and
# the redrawn cards no longer carry the "dealt" class.
WATCH_DEAL = """() => {
    window.__dealSeconds = null;
    const seen = new MutationObserver(() => {
        const el = document.querySelector('#grip-talon .card.dealt');
        if (el && window.__dealSeconds === null) {
            window.__dealSeconds = parseFloat(getComputedStyle(el).animationDuration);
            seen.disconnect();
        }
    });
    seen.observe(document.body, { childList: true, subtree: true });
}"""


def _deal_animation_seconds(page) -> float:
    """Deals from the stock and returns the length of the dealt card's animation."""
    page.evaluate(WATCH_DEAL)
    page.click("#grip-stock")
    deadline = time.monotonic() + 8  # polled here: the page's CSP forbids wait_for_function's eval
    while (seconds := page.evaluate("() => window.__dealSeconds")) is None:
        assert time.monotonic() < deadline, "no card was dealt"
        time.sleep(0.05)
    return seconds


def test_animations_start_off_under_reduced_motion_and_the_setting_is_obeyed(open_page):
    page = open_page("motion", path=None)
    page.emulate_media(reduced_motion="reduce")
    page.goto("/grip")
    expect(page.locator(".grip-grid [data-card]").first).to_be_visible()
    expect(page.locator("html")).to_have_class(re.compile(r"\bno-motion\b"))
    assert page.evaluate(FLIGHT) is False  # no card flies
    assert _deal_animation_seconds(page) < 0.01

    # the player turns them on: that choice wins over the system's, after a reload too
    open_settings(page).get_by_role("checkbox", name="Animations").check()
    close_settings(page)
    expect(page.locator("html")).not_to_have_class(re.compile(r"\bno-motion\b"))
    page.reload()
    expect(page.locator(".grip-grid [data-card]").first).to_be_visible()
    expect(page.locator("html")).not_to_have_class(re.compile(r"\bno-motion\b"))
    assert page.evaluate(FLIGHT) is True
    assert _deal_animation_seconds(page) > 0.1

    # and off again, without the system asking
    page.emulate_media(reduced_motion="no-preference")
    open_settings(page).get_by_role("checkbox", name="Animations").uncheck()
    close_settings(page)
    page.reload()
    expect(page.locator(".grip-grid [data-card]").first).to_be_visible()
    expect(page.locator("html")).to_have_class(re.compile(r"\bno-motion\b"))
    assert page.evaluate(FLIGHT) is False


# Counts the sounds the page makes: every one starts with an oscillator or a buffer source.
COUNT_SOUNDS = """
window.__sounds = 0;
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  createOscillator() { window.__sounds += 1; return super.createOscillator(); }
  createBufferSource() { window.__sounds += 1; return super.createBufferSource(); }
};
"""


def pick_a_grip_card(page):
    """Click a grid card until it is held (a page busy asking the server, for the deal's
    par say, does not let a card be picked up), then put it down."""
    for _ in range(20):
        page.locator(".grip-grid [data-pick]").first.click()
        if page.locator(".grip-grid .selected").count():
            break
        page.wait_for_timeout(250)
    expect(page.locator(".grip-grid .selected").first).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator(".grip-grid .selected")).to_have_count(0)


def test_sound_is_off_until_chosen_and_stays_as_chosen(open_page):
    page = open_page("sound", path=None)
    page.add_init_script(COUNT_SOUNDS)
    page.goto("/grip")
    expect(page.locator(".grip-grid [data-card]").first).to_be_visible()
    pick_a_grip_card(page)
    assert page.evaluate("window.__sounds") == 0
    open_settings(page).get_by_role("checkbox", name="Sound effects").check()
    close_settings(page)
    assert page.evaluate("window.__sounds") > 0  # turning it on says so
    page.reload()
    expect(page.locator(".grip-grid [data-card]").first).to_be_visible()
    assert page.evaluate("window.__sounds") == 0
    pick_a_grip_card(page)
    assert page.evaluate("window.__sounds") > 0
    open_settings(page).get_by_role("checkbox", name="Sound effects").uncheck()
    close_settings(page)
    before = page.evaluate("window.__sounds")
    pick_a_grip_card(page)
    assert page.evaluate("window.__sounds") == before


def test_four_colours_are_drawn_and_kept(open_page):
    page = open_page("four", path="/grip")
    diamond = page.locator(".grip-grid [data-card$='D']").first
    expect(diamond).to_be_visible()
    assert "#c0152f" in diamond.evaluate("(el) => decodeURIComponent(el.style.backgroundImage)")
    open_settings(page).get_by_role("checkbox", name="Four-colour deck").check()
    close_settings(page)
    page.reload()
    diamond = page.locator(".grip-grid [data-card$='D']").first
    expect(diamond).to_be_visible()
    assert "#0b55c4" in diamond.evaluate("(el) => decodeURIComponent(el.style.backgroundImage)")
    expect(page.locator("html")).to_have_class(re.compile(r"\bfour-colour\b"))


def test_a_dark_tab_is_dark_before_any_module_runs(browser, server):
    """A fresh dark- or light-themed tab once flashed the green felt first. With every
    module of the page held back, <html> already carries the stored theme: the inline
    boot script set it before the first paint (and the policy let it run)."""
    context = browser.new_context(base_url=server.base)
    try:
        context.add_init_script("localStorage.setItem('dg.prefs', JSON.stringify({theme: 'dark'}))")
        page = context.new_page()
        blocked = []
        violations = []
        page.on("console", lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None)
        page.route("**/*.js", lambda route: (blocked.append(route.request.url), route.abort()))
        page.goto("/", wait_until="domcontentloaded")
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        assert blocked and not violations, (blocked, violations)
    finally:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_whole_dialog_is_in_view_in_every_language(open_page, size):
    """The German dialog's last line was below a 768 px laptop's fold (one column of
    settings is 770-800 px tall): now every language's dialog is whole, unscrolled."""
    viewport, touch = SIZES[size]
    page = open_page("whole", viewport=viewport, touch=touch)
    cut = []
    for code in ("en", "de", "fi", "ro", "ru"):
        page.select_option("select.lang", code)
        expect(page.locator("html")).to_have_attribute("lang", code)
        page.click("#settings-btn")
        box = page.locator(".modal-box")
        expect(box.locator(".settings-panel")).to_be_visible()
        where = box.evaluate(
            """(b) => {
                const last = b.querySelector('.settings-panel > :last-child').getBoundingClientRect();
                return {scrolls: b.scrollHeight > b.clientHeight + 1, bottom: last.bottom, vh: innerHeight};
            }"""
        )
        if where["scrolls"] or where["bottom"] > where["vh"]:
            cut.append((code, where))
        close_settings(page)
    assert cut == [], cut
