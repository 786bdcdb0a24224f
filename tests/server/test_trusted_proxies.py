"""X-Forwarded-For is believed only from proxies named in
DEMON_TRUSTED_PROXIES. By default nobody is named, not even the loopback: an ssh -L,
socat or tunnel agent on the server's machine connects from 127.0.0.1 and passes on
whatever header its client wrote, which used to buy a fresh budget per request.
"""

from __future__ import annotations

import time

import pytest

from tests.server.test_abuse import client, closed_by_server, raw, served
from tests.support.live_server import LiveServer
from tests.support.waiting import wait_until


@pytest.fixture(scope="module")
def untrusting_server(tmp_path_factory):
    """DEMON_TRUSTED_PROXIES left unset; small budgets and caps."""
    srv = LiveServer(
        tmp_path_factory.mktemp("untrusting"),
        room_create_per_min=6,
        room_create_burst=3,
        grip_create_per_min=6,
        grip_create_burst=3,
        max_connections_per_addr=6,
        request_timeout_s=5,
    )
    with srv:
        yield srv


def test_a_forwarded_address_from_the_loopback_is_not_believed_by_default(untrusting_server):
    """A fresh X-Forwarded-For per request from 127.0.0.1 no longer buys a fresh budget:
    the loopback's own budget runs out, for rooms and for Devil's Grip games."""
    with client(untrusting_server, "127.0.0.1") as http:
        rooms = [
            http.post("/api/rooms", json={"name": "A"}, headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code
            for i in range(8)
        ]
        games = [
            http.post("/api/grip", json={}, headers={"X-Forwarded-For": f"198.51.100.{i}"}).status_code
            for i in range(8)
        ]
    assert rooms.count(200) == 3 and rooms.count(429) == 5, rooms
    assert games.count(200) == 3 and games.count(429) == 5, games
    assert "203.0.113." not in untrusting_server.log()


def test_the_loopback_is_held_to_the_per_address_connection_cap(untrusting_server):
    """Half-open connections from 127.0.0.1 count against its own per-address cap, like
    any other address's (they used to be exempt as a "trusted proxy")."""
    held = [raw(untrusting_server, "127.0.0.1") for _ in range(6)]
    for s in held:
        s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    extra = [raw(untrusting_server, "127.0.0.1") for _ in range(5)]
    assert all(closed_by_server(s, 0.5) for s in extra)
    for s in held + extra:
        s.close()
    wait_until(lambda: served(untrusting_server, "127.0.0.1"), what="the loopback's places back")
    with client(untrusting_server, "127.0.0.1") as http:
        assert http.get("/health").status_code == 200
