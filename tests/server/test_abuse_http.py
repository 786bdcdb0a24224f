"""Hostile HTTP and WebSocket use against a real uvicorn:
floods of rooms, joins and Devil's Grip games, guessing codes, tokens and ids, malformed
bodies, and the Origin rule. Each test uses its own loopback address (see test_abuse)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Callable

import pytest
import websockets

from app.storage.store import DB_NAME
from tests.server.test_abuse import abuse_server, client, counted, new_address, ws_connect

HEADERS = {"Content-Type": "application/json"}


def eventually(check: Callable[[], bool], timeout: float = 10.0) -> None:
    """Returns as soon as `check()` holds, polling: the tests below wait for what the
    server's timers remove (their TTLs are a few seconds here) instead of sleeping past
    the latest moment it could happen. Fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"still not so after {timeout} s"
        time.sleep(0.1)


# ---------------------------------------------------------------- malformed bodies


def test_malformed_bodies_get_a_4xx_never_a_500(abuse_server):
    source = new_address()
    with client(abuse_server, source) as http:
        room = http.post("/api/rooms", json={"name": "Ann"}).json()
        grip = http.post("/api/grip", json={}).json()
        bad = [
            b'{"name":"a","rounds":NaN}',
            b'{"name":"a","rounds":Infinity}',
            b'{"name":"a\\ud800b"}',
            b'{"name":"\\udfff"}',
            b'{"name":"a","bots":-Infinity}',
            b'{"name": "a"',
            b"\xff\xfe",
        ]
        paths = ["/api/rooms", "/api/rooms/practice", f"/api/rooms/{room['code']}/join", "/api/grip"]
        for path in paths:
            for body in bad:
                answer = http.post(path, content=body, headers=HEADERS)
                assert 400 <= answer.status_code < 500, (path, body, answer.status_code, answer.text)
                assert answer.json()["detail"]
        auth = {**HEADERS, "Authorization": f"Bearer {grip['token']}"}
        for body in [
            b'{"op":"action","action":{"type":"move","src":NaN,"dst":1,"count":1}}',
            b'{"op":"action","action":{"type":"talon","dst":"\\ud800"}}',
        ]:
            answer = http.post(f"/api/grip/{grip['id']}", content=body, headers=auth)
            assert 400 <= answer.status_code < 500, (body, answer.status_code, answer.text)
        assert http.get("/health").status_code == 200
    assert "Traceback" not in abuse_server.log()


def test_a_huge_input_is_never_echoed_back(abuse_server):
    with client(abuse_server, new_address()) as http:
        huge = http.post("/api/rooms", json={"name": "x" * 10_000_000})
        assert huge.status_code in (413, 422)
        assert len(huge.content) < 2000
        long = http.post("/api/rooms", json={"name": "y" * 5000})
        assert long.status_code == 422
        assert len(long.content) < 1000 and "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy" not in long.text
        detail = long.json()["detail"]
        assert detail and isinstance(detail, list) and detail[0]["loc"][-1] == "name"


# ---------------------------------------------------------------- rooms and joins


def test_room_creation_is_limited_per_address(abuse_server):
    flooder, other = new_address(), new_address()
    with client(abuse_server, flooder) as http:
        answers = [http.post("/api/rooms", json={"name": "Ann"}) for _ in range(6)]
        codes = [a.status_code for a in answers]
        assert codes[:3] == [200, 200, 200] and 429 in codes, codes
        limited = next(a for a in answers if a.status_code == 429)
        assert int(limited.headers["Retry-After"]) >= 1
        assert "rooms" in limited.json()["detail"] and "full" not in limited.json()["detail"]
        practice = http.post("/api/rooms/practice", json={"name": "Ann", "bots": 1})
        assert practice.status_code == 429
    with client(abuse_server, other) as http:
        assert http.post("/api/rooms", json={"name": "Bob"}).status_code == 200


def test_joins_are_limited_per_address(abuse_server):
    with client(abuse_server, new_address()) as http:
        code = http.post("/api/rooms", json={"name": "Ann", "max_players": 8}).json()["code"]
    with client(abuse_server, new_address()) as http:
        statuses = [http.post(f"/api/rooms/{code}/join", json={"name": f"P{i}"}).status_code for i in range(6)]
    assert statuses[:3] == [200, 200, 200] and 429 in statuses, statuses


def test_a_lobby_nobody_connects_to_expires_soon(abuse_server):
    """DEMON_UNUSED_ROOM_TTL_S (3 s here): a room whose creator never opened its socket
    is removed; one whose creator connected is kept."""
    with client(abuse_server, new_address()) as http:
        unused = http.post("/api/rooms", json={"name": "Ann"}).json()
        used = http.post("/api/rooms", json={"name": "Bob"}).json()

    async def main():
        ws = await ws_connect(abuse_server, used["code"], new_address())
        await ws.send(json.dumps({"type": "hello", "token": used["token"]}))
        assert json.loads((await ws.recv()).split("\n")[0])["type"] == "welcome"
        with client(abuse_server, new_address()) as http:  # both rooms are as old as each other
            await asyncio.to_thread(eventually, lambda: http.get(f"/api/rooms/{unused['code']}").status_code == 404)
        await ws.close()

    asyncio.run(main())
    with client(abuse_server, new_address()) as http:
        assert http.get(f"/api/rooms/{unused['code']}").status_code == 404
        assert http.get(f"/api/rooms/{used['code']}").status_code == 200


