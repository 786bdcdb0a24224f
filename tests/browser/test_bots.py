"""Bots in a real Chromium: "Play against bots" from the home page to the results of a
round played to its end, and a lobby where the host adds and removes a bot.

The server is this module's own: the package's plus the testing-only bot speed-up
(`DEMON_BOT_THINK_SCALE`), so a round of bots ends in seconds, not minutes. (Not much
faster than that: at a hundred events a second the page is busy redrawing, and on a
loaded machine Playwright then waits in vain for a button to hold still.)
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import RACE_SEED
from tests.browser.helpers import create_room, join_by_link, wait_for_table
from tests.support.live_server import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = LiveServer(
        tmp_path_factory.mktemp("browser-bots"),
        test_seed=RACE_SEED,
        countdown_s=0.6,
        reconnect_grace_s=60,
        bot_think_scale=0.15,
    )
    with srv:
        yield srv


def test_play_against_bots_from_the_home_page_to_the_results(open_page):
    ann = open_page("ann")
    expect(ann.locator("#practice-title")).to_have_text("Play against bots")
    ann.fill("#practice-name", "Ann")
    ann.select_option("#create-rounds", "1")  # a one-round match: it ends in recent games
    ann.select_option("#practice-bots", "3")
    ann.select_option("#practice-level", "hard")
    ann.click("#practice-start")
    # Seated with the bots, and the countdown runs at once: no lobby, no start button.
    wait_for_table(ann)
    # Ann only watches: alone with bots, she lets them finish the round, so it
    # ends when the bots are done, played out fast. With the table's key (B), not a click:
    # the bots' moves redraw the table many times a second, and on a loaded machine a
    # click can wait in vain for a button that holds still for two frames.
    expect(ann.locator("#vote-end")).to_have_text("End the round now", use_inner_text=True)
    expect(ann.locator("#bots-finish")).to_have_text("Let the bots finish", use_inner_text=True)
    ann.keyboard.press("b")
    expect(ann.locator(".table-status .finishing")).to_have_text(
        "The bots are finishing the round…", use_inner_text=True
    )
    expect(ann.locator("#vote-end")).to_have_text("Take the round back", use_inner_text=True)
    opponents = ann.locator(".opp")
    expect(opponents).to_have_count(3)
    for i in range(3):
        badge = opponents.nth(i).locator(".tag.bot")
        expect(badge).to_contain_text("Hard")
        expect(badge).to_have_attribute("title", "Computer player, level: Hard")
    # The bots play: cards reach the foundations while Ann only watches. They vote once
    # they are stuck (or one of them calls Demon): the round ends.
    expect(ann.locator(".foundations [data-fpile]").first).to_be_visible(timeout=15000)
    marks = set(ann.eval_on_selector_all(".foundations .owner-tag", "els => els.map(e => e.textContent)"))
    assert marks and marks <= {"1", "2", "3"}, marks  # each bot's number (Ann plays nothing)
    results = ann.locator("#results")
    expect(results).to_be_visible(timeout=90000)
    expect(results).to_contain_text("The match is over")
    # What happened, said as such: the bots finished it for her, or one of them went
    # out; once it read "The players voted to end the round."
    reason = results.locator(".reason")
    expect(reason).to_have_text(
        re.compile(r"^(The bots finished the round for you\.|Bot [123] played all 52 cards and called “Demon!”)$")
    )
    # ...and its replay says the same (it said "The players voted to end the round.")
    with ann.context.expect_page() as opened:
        ann.click("#watch-replay")
    viewer = opened.value
    expect(viewer.locator("#replay-scrub")).to_be_visible()
    viewer.keyboard.press("End")
    expect(viewer.locator("#replay-results .reason")).to_have_text(reason.inner_text())
    viewer.close()
    rows = results.locator("tbody tr")
    expect(rows).to_have_count(4)
    expect(results.locator("tbody .tag.bot")).to_have_count(3)
    expect(results.locator("tbody tr", has_text="Ann").locator(".tag.bot")).to_have_count(0)
    # Recent games on the home page show the bots as bots.
    ann.goto("/")
    recent = ann.locator(".recent-list li").first
    expect(recent).to_contain_text("Ann")
    expect(recent.locator(".tag.bot")).to_have_count(3)


def test_the_host_adds_a_bot_to_the_lobby_and_removes_it(open_page):
    ann = open_page("ann")
    code = create_room(ann, "Ann")
    bob = open_page("bob", path=None)
    join_by_link(bob, f"/r/{code}", "Bob")
    expect(ann.locator(".seat:not(.free)")).to_have_count(2)
    expect(bob.locator(".add-bot-button")).to_have_count(0)  # only the host may
    ann.select_option(".add-bot select", "easy")
    ann.click(".add-bot-button")
    for page in (ann, bob):
        bot = page.locator(".seat.bot")
        expect(bot).to_have_count(1)
        expect(bot).to_contain_text("Bot 1")
        expect(bot.locator(".tag.bot")).to_contain_text("Easy")
    expect(bob.locator(".remove-bot")).to_have_count(0)
    ann.click(".remove-bot")
    for page in (ann, bob):
        expect(page.locator(".seat.bot")).to_have_count(0)
        expect(page.locator(".seat:not(.free)")).to_have_count(2)
    # A bot added again takes part in the round the host starts.
    ann.select_option(".add-bot select", "medium")
    ann.click(".add-bot-button")
    expect(bob.locator(".seat.bot")).to_contain_text("Medium")
    ann.click("#start-game")
    wait_for_table(bob)
    expect(bob.locator(".opp .tag.bot")).to_have_count(1)


def test_alone_with_bots_a_person_ends_the_round_at_once(open_page):
    """Stuck in a practice round, the person once waited minutes for the bots. Bots
    follow the people: the person's own vote ends the round, there and then."""
    ann = open_page("ann")
    ann.fill("#practice-name", "Ann")
    ann.select_option("#create-rounds", "1")
    ann.select_option("#practice-bots", "7")
    ann.select_option("#practice-level", "easy")
    ann.click("#practice-start")
    wait_for_table(ann)
    expect(ann.locator("#vote-end")).to_have_text("End the round now", use_inner_text=True)
    ann.keyboard.press("v")
    results = ann.locator("#results")
    expect(results).to_be_visible(timeout=10000)
    expect(results).to_contain_text("The match is over")


def test_the_level_picker_says_what_each_level_means(open_page):
    ann = open_page("ann")
    options = ann.locator("#practice-level option")
    expect(options).to_have_text(
        ["Easy — slower than a beginner", "Medium — about a club player", "Hard — beats a club player"]
    )


def test_bot_names_are_in_the_pages_language(open_page):
    """Bot names once stayed "Bot 1" on a Russian page."""
    ann = open_page("ann", locale="ru-RU")
    create_room(ann, "Аня")
    ann.click(".add-bot-button")
    expect(ann.locator(".seats .seat.bot .seat-name")).to_have_text("Бот 1")
