"""The home page: languages (from the browser, switchable, remembered), the rules dialog,
the key list, the settings button, and player names shown as text, never as markup."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import join_by_link, wait_for_table
from tests.browser.test_fit import SIZES


def test_language_follows_browser_and_can_be_switched(open_page):
    page = open_page("ru", locale="ru-RU")
    expect(page.locator("#create-title")).to_have_text("Создать комнату «Демон»")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    page.select_option("select.lang", "fi")
    expect(page.locator("#create-title")).to_have_text("Perusta Demon-huone")
    page.reload()
    expect(page.locator("#create-title")).to_have_text("Perusta Demon-huone")
    for code, title in (("ro", "Creează o cameră Demon"), ("de", "Demon-Raum eröffnen"), ("en", "Start a Demon room")):
        page.select_option("select.lang", code)
        expect(page.locator("#create-title")).to_have_text(title)
    # key names are translated too
    page.select_option("select.lang", "ru")
    page.goto("/grip")
    expect(page.locator(".grip-grid [data-card]").first).to_be_visible()
    page.keyboard.press("?")
    expect(page.locator(".keys-help")).to_contain_text("D / Пробел")


def test_a_language_chosen_is_kept_even_when_the_next_page_opens_before_its_strings_arrive(open_page):
    """The choice is saved at once: a player who picks Russian and follows a link before
    the Russian strings have arrived (held back here) gets the next page in Russian."""
    page = open_page("quick")
    expect(page.locator("#create-title")).to_have_text("Start a Demon room")

    def slow(route):
        time.sleep(0.8)  # a fixed wait: the strings arrive late, which is what is tested
        route.continue_()

    page.route(re.compile(r"/i18n/ru\.js$"), slow)
    page.select_option("select.lang", "ru")
    page.goto("/grip")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator(".grip-grid [data-card]").first).to_be_visible()
    page.keyboard.press("?")
    expect(page.locator(".keys-help")).to_contain_text("D / Пробел")


TEXT_WIDTH = """(el) => {
    const ctx = document.createElement('canvas').getContext('2d');
    const st = getComputedStyle(el);
    ctx.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
    return Math.max(...[...el.options].map((o) => ctx.measureText(o.text).width));
}"""


def test_header_and_options_fit_a_narrow_phone_in_every_language(open_page):
    """At 360 px (a small Android phone) every header control is on the screen and big
    enough to tap, and no option's text is cut off in the create-room form."""
    page = open_page("narrow", viewport={"width": 360, "height": 740}, touch=True)
    for code in ("en", "ro", "de", "fi", "ru"):
        page.select_option("select.lang", code)
        expect(page.locator("html")).to_have_attribute("lang", code)
        boxes = page.eval_on_selector_all(
            ".top .brand, .top-tools > *",
            """els => els
            .filter((e) => e.getClientRects().length)
            .map((e) => { const r = e.getBoundingClientRect(); return [e.className, r.left, r.right, r.width, r.height]; })""",
        )
        assert len(boxes) == 5, boxes  # the logo, rules, settings, keys, language
        for name, left, right, width, height in boxes:
            assert left >= 0 and right <= 360, (code, name, left, right)
            assert width >= 40 and height >= 40, (code, name, width, height)
        for select in page.locator("#create-rounds, #create-limit, #create-max").all():
            room = select.evaluate("(el) => el.clientWidth") - 44  # padding, border, arrow
            assert select.evaluate(TEXT_WIDTH) <= room, (code, select.get_attribute("id"))


def test_rules_and_keys_dialogs(open_page):
    page = open_page("rules")
    page.click("header >> text=Rules")
    dialog = page.locator(".modal-box")
    expect(dialog.locator(".rules-text h3").first).to_be_visible()
    expect(dialog).to_contain_text("Demon")
    expect(dialog).to_contain_text("Devil's Grip")
    assert dialog.locator(".rules-text script, .rules-text img").count() == 0
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    page.keyboard.press("?")
    expect(page.locator(".keys-help")).to_be_visible()
    # Tab goes round the dialog's own buttons, never to the page behind it
    for _ in range(3):
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.closest('.modal-box') !== null")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.closest('.modal-box') !== null")
    page.keyboard.press("Escape")
    # sound and the four-colour deck are in the settings (tests/browser/test_settings.py)
    page.click('button[aria-label="Settings"]')
    page.get_by_role("checkbox", name="Sound effects").check()
    page.get_by_role("checkbox", name="Four-colour deck").check()
    expect(page.get_by_role("checkbox", name="Four-colour deck")).to_be_checked()


