"""Admission that keeps a share for newcomers, against a real uvicorn.

The attacker connects from many loopback addresses spread over several /24s (all of
127/8 reaches a server on 127.0.0.1), the normal visitor from a /24 of its own:
* authenticated idle seats cannot take the last DEMON_CONNECTION_RESERVE places: the
  seat past them is closed with 1013, and the visitor's page and /health are answered;
* half-open connections (slowloris) past the total cap make way for the newcomer,
  oldest first, instead of keeping it out;
* one /24 holds at most DEMON_MAX_CONNECTIONS_PER_PREFIX connections together.
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest
import websockets

from tests.server.test_abuse import client, closed_now, raw, served, ws_connect
from tests.support.live_server import LiveServer
from tests.support.waiting import wait_until

TOTAL = 60
RESERVE = 10
PER_ADDR = 8
PER_PREFIX = 24


@pytest.fixture(scope="module")
def admission_server(tmp_path_factory):
    srv = LiveServer(
        tmp_path_factory.mktemp("admission"),
        max_connections=TOTAL,
        connection_reserve=RESERVE,
        max_connections_per_addr=PER_ADDR,
        max_connections_per_prefix=PER_PREFIX,
        request_timeout_s=4,
        hello_timeout_s=3,
        refusal_log_interval_s=0.5,
    )
    with srv:
        yield srv


def spread(network: int, n: int, per_prefix: int = 20) -> list[str]:
    """`n` loopback addresses, `per_prefix` to a /24, from 127.0.`network`.0/24 on."""
    return [f"127.0.{network + i // per_prefix}.{10 + i % per_prefix}" for i in range(n)]


def visitor_is_served(server: LiveServer, source: str) -> None:
    with client(server, source) as http:
        assert http.get("/health").status_code == 200
        assert http.get("/").status_code == 200
        assert http.post("/api/rooms", json={"name": "Visitor"}).status_code == 200


def test_idle_authenticated_seats_cannot_take_the_reserve(admission_server):
    """60 seats from 60 addresses in three /24s, authenticated and then idle (answering
    pings): only TOTAL - RESERVE are let in, the rest are told 1013 (try again later),
    and a visitor from elsewhere still gets the page, /health and a new room. Before,
    the 60 seats took every place and the visitor's connection was closed unanswered."""

    async def main() -> None:
        grants = []
        for r in range(8):
            with client(admission_server, f"127.0.9.{10 + r}") as http:
                room = http.post("/api/rooms", json={"name": "Host", "max_players": 8}).json()
                grants.append((room["code"], room["token"]))
                for i in range(7):
                    joined = http.post(f"/api/rooms/{room['code']}/join", json={"name": f"P{i}"}).json()
                    grants.append((room["code"], joined["token"]))
        seats, refused = [], []
        for source, (code, token) in zip(spread(10, 60), grants):
            ws = await ws_connect(admission_server, code, source)
            await ws.send(json.dumps({"type": "hello", "token": token}))
            try:
                first = json.loads((await asyncio.wait_for(ws.recv(), 5)).split("\n")[0])
                assert first["type"] == "welcome"
                seats.append(ws)
            except websockets.ConnectionClosed:
                refused.append((ws.close_code, ws.close_reason))
        assert len(seats) == TOTAL - RESERVE, (len(seats), refused[:3])
        assert refused and all(code == 1013 for code, _ in refused), refused[:3]
        await asyncio.to_thread(visitor_is_served, admission_server, "127.0.200.10")
        for ws in seats:  # the seats were kept all along
            assert ws.close_code is None
            await ws.close()

    asyncio.run(main())


def test_half_open_connections_past_the_cap_make_way_for_a_visitor(admission_server):
    """Slow request heads from 80 addresses in four /24s (more than the total cap): the
    visitor is answered at once, and the oldest half-open connections are the ones that
    went. Before, every place was held until the request deadline and the visitor's
    connection was closed unanswered."""
    sockets = []
    for source in spread(20, 80):
        s = raw(admission_server, source)
        s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        sockets.append(s)
        time.sleep(0.002)  # one at a time, so "oldest" is the order they were opened in
    wait_until(lambda: all(closed_now(s) for s in sockets[: 80 - TOTAL]), timeout=3)  # the cap made way
    started = time.monotonic()
    visitor_is_served(admission_server, "127.0.201.10")
    assert time.monotonic() - started < 2  # not after the request deadline (4 s) freed places
    open_now = [s for s in sockets if not closed_now(s)]
    assert len(open_now) <= TOTAL - 1
    assert all(closed_now(s) for s in sockets[: 80 - TOTAL])  # the oldest made way first
    for s in sockets:
        s.close()


def test_one_prefix_holds_at_most_its_cap(admission_server):
    """Four addresses of one /24, eight connections each (within the per-address cap):
    only PER_PREFIX are held, a fifth address of that /24 is refused too, and an address
    of another /24 is served."""
    held = []
    for source in spread(40, 4):
        for _ in range(PER_ADDR):
            held.append(raw(admission_server, source))
    wait_until(lambda: len([s for s in held if not closed_now(s)]) <= PER_PREFIX, timeout=3)
    open_now = [s for s in held if not closed_now(s)]
    assert len(open_now) == PER_PREFIX
    neighbour = raw(admission_server, "127.0.40.99")
    wait_until(lambda: closed_now(neighbour), timeout=3, what="a fifth address of the /24 refused")
    visitor_is_served(admission_server, "127.0.41.10")
    for s in held + [neighbour]:
        s.close()
    wait_until(lambda: served(admission_server, "127.0.40.99"), what="the prefix's places back")
    visitor_is_served(admission_server, "127.0.40.99")  # the prefix gets its places back


def test_addresses_share_caps_per_ipv4_24_and_per_ipv6_48():
    from app.server.guard import prefix_key

    assert prefix_key("192.0.2.7") == prefix_key("192.0.2.250") == "192.0.2.0/24"
    assert prefix_key("::ffff:192.0.2.7") == "192.0.2.0/24"
    assert prefix_key("2001:db8:1:ff00::1") == prefix_key("2001:db8:1:2::9") == "2001:db8:1::/48"
    assert prefix_key("2001:db8:2::1") != prefix_key("2001:db8:1::1")
