"""Everything around a Nerts round, in real Chromium on the package's server: the host
picks the game and Nerts' house rules in the lobby and a second browser reads them
before the start, with the keyboard focus kept on the control the host changed; the
table's bar names the game; the results show a negative score with a real minus sign;
the round's replay opens with Nerts' seats; the home page starts a Nerts practice room
with its house rules.

The words are the English table's (static/i18n/en.js, block "Nerts lobby"). These need
the Nerts table (static/nerts/) and its socket's `protocol: 2` hello: a page without
them is closed by a Nerts room (4001) and cannot draw its round.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.helpers import create_room, join_by_link
from tests.browser.test_accessibility import axe_violations

MINUS = "\u2212"


def focused_id(page) -> str:
    return page.evaluate("document.activeElement ? document.activeElement.id : ''")


def test_the_host_picks_nerts_and_house_rules_and_everyone_reads_them_before_the_start(open_page):
    ann = open_page("ann")
    code = create_room(ann, "Ann")
    # the link's page says which game the room plays before one joins
    cleo = open_page("cleo", path=f"/r/{code}")
    expect(cleo.locator(".join-game")).to_have_text("Game: Demon")
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
    # a screen reader hears the game's name, then its line
    nerts = ann.get_by_role("radio", name="Nerts", exact=True)
    expect(nerts).to_be_checked()
    expect(nerts).to_have_accessible_description("Four work piles: empty your 13-card Nerts pile first.")
    # each house rule has its one-line explanation beside it, read with its control
    expect(ann.locator("#lobby-house")).to_be_visible()
    expect(ann.locator("#lobby-racing-spaces")).to_have_attribute("aria-describedby", "lobby-racing-spaces-hint")
    expect(ann.locator("#lobby-racing-spaces-hint")).to_have_text(
        "An emptied work pile is filled at once from your Nerts pile."
    )
    expect(choice).to_contain_text("When everyone is stuck")
    axe_violations(ann, "the host's lobby, Nerts")
    axe_violations(bob, "a player's lobby, Nerts")

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

    # The other options still work beside them, and keep the game: one round.
    ann.select_option("#lobby-rounds", "1")
    expect(bob.locator(".opt-list").nth(1).locator("dd").first).to_have_text("1")
    expect(choice.locator("dd .opt-value")).to_have_text(["Nerts", "One", "On", "Off"])

    # Back to Demon and to Nerts again: the house rules follow.
    ann.check("#lobby-game-demon")
    expect(choice.locator("dd")).to_have_text(["Demon"])
    ann.check("#lobby-game-nerts")
    expect(choice.locator("dd .opt-value")).to_have_text(["Nerts", "Three", "Off", "On"])

    # The start: both tables' bar names the game and its house rules (the switch back
    # to Demon dropped the ones chosen: Nerts again starts from the defaults).
    ann.click("#start-game")
    for page in (ann, bob):
        expect(page.locator(".table-status .game-line .long")).to_have_text("Nerts · draw 3", timeout=15000)

    # Both vote with nothing played: each has 13 cards left in the Nerts pile and none
    # home, −26 each (N14), written with a real minus sign, never a hyphen.
    for page in (ann, bob):
        expect(page.locator("#vote-end")).to_be_visible()
        page.click("#vote-end")
    for page in (ann, bob):
        results = page.locator("#results")
        expect(results).to_contain_text("The match is over")
        for name in ("Ann", "Bob"):
            row = results.locator("tbody tr", has_text=name)
            expect(row.locator("td")).to_have_text([f"{MINUS}26", f"{MINUS}26"])
            assert "-" not in row.inner_text()
        expect(results.locator(".reason")).to_have_text("The players voted to end the round.")
        # a tie is shared, not a win for both
        expect(page.locator(".match-winner")).to_have_text("A tie: Ann, Bob share first place")

    # The round's replay opens with Nerts' seats, from the deal to the same scores.
    with bob.context.expect_page() as opened:
        bob.click("#watch-replay")
    viewer = opened.value
    viewer.set_default_timeout(8000)
    expect(viewer.locator("#replay-game")).to_have_text("Nerts")
    expect(viewer.locator(".nerts-seat")).to_have_count(2)
    expect(viewer.locator(".nerts-seat.big .nerts-pile .nerts-count")).to_have_text("13")
    expect(viewer.locator(".nerts-seat.big .work-pile")).to_have_count(4)
    axe_violations(viewer, "a Nerts round's replay")
    viewer.keyboard.press("End")
    ending = viewer.locator("#replay-results")
    expect(ending).to_be_visible()
    expect(ending.locator(".reason")).to_have_text("The players voted to end the round.")
    expect(ending.locator("tbody td")).to_have_text([f"{MINUS}26", f"{MINUS}26"])

    # The join page of a Nerts room says so; the finished match is among Bob's recent
    # games, named by its game.
    cleo.reload()
    expect(cleo.locator(".join-game")).to_have_text("Game: Nerts")
    bob.goto("/")
    expect(bob.locator(".recent-list li").first.locator(".recent-kind")).to_have_text("Nerts")


def test_a_nerts_practice_room_from_the_home_page_with_its_house_rules(open_page):
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
    axe_violations(ann, "the home page, Nerts' house rules open")
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


def test_an_eight_seat_nerts_replay_passes_axe_to_its_end(open_page):
    """Eight seats' panels overflow the replay's side column on a laptop: the column is
    then a scrolling region, which a keyboard must be able to reach."""
    ann = open_page("nerts-replay-8", viewport={"width": 1366, "height": 768})
    ann.fill("#practice-name", "Ann")
    ann.check("#practice-game-nerts")
    ann.select_option("#practice-bots", "7")
    ann.click("#practice-start")
    expect(ann.locator(".table.nerts .mine .nerts-pile")).to_be_visible(timeout=15000)
    expect(ann.locator(".countdown")).to_be_hidden(timeout=15000)
    ann.click("#bots-finish")
    expect(ann.locator("#results")).to_be_visible(timeout=120000)
    # the call across the screen lands over the results' light panel: still readable
    expect(ann.locator(".demon-call .demon-word")).to_have_text("Nerts!")
    axe_violations(ann, "the results under the Nerts! call")
    with ann.context.expect_page() as opened:
        ann.click("#watch-replay")
    viewer = opened.value
    expect(viewer.locator(".nerts-seat")).to_have_count(8)
    viewer.keyboard.press("End")
    expect(viewer.locator("#replay-results")).to_be_attached()
    axe_violations(viewer, "an eight-seat Nerts replay at its end")
