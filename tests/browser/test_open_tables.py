"""Open tables and "Play now" in real Chromium against a real server of their own (a
fresh one: no table of another test in its list).

Strangers sit together: the first "Play now" opens a table and counts down to its bots,
the second within the wait sits at the same table, a third visitor sees it in the home
page's list (updated without a reload) and watches it once it started; a lone "Play now"
starts against bots when the wait it announced is over (the real 20 s: the server has no
shorter setting; both waits run at once, so the test waits once). The host closes and
reopens a table and the list follows; the host removes a person, whose page says so and
does not reconnect. A server with open tables off shows none of it. The home page's band
and the lobby's additions fit the four sizes of tests/browser/test_fit*.py, and pass axe.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS, RACE_SEED, PageProblems
from tests.browser.helpers import create_room, join_by_link, no_horizontal_scroll, settled
from tests.browser.test_accessibility import axe_violations
from tests.browser.test_home_page import TEXT_WIDTH
from tests.support.live_server import LiveServer

# The server's PLAY_NOW_WAIT_S (app/demon/hub/open_tables.py): from a play-now table's
# creation to its bots.
PLAY_NOW_WAIT_S = 20
REFRESH_S = 5  # GET /api/tables' refresh_s: the list follows a change within one poll
SHOTS = ARTIFACTS / "open-tables"  # each size's home page and lobby, to look at

SIZES = {
    "1280x800": {"width": 1280, "height": 800},
    "1366x768": {"width": 1366, "height": 768},
    "1920x1080": {"width": 1920, "height": 1080},
    "phone": {"width": 390, "height": 844},
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A fresh server: its list holds only this module's tables. Bots think slowly (they
    fill seats here, and a round that ended would leave the list)."""
    srv = LiveServer(
        tmp_path_factory.mktemp("open-tables"),
        test_seed=RACE_SEED,
        countdown_s=0.6,
        reconnect_grace_s=60,
        bot_think_scale=10,
    )
    with srv:
        yield srv


def row(page: Page, code: str):
    return page.locator(f'#open-tables li[data-code="{code}"]')


def play_now(page: Page, name: str, *, game: str = "demon", level: str | None = None) -> str:
    """On the home page: "Play now" as `name`; returns the room's code once the lobby shows."""
    page.fill("#play-now-name", name)
    page.check(f"#play-now-game-{game}")
    if level:
        page.select_option("#play-now-level", level)
    page.click("#play-now")
    expect(page.locator("#room-code")).to_be_visible()
    return page.inner_text("#room-code").strip()


def fill_seconds(page: Page) -> int:
    """The seconds the lobby's countdown to its bots says."""
    text = page.inner_text("#fill-note")
    match = re.search(r"starts in (\d+) s", text)
    assert match, text
    return int(match.group(1))


