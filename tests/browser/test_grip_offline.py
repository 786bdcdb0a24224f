"""Devil's Grip played on the page, in real Chromium against a real server:
a deal started and played to its end with the network cut (Playwright offline, the
page itself served by the service worker after a reload) is sent and verified by the
server's replay once the network is back, and only then counts in the statistics; a
batch the server refuses puts the page back on the server's game, with the reason
shown, whether the server's game moved on elsewhere or the page's rules were wrong."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from playwright.sync_api import expect

from app.grip.rules import GripGame, grip_action_from_json
from tests.browser.conftest import DESKTOP, GUIDE_SEEN, PageProblems
from tests.support.live_server import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = LiveServer(
        tmp_path_factory.mktemp("grip-offline"),
        hint_budget_s=0.1,
        hint_deadline_s=3,
        par_budget_s=0.1,
        winnable_ready=0,
    )
    with srv:
        yield srv


@pytest.fixture
def context_for(browser, server):
    """context_for(service_workers="allow") -> (context, page, problems): a person's
    browser on /grip whose page errors are collected (failed requests are expected here,
    the network being cut on purpose, and are left out)."""
    made = []

    def _make(service_workers: str = "allow"):
        context = browser.new_context(
            viewport=DESKTOP, base_url=server.base, locale="en-GB", service_workers=service_workers
        )
        context.add_init_script(GUIDE_SEEN)
        made.append(context)
        page = context.new_page()
        problems = PageProblems()
        page.on("pageerror", lambda err: problems.items.append(f"uncaught: {err}"))
        page.on("dialog", lambda dialog: dialog.accept())
        return context, page, problems

    yield _make
    for context in made:
        context.close()


def saved_game(page) -> dict:
    return page.evaluate("() => JSON.parse(localStorage.getItem('dg.grip.current'))")


def wait_until(page, script: str, timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"still false after {timeout_s} s: {script}"
        time.sleep(0.1)


def grid(page) -> list[list[str]]:
    return page.evaluate("""() => [...document.querySelectorAll('.grip-grid .cell')].map(
        (c) => [...c.querySelectorAll('[data-card]')].map((e) => e.dataset.card))""")


def deal_by_number(page, number: int) -> None:
    page.fill("#grip-number", str(number))
    page.click("#grip-by-number")
    expect(page.locator(".deal-no")).to_have_text(f"Deal #{number}")


def server_sync(server, saved: dict) -> dict:
    answer = httpx.get(
        f"{server.base}/api/grip/{saved['id']}/sync", headers={"Authorization": f"Bearer {saved['token']}"}, timeout=10
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_deal_played_offline_is_verified_when_the_network_is_back(context_for, server):
    context, page, problems = context_for()
    page.goto("/grip")
    expect(page.locator("#grip-stock")).to_be_visible()
    wait_until(page, "() => navigator.serviceWorker.controller !== null")
    wait_until(page, "() => caches.keys().then(k => k.length > 0)")
    page.reload()  # the worker keeps the app's page once it has served it
    expect(page.locator("#grip-stock")).to_be_visible()

    context.set_offline(True)
    deal_by_number(page, 4242)
    for _ in range(3):
        page.click("#grip-stock")  # deals three, at once, with no server
    expect(page.locator(".talon-count")).to_have_text("talon 9")
    page.click("#grip-undo")
    expect(page.locator(".talon-count")).to_have_text("talon 6")
    page.click("#grip-hint")  # hints wait for the connection, and the page says so
    expect(page.locator(".toast").last).to_contain_text("wait for the connection")
    expect(page.locator("#grip-sync")).to_contain_text("Offline")

    page.reload()  # offline: the service worker serves the page, the game is in localStorage
    expect(page.locator(".deal-no")).to_have_text("Deal #4242")
    expect(page.locator(".talon-count")).to_have_text("talon 6")
    page.click("#grip-end")  # to its end (the page asks to confirm; the dialog is accepted)
    expect(page.locator("#grip-summary")).to_be_visible()
    expect(page.locator("#grip-sync")).to_contain_text("counts once the server has checked")
    saved = saved_game(page)
    assert saved["id"] is None  # never reached the server
    assert [op["op"] for op in saved["pending"]] == ["action", "action", "action", "undo", "end"]
    assert page.evaluate("() => document.querySelectorAll('#grip-stats tbody tr').length") == 0

    context.set_offline(False)  # the page hears "online" and sends the game
    expect(page.locator("#grip-sync")).to_have_count(0, timeout=20_000)
    saved = saved_game(page)
    assert saved["id"] and saved["pending"] == [] and saved["seq"] == 5
    record = server_sync(server, saved)
    assert record["number"] == 4242 and record["state"]["over"] is True
    assert record["actions"] == [{"type": "deal"}, {"type": "deal"}, {"type": "end"}]
    assert record["redo"] == [] and record["used_undo"] is True
    engine = GripGame.new(4242)
    for action in record["actions"]:
        engine.apply(grip_action_from_json(action))
    assert record["state"] == engine.state.view()
    # verified: it now counts in the statistics, with the undo kept apart
    expect(page.locator("#grip-stats .stats-assisted thead th[data-limit]")).to_have_count(1, timeout=30_000)
    assert not problems.items, problems.items


def test_grip_opens_without_the_server_after_a_first_visit_that_went_there_inside_the_app(context_for, server):
    """A new person opens the home page once, goes to Devil's Grip from it (the app
    routes on the path: no page load), and loses the server. Reloading must give the
    game, not "you are offline": the worker keeps the app's page from its install on
    (before, it kept only a page it had served itself, and this person had none)."""
    context, page, problems = context_for()
    page.goto("/")
    wait_until(page, "() => navigator.serviceWorker.controller !== null")
    wait_until(page, "() => caches.keys().then(k => k.length > 0)")
    page.locator('a[href="/grip"]').first.click()
    expect(page.locator("#grip-stock")).to_be_visible()

    context.set_offline(True)
    page.reload()
    expect(page.locator("#grip-stock")).to_be_visible()
    deal_by_number(page, 4242)
    page.click("#grip-stock")
    expect(page.locator(".talon-count")).to_have_text("talon 3")
    assert not problems.items, problems.items


def test_a_game_changed_elsewhere_puts_the_page_back_on_the_servers(context_for, server):
    context, page, problems = context_for()
    page.goto("/grip")
    deal_by_number(page, 4243)
    page.click("#grip-stock")
    wait_until(
        page,
        "() => { const g = JSON.parse(localStorage.getItem('dg.grip.current'));"
        " return g && g.id && g.seq === 1 && !g.pending.length; }",
    )
    saved = saved_game(page)
    # another client with the same token takes the deal back on the server
    other = httpx.post(
        f"{server.base}/api/grip/{saved['id']}",
        json={"op": "undo"},
        headers={"Authorization": f"Bearer {saved['token']}"},
        timeout=10,
    )
    assert other.status_code == 200
    page.click("#grip-stock")  # shown at once (talon 6), then refused: the server is elsewhere
    expect(page.locator("#grip-sync.refused")).to_contain_text("The server did not accept a move")
    expect(page.locator("#grip-sync")).to_contain_text("the server is at 2")
    expect(page.locator(".talon-count")).to_have_text("talon 0")  # the server's game
    expect(page.locator("#grip-redo")).to_be_enabled()
    assert saved_game(page)["seq"] == 2
    page.click("#grip-redo")  # and play goes on from there
    wait_until(
        page,
        "() => { const g = JSON.parse(localStorage.getItem('dg.grip.current'));"
        " return g.seq === 3 && !g.pending.length; }",
    )
    assert server_sync(server, saved_game(page))["actions"] == [{"type": "deal"}]
    assert not problems.items, problems.items


# A planted rule change in the page's copy of the rules: piles build two ranks up, not
# three (rule 3). The page then plays a move the server's engine refuses.
PLANTED = [
    (
        "return card[1] === onto[1] && RANK_OF[card[0]] === RANK_OF[onto[0]] + 3;",
        "return card[1] === onto[1] && RANK_OF[card[0]] === RANK_OF[onto[0]] + 2;",
    ),
    ("return r <= 10 ? RANKS[r + 2] + top[1] : null;", "return r <= 11 ? RANKS[r + 1] + top[1] : null;"),
]


def test_a_move_the_server_refuses_is_taken_back_with_the_reason(context_for, server):
    context, page, problems = context_for(service_workers="block")

    def planted(route):
        body = route.fetch().text()
        for right, wrong in PLANTED:
            assert right in body
            body = body.replace(right, wrong)
        route.fulfill(body=body, content_type="text/javascript")

    context.route("**/grip/grip-rules.js", planted)
    page.goto("/grip")
    deal_by_number(page, 4244)
    wait_until(page, "() => { const g = JSON.parse(localStorage.getItem('dg.grip.current')); return g && g.id; }")
    before = grid(page)
    rank = "23456789TJQK"
    pair = next(
        (a, b)
        for a in range(24)
        for b in range(24)
        if a != b
        and before[a][-1][1] == before[b][-1][1]
        and rank.index(before[a][-1][0]) == rank.index(before[b][-1][0]) + 2
    )
    page.click(f'[data-pick="c:{pair[0]}:0"]')
    page.click(f'.cell[data-target="c:{pair[1]}"]')
    # shown at once by the page's (wrong) rules, then taken back on the server's answer
    expect(page.locator("#grip-sync.refused")).to_contain_text("does not go on")
    expect(page.locator("#grip-sync")).to_contain_text("operation 1 of the batch")
    assert grid(page) == before  # back on the server's game
    saved = saved_game(page)
    assert saved["seq"] == 0 and saved["pending"] == []
    assert server_sync(server, saved)["actions"] == []
    assert not problems.items, problems.items
    assert json.dumps(before)  # the grid read is plain data