# ---------------------------------------------------------------- Devil's Grip


def test_grip_creation_is_limited_per_address(abuse_server):
    with client(abuse_server, new_address()) as http:
        statuses = [http.post("/api/grip", json={}).status_code for _ in range(6)]
    assert statuses[:3] == [200, 200, 200] and 429 in statuses, statuses
    with client(abuse_server, new_address()) as http:
        assert http.post("/api/grip", json={}).status_code == 200


def test_an_abandoned_grip_game_is_forgotten_soon_a_played_one_kept(abuse_server):
    """DEMON_GRIP_UNPLAYED_TTL_S (2 s here): a game without a single action is deleted;
    a game with one is kept (DEMON_GRIP_EXPIRY_DAYS)."""
    with client(abuse_server, new_address()) as http:
        idle = http.post("/api/grip", json={}).json()
        played = http.post("/api/grip", json={}).json()
        action = played["legal"][0]
        r = http.post(
            f"/api/grip/{played['id']}",
            json={"op": "action", "action": action},
            headers={"Authorization": f"Bearer {played['token']}"},
        )
        assert r.status_code == 200

        def stored(game: dict) -> bool:  # asking the server would keep the game in use
            with sqlite3.connect(abuse_server.data_dir / DB_NAME) as db:
                return db.execute("SELECT 1 FROM grips WHERE id = ?", (game["id"],)).fetchone() is not None

        assert stored(idle) and stored(played)
        eventually(lambda: not stored(idle))  # memory forgets it first, in the same sweep
        assert (
            http.get(f"/api/grip/{idle['id']}", headers={"Authorization": f"Bearer {idle['token']}"}).status_code == 404
        )
        assert (
            http.get(f"/api/grip/{played['id']}", headers={"Authorization": f"Bearer {played['token']}"}).status_code
            == 200
        )


# ---------------------------------------------------------------- guessing


def test_wrong_room_codes_are_throttled_real_ones_are_not(abuse_server):
    with client(abuse_server, new_address()) as http:
        real = http.post("/api/rooms", json={"name": "Ann"}).json()["code"]
    guesser, player = new_address(), new_address()
    with client(abuse_server, player) as http:  # a player using a real code, often
        assert all(http.get(f"/api/rooms/{real}").status_code == 200 for _ in range(20))
    with client(abuse_server, guesser) as http:
        statuses = [http.get(f"/api/rooms/ZZZZZZ{c}").status_code for c in "ABCDEFGH"]
        assert statuses[:5] == [404] * 5 and statuses[5:] == [429] * 3, statuses
        assert int(http.get("/api/rooms/ZZZZZZZ").headers["Retry-After"]) >= 1
        # While throttled, a right guess is not told apart from a wrong one.
        assert http.get(f"/api/rooms/{real}").status_code == 429
        assert http.post(f"/api/rooms/{real}/join", json={"name": "Eve"}).status_code == 429
    with client(abuse_server, player) as http:
        assert http.get(f"/api/rooms/{real}").status_code == 200


def test_wrong_joins_and_grip_ids_count_as_misses(abuse_server):
    with client(abuse_server, new_address()) as http:
        statuses = [http.post(f"/api/rooms/QQQQQQ{c}/join", json={"name": "Eve"}).status_code for c in "ABCDEF"]
        assert statuses == [404] * 5 + [429], statuses
    with client(abuse_server, new_address()) as http:
        mine = http.post("/api/grip", json={}).json()
        statuses = [
            http.get(f"/api/grip/{mine['id']}", headers={"Authorization": f"Bearer wrong{i}"}).status_code
            for i in range(6)
        ]
        assert statuses == [404] * 5 + [429], statuses


def test_wrong_socket_tokens_are_throttled_with_1008(abuse_server):
    with client(abuse_server, new_address()) as http:
        grant = http.post("/api/rooms", json={"name": "Ann"}).json()
    guesser = new_address()

    async def attempt(token: str) -> tuple[int | None, str]:
        ws = await ws_connect(abuse_server, grant["code"], guesser)
        try:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            while True:
                await asyncio.wait_for(ws.recv(), 5)
        except websockets.ConnectionClosed:
            pass
        return ws.close_code, ws.close_reason

    async def main():
        wrong = [await attempt(f"guess-{i}") for i in range(5)]
        assert all(code == 1008 for code, _ in wrong)
        code, reason = await attempt(grant["token"])  # the right token, but throttled
        assert code == 1008 and reason != wrong[0][1], reason

    asyncio.run(main())
    with client(abuse_server, guesser) as http:  # one budget for all kinds of misses
        assert http.get("/api/rooms/ZZZZZZZ").status_code == 429


# ---------------------------------------------------------------- forwarded addresses