def test_strangers_play_now_together_a_third_watches_and_a_lone_one_gets_bots(open_page):
    # a lone "Play now" (Nerts: a table of its own), whose wait runs alongside the others'
    dan = open_page("dan", viewport=SIZES["phone"], touch=True)
    expect(dan.locator("#open-tables-band")).to_be_visible()
    dan_code = play_now(dan, "Dan", game="nerts", level="easy")
    expect(dan.locator("#fill-note")).to_be_visible()
    fits(dan, "lobby", "phone")
    dan_said = fill_seconds(dan)
    dan_from = time.monotonic()
    assert PLAY_NOW_WAIT_S - 3 <= dan_said <= PLAY_NOW_WAIT_S, dan_said

    ann = open_page("ann")
    code = play_now(ann, "Ann")
    assert code != dan_code  # another game: another table
    expect(ann.locator("#fill-note")).to_contain_text("Bots fill the empty seats and the game starts in")
    first = fill_seconds(ann)
    time.sleep(1.2)  # the countdown counts (it is drawn each second, not once)
    assert fill_seconds(ann) < first
    expect(ann.locator("#open-notice")).to_be_hidden()  # the host has the switch instead
    expect(ann.locator("#lobby-open")).to_be_checked()

    # Bob, by keyboard only: the name, then Enter on "Play now"; he lands at Ann's table
    bob = open_page("bob")
    # the band shows once the list first answers; focus() would not wait for that, and a
    # hidden field takes no focus: the keys typed then went nowhere (a failure seen in CI)
    expect(bob.locator("#play-now-name")).to_be_visible()
    bob.focus("#play-now-name")
    bob.keyboard.type("Bob")
    bob.focus("#play-now")
    bob.keyboard.press("Enter")
    expect(bob.locator("#room-code")).to_have_text(code, timeout=10_000)
    expect(bob.locator("#open-notice")).to_have_text("Open table: anyone on this server may join.")
    expect(bob.locator("#fill-note")).to_be_visible()
    expect(ann.locator(".seats .seat:not(.free)")).to_have_count(2)
    expect(ann.locator("button.remove-player")).to_have_count(1)  # Bob's
    fits(ann, "lobby", "1280x900")

    # Cat opens the home page: the table is listed, a lobby with a free seat
    cat = open_page("cat")
    listed = row(cat, code)
    expect(listed).to_contain_text("Demon")
    # the snapshot may be up to a second older than Bob's seat, then the next poll comes
    expect(listed).to_contain_text("2 of 4 seats: 2 people", timeout=(REFRESH_S + 3) * 1000)
    expect(listed).to_contain_text("Host: Ann")
    expect(listed).to_contain_text("In the lobby")
    expect(listed.locator("button")).to_have_text("Join")
    expect(row(cat, dan_code)).to_contain_text("Nerts")

    # Dan's lone table starts against bots when the wait he was told of is over, not before
    time.sleep(max(0.0, dan_said - 3 - (time.monotonic() - dan_from)))
    expect(dan.locator("#room-code")).to_be_visible()  # still the lobby, 3 s before
    expect(dan.locator(".lobby")).to_have_count(0, timeout=12_000)
    started_after = time.monotonic() - dan_from
    assert dan_said - 2.5 <= started_after <= dan_said + 8, (dan_said, started_after)
    expect(dan.locator(".nerts-table, .table").first).to_be_visible()
    expect(dan.locator(".tag.bot").first).to_be_visible()

    # Ann's table filled with bots and started: Cat's list says so without a reload, and
    # she watches, reaching the button with the keyboard
    expect(ann.locator(".lobby")).to_have_count(0, timeout=12_000)
    expect(listed).to_contain_text("Playing", timeout=(REFRESH_S + 3) * 1000)
    expect(listed).to_contain_text("4 of 4 seats: 2 people, 2 bots")
    watch = listed.locator("button")
    expect(watch).to_have_text("Watch")
    watch.click()  # no name yet: the list says where to type it, and that field has the focus
    expect(cat.locator("section.tables-list p.error[role=alert]")).to_have_text(
        "To join or watch, first type your name under “Play now”: the others at the table see it."
    )
    expect(cat.locator("#play-now-name")).to_be_focused()
    cat.fill("#play-now-name", "Cat")
    cat.focus("#play-now")
    for _ in range(30):  # Tab on from "Play now" to the first table's button
        cat.keyboard.press("Tab")
        if cat.evaluate("document.activeElement && document.activeElement.dataset.focus === 'act'"):
            break
    focused = cat.evaluate("document.activeElement.closest('li') && document.activeElement.closest('li').dataset.code")
    if focused != code:  # Dan's table may come first (both are started): Tab to Ann's
        cat.keyboard.press("Tab")
        assert cat.evaluate("document.activeElement.closest('li').dataset.code") == code
    cat.keyboard.press("Enter")
    expect(cat.locator(".table.spectator")).to_be_visible()
    expect(cat).to_have_url(re.compile(f"/r/{code}$"))