def test_names_are_text_not_markup(open_page):
    host = open_page("host")
    host.fill("#create-name", "<b>Ann</b><i>")
    host.click("#create-room")
    expect(host.locator("#room-code")).to_be_visible()
    code = host.inner_text("#room-code")
    guest = open_page("guest", path=None)
    join_by_link(guest, f"/r/{code}", "<img src=x onerror=>")
    expect(host.locator(".seat-name").nth(1)).to_have_text("<img src=x onerror=>")
    expect(guest.locator(".seat-name").first).to_have_text("<b>Ann</b><i>")
    assert host.locator(".seats img, .seats b, .seats i").count() == 0
    assert guest.locator(".seats img, .seats b, .seats i").count() == 0


def _play_one_round_match(host, guest, *, listed: bool) -> str:
    """`host` creates a one-round room (listed on the home page or not), `guest` joins by
    its link, both vote the round to its end: the match is over. Returns the room code."""
    host.fill("#create-name", host.player_name)
    host.select_option("#create-rounds", "1")
    if listed:
        host.check("#create-listed")
    host.click("#create-room")
    expect(host.locator("#room-code")).to_be_visible()
    code = host.inner_text("#room-code")
    join_by_link(guest, f"/r/{code}", guest.player_name)
    host.click("#start-game")
    wait_for_table(host)
    wait_for_table(guest)
    host.click("#vote-end")
    guest.click("#vote-end")
    for page in (host, guest):
        expect(page.locator("#results")).to_contain_text("The match is over")
    return code


def test_recent_games_show_a_visitor_their_own_games_and_listed_rooms_only(open_page):
    """A visitor's home page lists the matches this browser played in (its kept
    seats) and those of rooms whose host chose to list them; nobody else's."""
    pages = {}
    for name in ("Ann", "Bob", "Cy", "Dee"):
        pages[name] = open_page(name.lower(), path="/" if name in ("Ann", "Cy") else None)
        pages[name].player_name = name
    _play_one_round_match(pages["Ann"], pages["Bob"], listed=False)
    _play_one_round_match(pages["Cy"], pages["Dee"], listed=True)

    # a stranger: only the listed room's match
    stranger = open_page("stranger")
    expect(stranger.locator(".recent-list li")).to_have_count(1)
    expect(stranger.locator(".recent-list li")).to_contain_text("Cy")
    expect(stranger.locator(".recent-list")).not_to_contain_text("Ann")
    # Ann and Bob: their own match (from their kept seats) and the listed one
    for name in ("Ann", "Bob"):
        page = pages[name]
        page.goto("/")
        expect(page.locator(".recent-list li")).to_have_count(2)
        expect(page.locator(".recent-list li", has_text="Ann")).to_contain_text("Bob")
        expect(page.locator(".recent-list li", has_text="Cy")).to_contain_text("Dee")
    # the home page's form leaves a room unlisted unless the host ticks the box
    expect(stranger.locator("#create-listed")).not_to_be_checked()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_bot_level_picker_is_whole_in_every_language(open_page, size):
    """The practice form's level picker ("Medium — about a club player") was cut in
    Russian and German ("Mittel — etwa wie ein Vereinsspiele")."""
    viewport, touch = SIZES[size]
    page = open_page("levels", viewport=viewport, touch=touch)
    cut = []
    for code in ("en", "ro", "de", "fi", "ru"):
        page.select_option("select.lang", code)
        expect(page.locator("html")).to_have_attribute("lang", code)
        select = page.locator("#practice-level")
        room = select.evaluate("(el) => el.clientWidth") - 44  # padding, border, arrow
        if select.evaluate(TEXT_WIDTH) > room:
            cut.append((code, select.evaluate(TEXT_WIDTH), room))
    assert cut == [], cut


# Each piece of a recent game's row that must stay whole: a player (name, bot level,
# points, star), the date, the count of rounds. An inline box broken over two lines has
# two client rectangles; a block one is taller than a line.
ROW_PIECES = """(li) => [...li.querySelectorAll('.recent-player, .recent-rounds, time, .recent-kind')].map((el) => {
    const r = el.getBoundingClientRect();
    const font = parseFloat(getComputedStyle(el).fontSize);
    return {text: el.textContent, lines: el.getClientRects().length, tall: r.height > 2.2 * font,
            out: r.right > li.closest('.panel').getBoundingClientRect().right};
})"""


