"""Everything around a Nerts round, in real Chromium on the package's server: the host
picks the game and Nerts' house rules in the lobby and a second browser reads them
before the start, with the keyboard focus kept on the control the host changed; the
home page starts a Nerts practice room with its house rules; the table's bar names the
game; the results show a negative score with a real minus sign; the round's replay
opens with Nerts' seats; the recent games name the game.

The words are the English table's (static/i18n/en.js, block "Nerts lobby").
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.helpers import create_room, join_by_link

MINUS = "\u2212"


def focused_id(page) -> str:
    return page.evaluate("document.activeElement ? document.activeElement.id : ''")


def test_the_host_picks_nerts_and_house_rules_and_everyone_reads_them_before_the_start(open_page):
    ann = open_page("ann")
    code = create_room(ann, "Ann")
    bob = open_page("bob", path=None)
    join_by_link(bob, f"/r/{code}", "Bob")

    # A new room plays Demon: the host's choice says so, the others read it, and no
    # house rule is shown for a game that has none.
    expect(ann.locator("#lobby-game-demon")).to_be_checked()
    expect(ann.locator("#lobby-house")).to_be_hidden()
    choice = bob.locator("#game-choice")
    expect(choice.locator("dd")).to_have_text(["Demon"])

    # Nerts, chosen with the keyboard: the room tells everyone, and the radio the host
    # used keeps the focus when the options are drawn again from the server's answer.
    ann.focus("#lobby-game-demon")
    ann.keyboard.press("ArrowRight")
    expect(choice.locator("dt")).to_have_text(["Game", "Cards per draw", "Racing Demon spaces", "The stall"])
    expect(choice.locator("dd .opt-value")).to_have_text(["Nerts", "Three", "Off", "On"])
    expect(ann.locator("#lobby-game-nerts")).to_be_checked()
    assert focused_id(ann) == "lobby-game-nerts"
    # each house rule has its one-line explanation beside it, read with its control
    expect(ann.locator("#lobby-house")).to_be_visible()
    expect(ann.locator("#lobby-racing-spaces")).to_have_attribute("aria-describedby", "lobby-racing-spaces-hint")
    expect(ann.locator("#lobby-racing-spaces-hint")).to_have_text(
        "An emptied work pile is filled at once from your Nerts pile."
    )
    expect(choice).to_contain_text("When everyone is stuck")

    # H2 draw one, H3 on, H4 off: each reaches the other browser before the start
    ann.select_option("#lobby-draw", "1")
    expect(choice.locator("dd .opt-value")).to_have_text(["Nerts", "One", "Off", "On"])
    ann.check("#lobby-racing-spaces")
    expect(choice.locator("dd .opt-value")).to_have_text(["Nerts", "One", "On", "On"])
    ann.focus("#lobby-stall")
    ann.keyboard.press("Space")
    expect(choice.locator("dd .opt-value")).to_have_text(["Nerts", "One", "On", "Off"])
    expect(ann.locator("#lobby-stall")).not_to_be_checked()
    assert focused_id(ann) == "lobby-stall"
    # the host's own fields show the room's choice as the server has it
    expect(ann.locator("#lobby-draw")).to_have_value("1")
    expect(ann.locator("#lobby-racing-spaces")).to_be_checked()

    # The other options still work beside them, and keep the game.
    ann.select_option("#lobby-rounds", "2")
    expect(bob.locator(".opt-list").nth(1)).to_contain_text("2")
    expect(choice.locator("dd .opt-value")).to_have_text(["Nerts", "One", "On", "Off"])

    # Back to Demon and to Nerts again: the house rules follow.
    ann.check("#lobby-game-demon")
    expect(choice.locator("dd")).to_have_text(["Demon"])
    ann.check("#lobby-game-nerts")
    expect(choice.locator("dd .opt-value").first).to_have_text("Nerts")

    # The start: both tables' bar names the game and its house rules.
    ann.click("#start-game")
    for page in (ann, bob):
        line = page.locator(".table-status .game-line .long")
        expect(line).to_have_text(re.compile(r"^Nerts · draw \d( · .*)?$"), timeout=15000)


def test_a_nerts_practice_room_from_the_home_page_ends_with_a_negative_score_and_replays(open_page):
    ann = open_page("ann")
    ann.fill("#practice-name", "Ann")
    ann.select_option("#create-rounds", "1")
    ann.select_option("#practice-bots", "1")
    ann.select_option("#practice-level", "easy")
    # The first screen stays short: the house rules wait behind their disclosure, and
    # only for Nerts.
    expect(ann.locator("#practice-house")).to_be_hidden()
    ann.check("#practice-game-nerts")
    house = ann.locator("#practice-house")
    expect(house).to_be_visible()
    expect(house).not_to_have_attribute("open", "")
    ann.click("#practice-house summary")
    ann.select_option("#practice-draw", "1")
    ann.check("#practice-racing-spaces")
    ann.click("#practice-start")

    # The table's bar names the game with the house rules chosen.
    line = ann.locator(".table-status .game-line .long")
    expect(line).to_have_text("Nerts · draw 1 · Racing Demon spaces", timeout=15000)
    expect(ann.locator(".countdown")).to_be_hidden(timeout=15000)

    # Ann ends the round at once, alone with a bot: her 13 Nerts cards count −2 each
    # and she has none home (N14), so her score is −26, written with a minus sign.
    ann.click("#vote-end")
    results = ann.locator("#results")
    expect(results).to_be_visible(timeout=15000)
    ann_row = results.locator("tbody tr", has_text="Ann")
    expect(ann_row.locator("td")).to_have_text([f"{MINUS}26", f"{MINUS}26"])
    assert "-" not in ann_row.inner_text()
    expect(results.locator(".reason")).not_to_contain_text("Demon")

    # The round's replay opens with Nerts' seats and ends on the same scores.
    with ann.context.expect_page() as opened:
        ann.click("#watch-replay")
    viewer = opened.value
    viewer.set_default_timeout(8000)
    expect(viewer.locator("#replay-game")).to_have_text(re.compile(r"^Nerts"))
    expect(viewer.locator(".nerts-seat")).to_have_count(2)
    expect(viewer.locator(".nerts-seat.big .nerts-count").first).to_have_text("13")
    viewer.keyboard.press("End")
    ending = viewer.locator("#replay-results")
    expect(ending).to_be_visible()
    expect(ending.locator("tbody tr", has_text="Ann").locator("td")).to_have_text(f"{MINUS}26")

    # The finished match is among the recent games, named by its game.
    ann.goto("/")
    expect(ann.locator(".recent-list li").first.locator(".recent-kind")).to_have_text("Nerts")