def test_the_host_closes_and_reopens_an_open_table_and_the_list_follows_live(open_page):
    cat = open_page("cat")
    polls = []  # what each of Cat's polls of the list was answered
    cat.on("response", lambda r: polls.append(r.status) if r.url.endswith("/api/tables") else None)
    expect(cat.locator("#open-tables-band")).to_be_visible()
    axe_violations(cat, "home with the open tables")

    ann = open_page("ann")
    ann.check("#create-open")
    code = create_room(ann, "Ann", max_players=3)
    expect(ann.locator("#lobby-open")).to_be_checked()
    expect(ann.locator("#fill-note")).to_be_hidden()  # a table opened by hand: no bots coming

    listed = row(cat, code)
    expect(listed).to_contain_text("1 of 3 seats: 1 person", timeout=(REFRESH_S + 3) * 1000)
    # a screen reader is told of the new table, once
    expect(cat.locator("#tables-said")).to_contain_text("A new open table: Demon, hosted by Ann.")

    bob = open_page("bob")
    join_by_link(bob, f"/r/{code}", "Bob")
    expect(bob.locator("#open-notice")).to_be_visible()
    axe_violations(ann, "the host's lobby of an open table")

    ann.uncheck("#lobby-open")  # close it
    expect(bob.locator("#open-notice")).to_be_hidden()
    expect(listed).to_have_count(0, timeout=(REFRESH_S + 3) * 1000)
    ann.check("#lobby-open")  # and open it again
    expect(bob.locator("#open-notice")).to_be_visible()
    expect(listed).to_contain_text("2 of 3 seats: 2 people", timeout=(REFRESH_S + 3) * 1000)
    # nothing changes now: the next poll is asked with the ETag and answered 304
    deadline = time.monotonic() + 2 * REFRESH_S + 3
    while 304 not in polls and time.monotonic() < deadline:
        cat.wait_for_timeout(250)
    assert 304 in polls, polls
    assert cat.locator("#tables-said").inner_text() == "A new open table: Demon, hosted by Ann."  # its last news only


def test_the_host_closes_an_open_table_between_rounds_too(open_page):
    """ "The host may close it at any time": under the round's results too, where
    strangers would otherwise join at the next deal."""
    cat = open_page("cat")
    ann = open_page("ann")
    ann.check("#create-open")
    code = create_room(ann, "Ann", rounds=3, max_players=3)
    bob = open_page("bob")
    join_by_link(bob, f"/r/{code}", "Bob")
    ann.click("#start-game")
    for page in (ann, bob):  # both vote to end the round at once
        expect(page.locator("#vote-end")).to_be_visible(timeout=15_000)
        page.click("#vote-end")
    expect(ann.locator("#results")).to_be_visible(timeout=10_000)
    expect(bob.locator("#results-close-table")).to_have_count(0)  # the host's only
    listed = row(cat, code)
    expect(listed).to_contain_text("Playing", timeout=(REFRESH_S + 3) * 1000)
    ann.click("#results-close-table")
    expect(listed).to_have_count(0, timeout=(REFRESH_S + 3) * 1000)
    expect(ann.locator("#results-close-table")).to_have_count(0)  # closed: nothing left to close


# The round's bar on a phone: every piece on the first piece's line (a second line would
# take the cards' room), and inside the window.
ONE_LINE = """() => {
    const bar = document.querySelector('.table-status');
    const parts = [...bar.children].filter((el) => el.getClientRects().length && getComputedStyle(el).position !== 'absolute');
    const top = parts[0].getBoundingClientRect().top;
    return parts.filter((el) => el.getBoundingClientRect().top > top + 20 || el.getBoundingClientRect().right > innerWidth + 0.5)
        .map((el) => el.className || el.tagName);
}"""


def test_the_host_stops_listing_an_open_table_mid_round(open_page):
    """ "The host may close it at any time": mid-round too, from the round's bar (a quiet
    button, the host's only), which keeps to one line on a phone in every language and is
    read out by its words."""
    cat = open_page("cat")
    ann = open_page("ann", viewport=SIZES["phone"], touch=True)
    ann.check("#create-open")
    code = create_room(ann, "Ann", rounds=3, max_players=3)
    bob = open_page("bob")
    join_by_link(bob, f"/r/{code}", "Bob")
    ann.click("#start-game")
    close = ann.locator("#bar-close-table")
    expect(close).to_be_visible(timeout=15_000)
    # on a phone an eye struck through, named by the words a wider screen shows
    expect(close).to_have_attribute("aria-label", "Stop listing this table for strangers")
    assert close.inner_text().strip() == "" and close.locator("svg.icon").is_visible()
    expect(bob.locator(".table-status")).to_be_visible()
    expect(bob.locator("#bar-close-table")).to_have_count(0)  # the host's only
    listed = row(cat, code)
    expect(listed).to_contain_text("Playing", timeout=(REFRESH_S + 3) * 1000)
    for language in ("de", "fi", "ro", "ru", "en"):
        ann.select_option("select.lang", language)
        settled(ann)
        assert ann.evaluate(ONE_LINE) == [], language
        assert no_horizontal_scroll(ann), language
    close.click()
    expect(close).to_have_count(0)  # closed: nothing left to close
    expect(listed).to_have_count(0, timeout=(REFRESH_S + 3) * 1000)
    expect(bob.locator(".table-status")).to_be_visible()  # the round plays on


