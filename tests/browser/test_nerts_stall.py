"""The stall (N13) as a person sees it in real Chromium: two scripted players play a Nerts
deal into the stall over real sockets; a third person, who opened the room's link and
watches, is shown and told "Everyone was stuck", and the note goes once a card goes home.

The moves are found with the engine when the test starts (random play from a fixed
generator, the first stall and the first foundation play after it), so the test does not
depend on a stored list that the rules could outdate."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Coroutine
from typing import Any

import pytest
from playwright.sync_api import expect

from app.nerts.rules.actions import ToFoundation, action_to_json
from app.nerts.rules.events import Played, Stalled
from app.nerts.rules.round import NertsRound
from tests.support.live_server import LiveServer
from tests.support.ws_client import Player, create_room, join_room

STALL_NOTE = "Everyone was stuck: every stock was turned over once."


def stall_plan() -> tuple[int, list[dict], int, int]:
    """(seed, the moves, how many lead into the stall, how many to the next card home)."""
    for seed in range(1, 400):
        rng = random.Random(seed)
        r = NertsRound.deal(seed, 2).start()
        steps: list[dict] = []
        stall_at = None
        for _ in range(3000):
            if r.end is not None:
                break
            seat = rng.randrange(2)
            legal = r.legal_actions(seat)
            if not legal:
                continue
            home = [a for a in legal if isinstance(a, ToFoundation)]
            action = rng.choice(home) if home and rng.random() < 0.6 else rng.choice(legal)
            r, events = r.apply(action)
            steps.append(action_to_json(action))
            if stall_at is None and any(isinstance(e, Stalled) for e in events):
                stall_at = len(steps)
            elif stall_at is not None and any(isinstance(e, Played) for e in events):
                return seed, steps, stall_at, len(steps)
    raise AssertionError("no deal of 400 stalls under random play")


@pytest.fixture
def stall_server(tmp_path):
    seed, steps, stall_at, resolved_at = stall_plan()
    with LiveServer(tmp_path, test_seed=seed, countdown_s=0.5, rate_per_s=400, rate_burst=400) as srv:
        yield srv, steps, stall_at, resolved_at


class Players:
    """The two scripted players, on an event loop of their own (Playwright's sync API
    holds this thread's)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.seats: list[Player] = []

    def run(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(120)

    async def sit_and_start(self, srv: LiveServer) -> str:
        first = await create_room(srv.base, "Ann", game="nerts", rounds=1)
        second = await join_room(srv.base, first["code"], "Bob")
        self.seats = [Player(srv.ws_base, first), Player(srv.ws_base, second)]
        for p in self.seats:
            await p.connect(protocol=2)
        host = self.seats[0]
        await host.wait_for(lambda: host.state is not None and len(host.state["players"]) == 2)
        await self.seats[0].send({"type": "start"})
        for p in self.seats:
            await p.wait_for(lambda p=p: p.state is not None and p.state["phase"] == "playing", 10)
        return str(first["code"])

    async def play(self, steps: list[dict]) -> None:
        for step in steps:
            seat = self.seats[step["seat"]]
            reply = await seat.reply(await seat.act({k: v for k, v in step.items() if k != "seat"}))
            assert reply["type"] == "ack", (step, reply)

    def close(self) -> None:
        for p in self.seats:
            self.run(p.close())
        self.loop.call_soon_threadsafe(self.loop.stop)


def test_a_stall_is_shown_and_said_to_the_table_then_cleared(browser, stall_server):
    srv, steps, stall_at, resolved_at = stall_server
    players = Players()
    try:
        code = players.run(players.sit_and_start(srv))
        page = browser.new_context(viewport={"width": 1366, "height": 768}, base_url=srv.base).new_page()
        page.goto(f"/r/{code}")
        page.fill("#link-name", "Cleo")
        page.click("#join-by-link")
        expect(page.locator(".table.nerts")).to_be_visible(timeout=15000)
        players.run(players.play(steps[:stall_at]))
        note = page.locator(".stall-note")  # shown (and aria-hidden: it is said apart)
        expect(note).to_have_text(STALL_NOTE, timeout=10000)
        expect(note).to_be_visible()
        said = page.locator("[aria-live]").filter(has_text=STALL_NOTE)
        expect(said.first).to_be_attached()  # and read out
        players.run(players.play(steps[stall_at:resolved_at]))
        expect(note).to_be_hidden(timeout=10000)  # a card went home: the stall is over
        page.context.close()
    finally:
        players.close()
