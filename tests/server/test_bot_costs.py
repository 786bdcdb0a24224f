"""Bots cost their creator, against a real uvicorn.

Six attacker addresses asking for ten practice rooms of seven hard bots each used to fill
the server's bot cap in about a second, in rooms nobody ever opened, whose bots played
on their own for minutes. Now bots are paid for per address (a unit each), they play
only once the room's person has opened its socket, an unopened practice room is gone in
seconds, and a full cap says when to try again.
"""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from tests.server.test_abuse import client
from tests.support.live_server import LiveServer
from tests.support.ws_client import Player, join_room

MAX_BOTS = 400  # above what these tests seat together (the cap itself: the last test)
PRACTICE_TTL_S = 3.0


@pytest.fixture(scope="module")
def bot_server(tmp_path_factory):
    srv = LiveServer(
        tmp_path_factory.mktemp("bot-costs"),
        test_seed=288,
        countdown_s=0.2,
        max_bots=MAX_BOTS,
        bot_think_scale=0.05,
        bot_create_per_min=14,
        bot_create_burst=14,
        unopened_practice_ttl_s=PRACTICE_TTL_S,
        rate_per_s=400,
        rate_burst=400,
        send_queue=4096,
    )
    with srv:
        yield srv


def practice(server: LiveServer, source: str, bots: int = 7) -> httpx.Response:
    with client(server, source) as http:
        return http.post("/api/rooms/practice", json={"name": "Ann", "bots": bots, "level": "hard"})


@pytest.mark.slow
def test_a_few_addresses_cannot_fill_the_bot_cap(bot_server):
    """Six addresses x ten rooms of 7 bots: each address gets two rooms (14 bots), the
    rest are 429 with Retry-After; a visitor's practice room of 7 is still created. A
    room of 7 costs seven times a room of 1: a fresh address gets fourteen rooms of 1."""
    statuses = []
    for a in range(6):
        for _ in range(10):
            r = practice(bot_server, f"127.0.60.{10 + a}")
            statuses.append(r.status_code)
            if r.status_code == 429:
                assert int(r.headers["Retry-After"]) >= 1
    assert statuses.count(200) == 12 and statuses.count(429) == 48, statuses
    assert practice(bot_server, "127.0.61.10").status_code == 200
    singles = [practice(bot_server, "127.0.61.11", bots=1).status_code for _ in range(16)]
    assert singles.count(200) == 14, singles


def test_bots_wait_for_their_person_and_an_unopened_room_goes_in_seconds(bot_server):
    """A practice room's bots do not play while its person has not opened the socket (a
    spectator watching sees no move); once the person connects, they play. An unopened
    practice room is removed after DEMON_UNOPENED_PRACTICE_TTL_S."""

    async def main() -> None:
        grant = practice(bot_server, "127.0.62.10").json()
        watcher = Player(bot_server.ws_base, await join_room(bot_server.base, grant["code"], "Watcher"))
        await watcher.connect()
        await watcher.wait_for(lambda: watcher.state is not None and watcher.state["phase"] == "playing", 5)
        await asyncio.sleep(1.5)  # a fixed wait: hard bots at this think scale would have made dozens of moves
        moves = [m for m in watcher.received if m["type"] == "event" and m["event"]["kind"] == "move"]
        assert moves == []
        ann = Player(bot_server.ws_base, grant)
        await ann.connect()
        await watcher.wait_for(
            lambda: any(m["type"] == "event" and m["event"]["kind"] == "move" for m in watcher.received), 10
        )
        await ann.close()
        await watcher.close()

        unopened = practice(bot_server, "127.0.62.11").json()["code"]
        started = time.monotonic()
        with client(bot_server, "127.0.62.12") as http:
            assert http.get(f"/api/rooms/{unopened}").status_code == 200
            while http.get(f"/api/rooms/{unopened}").status_code == 200:
                assert time.monotonic() - started < PRACTICE_TTL_S + 4, "the unopened room is still there"
                await asyncio.sleep(0.25)

    asyncio.run(main())


def test_a_full_bot_cap_answers_503_with_retry_after(tmp_path):
    with LiveServer(tmp_path, max_bots=10, unopened_practice_ttl_s=PRACTICE_TTL_S) as srv:
        assert practice(srv, "127.0.63.10").status_code == 200
        full = practice(srv, "127.0.63.11")
        assert full.status_code == 503 and "bots" in full.json()["detail"]
        assert 1 <= int(full.headers["Retry-After"]) <= PRACTICE_TTL_S + 5