@pytest.mark.parametrize("size", list(SIZES))
def test_a_recent_games_row_keeps_each_piece_whole_in_every_language(open_page, size):
    """A match with seven bots once made a cramped row: "1 / round" over two lines, a
    name on one line and its bot badge on the next, the time to the second."""
    viewport, touch = SIZES[size]
    page = open_page("ann", viewport=viewport, touch=touch)
    page.fill("#practice-name", "Alexandra")
    page.select_option("#create-rounds", "1")
    page.select_option("#practice-bots", "7")
    page.click("#practice-start")
    wait_for_table(page)
    page.keyboard.press("v")  # alone with bots: her vote ends the round (and the match)
    expect(page.locator("#results")).to_be_visible(timeout=10000)
    page.goto("/")
    row = page.locator(".recent-list li").first
    expect(row.locator(".recent-player")).to_have_count(8)
    broken = []
    for code in ("en", "de", "fi", "ro", "ru"):
        page.select_option("select.lang", code)
        expect(page.locator("html")).to_have_attribute("lang", code)
        row = page.locator(".recent-list li").first
        pieces = row.evaluate(ROW_PIECES)
        broken += [(code, p) for p in pieces if p["lines"] != 1 or p["tall"] or p["out"]]
        when = row.locator("time").inner_text()
        if re.search(r"\d:\d\d:\d\d", when):
            broken.append((code, "seconds", when))
    assert broken == [], broken


@pytest.mark.parametrize("size", list(SIZES))
def test_the_practice_name_is_a_few_tabs_from_the_top(open_page, size):
    """It took sixteen Tabs to reach "Play against bots"'s name field; a skip link now
    takes the second Tab, and Enter puts the focus in the field."""
    viewport, touch = SIZES[size]
    page = open_page("keys", viewport=viewport, touch=touch)
    expect(page.locator("#practice-name")).to_be_visible()
    for code, words in (
        ("en", "Skip to playing against bots"),
        ("de", "Zum Spiel gegen Bots springen"),
        ("fi", "Siirry pelaamaan botteja vastaan"),
        ("ro", "Sari la jocul cu boții"),
        ("ru", "Перейти к игре с ботами"),
    ):
        page.select_option("select.lang", code)
        expect(page.locator("html")).to_have_attribute("lang", code)
        page.reload()  # nothing focused: the first Tab goes to the top of the page
        expect(page.locator("#practice-name")).to_be_visible()
        tabs = 0
        while tabs < 4 and page.evaluate("() => document.activeElement.id") != "practice-name":
            page.keyboard.press("Tab")
            tabs += 1
            if page.evaluate("() => document.activeElement.id") == "skip-practice":
                link = page.locator("#skip-practice")
                expect(link).to_have_text(words)
                box = link.bounding_box()
                assert box and box["y"] >= 0 and box["x"] + box["width"] <= viewport["width"], (code, box)
                page.keyboard.press("Enter")
        assert page.evaluate("() => document.activeElement.id") == "practice-name", (code, tabs)
        assert tabs <= 3, (code, tabs)


@pytest.mark.parametrize("field, button", [("create-name", "create-room"), ("play-now-name", "play-now")])
def test_typing_a_name_goes_on_when_the_recent_games_arrive(open_page, field, button):
    """The recent games come a moment after the page and redraw it: a person already
    typing their name kept typing into a field that was gone, or (Play now's, a section
    kept across redraws) moved and blurred: the focus fell to the page and the rest of
    the name was lost. CI lost whole names this way, in both forms."""
    page = open_page("typist", path=None)
    held = []
    page.route("**/api/history*", lambda route: held.append(route))
    page.goto("/")
    page.click(f"#{field}")
    page.keyboard.type("An")
    redrawn = "() => !document.querySelector('.home-grid').dataset.before"
    page.evaluate("() => { document.querySelector('.home-grid').dataset.before = 'yes'; }")
    assert held, "the home page asks for the recent games"
    for route in held:
        route.continue_()
    page.wait_for_function(redrawn)
    page.keyboard.type("n")
    expect(page.locator(f"#{field}")).to_have_value("Ann")
    expect(page.locator(f"#{field}")).to_be_focused()
    page.click(f"#{button}")
    expect(page.locator("#room-code")).to_be_visible()