def test_limits_use_the_forwarded_address_only_from_a_trusted_proxy(abuse_server):
    # 127.0.0.1 is named as a trusted proxy here: each forwarded address has its own budget.
    with client(abuse_server, "127.0.0.1") as http:
        first = [
            http.post("/api/rooms", json={"name": "A"}, headers={"X-Forwarded-For": "203.0.113.5"}).status_code
            for _ in range(5)
        ]
        assert 429 in first
        assert (
            http.post("/api/rooms", json={"name": "A"}, headers={"X-Forwarded-For": "203.0.113.6"}).status_code == 200
        )
    # Any other address is not trusted: what it claims to forward is ignored.
    with client(abuse_server, new_address()) as http:
        statuses = [
            http.post("/api/rooms", json={"name": "A"}, headers={"X-Forwarded-For": f"203.0.113.{10 + i}"}).status_code
            for i in range(5)
        ]
        assert 429 in statuses, statuses


# ---------------------------------------------------------------- Origin


@pytest.mark.parametrize(
    "origin,accepted", [(None, True), ("own", True), ("http://evil.example", False), ("null", False)]
)
def test_origin_rule(abuse_server, origin, accepted):
    """No Origin: accepted (not a browser; see docs/security.md). A browser always sends
    one, and only the page's own origin (or DEMON_ALLOWED_ORIGINS) is accepted."""
    with client(abuse_server, new_address()) as http:
        grant = http.post("/api/rooms", json={"name": "Ann"}).json()
    headers = {} if origin is None else {"Origin": abuse_server.base if origin == "own" else origin}

    async def main():
        ws = await ws_connect(abuse_server, grant["code"], new_address(), headers)
        try:
            await ws.send(json.dumps({"type": "hello", "token": grant["token"]}))
            first = json.loads((await asyncio.wait_for(ws.recv(), 5)).split("\n")[0])
        except websockets.ConnectionClosed:
            first = None
        if accepted:
            assert first is not None and first["type"] == "welcome"
        else:
            assert first is None and ws.close_code == 1008
        await ws.close()

    asyncio.run(main())


def test_a_flood_of_refused_requests_makes_a_few_log_lines(abuse_server):
    """Hundreds of 429s from one address: the access log summarises them per interval
    (DEMON_REFUSAL_LOG_INTERVAL_S, 0.5 s here) instead of a line each."""
    from tests.server.test_abuse import LOG_INTERVAL_S

    source = new_address()
    with client(abuse_server, source) as http:
        for _ in range(3):
            http.post("/api/rooms", json={"name": "Ann"})
        time.sleep(LOG_INTERVAL_S)  # a fixed wait: the refusal interval of these three ends and is logged
        before = len(abuse_server.log())
        started = time.monotonic()
        statuses = [http.post("/api/rooms", json={"name": "Ann"}).status_code for _ in range(200)]
        assert statuses.count(429) >= 195
        # the last ones are summarised when their interval ends
        new = abuse_server.wait_for_log(
            lambda text: counted(text, "requests_refused", "status_429") >= statuses.count(429), since=before
        )
    lines = [line for line in new.splitlines() if source in line or "429" in line]
    assert len(lines) <= 2 * ((time.monotonic() - started) / LOG_INTERVAL_S + 1), lines[:10]


def test_grip_errors_carry_wire_codes_the_http_layer_maps(abuse_server):
    """The rooms layer's GripError has a wire code and no HTTP status; the
    API layer has a status for every code."""
    from app.grip.service.sessions import GripError
    from app.server.grip_http import STATUS

    err = GripError("illegal", "no")
    assert err.code == "illegal" and not hasattr(err, "status")
    assert set(STATUS) == GripError.CODES


@pytest.mark.slow
def test_one_client_cannot_fill_the_room_cap_and_the_cap_says_what_it_is(tmp_path):
    """Item 2 as the probe ran it, on a server of 4 rooms: one address is stopped by its
    own budget (429, which says so) long before the cap; when several addresses do fill
    the cap, its 503 says the server is full and when to come back; the rooms nobody
    opened are gone within DEMON_UNUSED_ROOM_TTL_S and the server takes rooms again."""
    from tests.support.live_server import LiveServer

    settings = {"max_rooms": 4, "room_create_burst": 2, "room_create_per_min": 1, "unused_room_ttl_s": 2}
    with LiveServer(tmp_path, **settings) as srv:
        a, b, c = new_address(), new_address(), new_address()
        with client(srv, a) as http:
            answers = [http.post("/api/rooms", json={"name": "A"}) for _ in range(4)]
            assert [r.status_code for r in answers] == [200, 200, 429, 429]
            assert "Too many new rooms from your address" in answers[2].json()["detail"]
        with client(srv, b) as http:
            assert [http.post("/api/rooms", json={"name": "B"}).status_code for _ in range(2)] == [200, 200]
        with client(srv, c) as http:
            full = http.post("/api/rooms", json={"name": "C"})
            assert full.status_code == 503 and "(4)" in full.json()["detail"], full.text
            assert int(full.headers["Retry-After"]) > 0
            eventually(lambda: http.get("/health").json()["rooms"] == 0)  # the four nobody opened
            assert http.post("/api/rooms", json={"name": "C"}).status_code == 200