def test_the_host_removes_a_person_whose_page_says_so_and_does_not_reconnect(open_page):
    ann = open_page("ann")
    code = create_room(ann, "Ann")
    bob = open_page("bob")
    join_by_link(bob, f"/r/{code}", "Bob")
    bob_row = ann.locator(".seats .seat", has_text="Bob")
    remove = bob_row.locator("button.remove-player")
    expect(remove).to_have_attribute("aria-label", "Remove Bob from the table")
    expect(ann.locator(".seats .seat.me button.remove-player")).to_have_count(0)  # never the host's own
    ann.once("dialog", lambda dialog: dialog.accept())
    remove.click()

    expect(bob.locator("#removed-text")).to_have_text("The host removed you from this table.")
    expect(bob.locator("#removed-home")).to_be_focused()
    expect(ann.locator(".seats .seat", has_text="Bob")).to_have_count(0)
    sockets = []
    bob.on("websocket", lambda ws: sockets.append(ws.url))
    time.sleep(2.5)  # long enough for the first reconnection attempts (400 ms, doubling)
    assert sockets == []  # no reconnect loop
    expect(bob.locator("#removed-text")).to_be_visible()
    bob.click("#removed-home")
    expect(bob.locator("#play-now")).to_be_visible()


@pytest.mark.parametrize("size", SIZES)
def test_the_band_and_the_lobby_fit_every_size(open_page, size):
    viewport = SIZES[size]
    host = open_page(f"host-{size}", viewport=viewport)
    host.check("#create-open")
    # a long name and Nerts' house rules: the longest row the list draws
    host.fill("#create-name", "Maximilianusxyz")
    host.check("#create-game-nerts")
    code = create_room(host, "Maximilianusxyz")
    visitor = open_page(f"visitor-{size}", viewport=viewport)
    expect(row(visitor, code)).to_be_visible(timeout=(REFRESH_S + 3) * 1000)
    for language, host_is in HOST_IS.items():  # every language, Russian's longest words last
        visitor.select_option("select.lang", language)
        expect(row(visitor, code)).to_contain_text(f"{host_is}: Maximilianusxyz")
        settled(visitor)
        for select in visitor.locator("#open-tables-band select").all():  # no option's words cut
            room = select.evaluate("(el) => el.clientWidth") - 44  # padding, border, arrow
            assert select.evaluate(TEXT_WIDTH) <= room, (size, language, select.get_attribute("id"))
        fits(visitor, "home", f"{size} {language}")
    SHOTS.mkdir(parents=True, exist_ok=True)
    visitor.locator("#open-tables-band").screenshot(path=str(SHOTS / f"open-tables-home-{size}.png"))

    # the visitor sits down from the list: the host's lobby has "Remove" beside them, the
    # visitor's says the table is open
    visitor.fill("#play-now-name", "Wolfgangamadeus")
    row(visitor, code).locator("button").click()
    expect(visitor.locator("#open-notice")).to_be_visible()
    expect(host.locator("button.remove-player")).to_be_visible()
    host.screenshot(path=str(SHOTS / f"open-tables-lobby-{size}.png"), full_page=True)
    visitor.screenshot(path=str(SHOTS / f"open-tables-lobby-visitor-{size}.png"), full_page=True)
    fits(visitor, "lobby", size)
    for language in HOST_IS:  # the host's lobby with its switch and "Remove", in every language
        host.select_option("select.lang", language)
        expect(host.locator("button.remove-player")).to_have_text(REMOVE[language])
        fits(host, "lobby", f"{size} {language}")


# The list's "Host: …" and the lobby's "Remove" in each language (static/i18n/*.js).
HOST_IS = {"en": "Host", "de": "Gastgeber", "fi": "Isäntä", "ro": "Gazdă", "ru": "Хозяин"}
REMOVE = {"en": "Remove", "de": "Entfernen", "fi": "Poista", "ro": "Scoate", "ru": "Убрать"}


def fits(page: Page, where: str, size: str) -> None:
    settled(page)
    problems = page.evaluate(OVERLAPS, where)
    assert problems == [], f"{size} {where}: {problems}"
    assert no_horizontal_scroll(page), f"{size} {where}"


