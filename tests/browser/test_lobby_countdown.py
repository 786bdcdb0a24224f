"""The lobby during a countdown, in real Chromium: once the host has started (the first
round or a rematch), the others' lobby no longer says it waits for the host to start.
This module's server counts down 3 s, long enough to read the lobby behind."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import RACE_SEED
from tests.browser.helpers import create_room, join_by_link, wait_for_table
from tests.support.live_server import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = LiveServer(
        tmp_path_factory.mktemp("browser-countdown"), test_seed=RACE_SEED, countdown_s=3, reconnect_grace_s=60
    )
    with srv:
        yield srv


def test_during_a_rematch_countdown_nobody_waits_for_the_host_to_start(open_page):
    ann = open_page("ann")
    ann.select_option("#create-rounds", "1")
    code = create_room(ann, "Ann")
    bob = open_page("bob", path=None)
    join_by_link(bob, f"/r/{code}", "Bob")
    waiting = bob.locator(".waiting")
    expect(waiting).to_have_text("Waiting for Ann to start…")
    ann.click("#start-game")
    expect(waiting).to_have_text("Ann has started: get ready…")
    wait_for_table(bob)
    ann.click("#vote-end")
    bob.click("#vote-end")
    expect(bob.locator("#results")).to_contain_text("The match is over")
    ann.click("#rematch")
    expect(bob.locator(".countdown")).to_be_visible()
    expect(waiting).to_have_text("Ann has started: get ready…")  # it once still waited for Ann
    wait_for_table(bob)
