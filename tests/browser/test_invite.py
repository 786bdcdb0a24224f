"""The lobby's invite link reaches friends, or says why it cannot ("an invite
that reaches your friends"): real Chromium, real servers, one listening on the loopback
only (the `make run` default) and one on every interface (`make run HOST=0.0.0.0`)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from app.server.invite import lan_addresses
from tests.browser.conftest import DESKTOP
from tests.browser.helpers import create_room, join_by_link
from tests.support.live_server import LiveServer


def test_a_loopback_server_lobby_warns_that_the_link_works_only_here(open_page, server):
    ann = open_page("ann")
    code = create_room(ann, "Ann")
    expect(ann.locator("#invite-advice")).to_be_visible()
    expect(ann.locator("#invite-advice")).to_contain_text("make run HOST=0.0.0.0")
    assert ann.input_value("#invite-link") == f"{server.base}/r/{code}"
    assert ann.get_attribute("#invite-link", "aria-describedby") == "invite-advice"


@pytest.fixture
def network_server(tmp_path):
    srv = LiveServer(tmp_path / "lan", host="0.0.0.0", countdown_s=0.6)
    with srv:
        yield srv


def test_a_server_listening_on_the_network_puts_its_lan_address_in_the_link(browser, network_server):
    lan = lan_addresses()
    if not lan:
        pytest.skip("this machine has no local-network address to share")
    contexts = []
    try:

        def new_page(locale: str):
            context = browser.new_context(viewport=DESKTOP, base_url=network_server.base, locale=locale)
            contexts.append(context)
            return context.new_page()

        ann = new_page("en-GB")
        ann.goto("/")
        code = create_room(ann, "Ann")
        expected = f"http://{lan[0]}:{network_server.port}/r/{code}"
        expect(ann.locator("#invite-link")).to_have_value(expected)
        expect(ann.locator("#invite-advice")).to_be_hidden()
        # A friend opens exactly that link, over the network address, and is seated.
        bob = new_page("de-DE")
        join_by_link(bob, expected, "Bob")
        expect(ann.locator(".seats .seat-name", has_text="Bob")).to_be_visible()
    finally:
        for context in contexts:
            context.close()


def test_the_invite_link_stays_on_the_page_through_joins_and_bots(open_page, server):
    """Every lobby update once built a new invite box and moved the field into it,
    while the page kept the first box: after the first update the link was gone for
    everyone (only "Copy link" still worked)."""
    ann = open_page("ann")
    code = create_room(ann, "Ann")
    link = f"{server.base}/r/{code}"
    expect(ann.locator("#invite-link")).to_be_visible()
    bob = open_page("bob")
    join_by_link(bob, link, "Bob")
    expect(ann.locator(".seats .seat-name", has_text="Bob")).to_be_visible()
    ann.click(".add-bot-button")
    expect(ann.locator(".seats .seat.bot")).to_have_count(1)
    for page in (ann, bob):
        expect(page.locator("#invite-link")).to_be_visible()
        expect(page.locator("#invite-link")).to_have_value(link)
        expect(page.locator("#copy-link")).to_be_visible()