# Every element of the open tables' band (home) or the lobby's additions, and the rows'
# pieces: each must lie inside the window's width and its own box, and a row's button
# must not lie over its words.
OVERLAPS = """(where) => {
    const out = [];
    const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
    const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const width = document.documentElement.clientWidth;
    const shown = (el) => el.getClientRects().length > 0;
    const root = where === 'home' ? document.querySelector('#open-tables-band') : document.querySelector('.lobby');
    if (!root) return ['nothing drawn'];
    for (const el of root.querySelectorAll('button, input, select, label, h2, p, span, li')) {
        if (!shown(el) || el.closest('.sr-only')) continue;
        const r = el.getBoundingClientRect();
        if (r.left < -0.5 || r.right > width + 0.5) out.push(`${el.tagName}.${el.className} off the window`);
        if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== 'visible') out.push(`${el.tagName}.${el.className} cut`);
    }
    for (const li of root.querySelectorAll('.open-table')) {
        const box = li.getBoundingClientRect();
        const button = li.querySelector('button');
        for (const part of li.querySelectorAll('p, button')) {
            if (!inside(part.getBoundingClientRect(), box)) out.push(`${part.className || part.tagName} outside its row`);
            if (button && part !== button && meets(part.getBoundingClientRect(), button.getBoundingClientRect())) out.push(`${part.className} under the button`);
        }
    }
    for (const seat of root.querySelectorAll('.seat')) {
        const box = seat.getBoundingClientRect();
        for (const b of seat.querySelectorAll('button')) if (!inside(b.getBoundingClientRect(), box)) out.push('a seat button outside its seat');
    }
    return out;
}"""


def test_with_open_tables_off_the_page_shows_none_of_it(browser, tmp_path):
    srv = LiveServer(tmp_path / "off", open_tables=False)
    problems = PageProblems()
    with srv:
        context = browser.new_context(base_url=srv.base)
        try:
            page = context.new_page()
            problems.watch(page, "off")
            page.goto("/")
            expect(page.locator("#create-name")).to_be_visible()
            answered = page.evaluate("fetch('/api/tables').then((r) => r.json())")
            assert answered["enabled"] is False
            page.wait_for_load_state("networkidle")
            expect(page.locator("#open-tables-band")).to_be_hidden()
            expect(page.locator("#play-now")).to_be_hidden()
            expect(page.locator("#create-open")).to_be_hidden()
            code = create_room(page, "Ann")
            expect(page.locator("#lobby-open")).to_be_hidden()  # the host has no switch either
            expect(page.locator("#open-notice")).to_be_hidden()
            assert code
        finally:
            context.close()
    assert not problems.items, problems.items


def test_a_refused_play_now_says_why_in_clear_words(browser, tmp_path):
    """On a server of its own: an address holding four seats in play-now lobbies still
    waiting for players is refused another (429); the page says so and stays put."""
    srv = LiveServer(tmp_path / "refused")
    problems = PageProblems()
    with srv:
        context = browser.new_context(base_url=srv.base)
        try:
            page = context.new_page()
            problems.watch(page, "eve")
            page.goto("/")
            expect(page.locator("#play-now")).to_be_visible()
            press = """([name, game]) => fetch('/api/play-now', {method: 'POST',
                headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({name, level: 'easy', language: 'en', game})}).then((r) => r.status)"""
            # three seats at a Nerts lobby and one at a Demon lobby, all still waiting
            presses = [("E1", "nerts"), ("E2", "nerts"), ("E3", "nerts"), ("E4", "demon")]
            assert [page.evaluate(press, p) for p in presses] == [200, 200, 200, 200]
            page.fill("#play-now-name", "Eve")
            page.click("#play-now")
            expect(page.locator("#play-now-form .error")).to_have_text(
                "Your address already holds as many tables and waiting seats as it may. Play those first, or try again in a minute."
            )
            expect(page).to_have_url(re.compile(r"/$"))
        finally:
            context.close()
    # the refusal asked for (the answer, and the browser's console line about it), nothing else
    expected = ("HTTP 429: POST", "status of 429 (Too Many Requests)")
    assert len(problems.items) == 2 and all(any(e in item for e in expected) for item in problems.items), problems.items
