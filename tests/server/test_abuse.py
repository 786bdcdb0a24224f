"""Hostile connections against a real uvicorn: sockets that never
finish their request head, idle TCP, too many connections from one address, and the log
while they are refused.

Every test connects from its own loopback address (127.0.0.N: all of 127/8 reaches a
server listening on 127.0.0.1), so per-address limits of one test do not leak into the
next, and "another client" is simply another address. The server runs with small limits
so each case takes seconds.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import socket
import time

import httpx
import pytest
import websockets

from tests.support.live_server import LiveServer
from tests.support.waiting import wait_until

REQUEST_TIMEOUT_S = 1.5
HELLO_TIMEOUT_S = 1.0
PER_ADDR = 8
TOTAL = 60

ABUSE_SETTINGS = {
    "request_timeout_s": REQUEST_TIMEOUT_S,
    "hello_timeout_s": HELLO_TIMEOUT_S,
    "max_connections": TOTAL,
    "max_connections_per_addr": PER_ADDR,
    "room_create_per_min": 6,
    "room_create_burst": 3,
    "join_per_min": 6,
    "join_burst": 3,
    "grip_create_per_min": 6,
    "grip_create_burst": 3,
    "miss_per_min": 6,
    "miss_burst": 5,
    "unused_room_ttl_s": 3,
    "grip_unplayed_ttl_s": 2,
    "countdown_s": 0.2,
    "refusal_log_interval_s": 0.5,
    # Named, as a self-hoster names the proxy in front: no proxy is trusted by default.
    "trusted_proxies": "127.0.0.1",
    # Every test here connects from 127.0.0.N, one /24: the prefix cap is tested in
    # tests/server/test_admission.py, with addresses of several /24s.
    "max_connections_per_prefix": 100_000,
}
# Short, so that waiting out an interval costs little; a flood still lasts several intervals.
LOG_INTERVAL_S = 0.5

_addresses = itertools.count(10)


def new_address() -> str:
    """A loopback address no other test of the session uses."""
    return f"127.0.0.{next(_addresses)}"


@pytest.fixture(scope="session")
def abuse_server(tmp_path_factory):
    srv = LiveServer(tmp_path_factory.mktemp("abuse"), **ABUSE_SETTINGS)
    with srv:
        yield srv


def client(server: LiveServer, source: str, **kw) -> httpx.Client:
    return httpx.Client(base_url=server.base, transport=httpx.HTTPTransport(local_address=source), timeout=5, **kw)


def served(server: LiveServer, source: str) -> bool:
    """Whether `source` gets an answer to /health now (a condition to wait for)."""
    try:
        with client(server, source) as http:
            return http.get("/health").status_code == 200
    except httpx.HTTPError:
        return False


def raw(server: LiveServer, source: str) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", server.port), timeout=5, source_address=(source, 0))
    return s


def counted(text: str, event: str, key: str) -> int:
    """The sum of `key=N` over the log lines of `event`: what throttled summaries counted."""
    return sum(
        int(line.split(f" {key}=")[1].split()[0])
        for line in text.splitlines()
        if f"event={event} " in line and f" {key}=" in line
    )


def closed_by_server(s: socket.socket, wait: float) -> bool:
    """Whether the server closed this socket (EOF or reset) within `wait` seconds."""
    s.settimeout(wait)
    try:
        while True:
            data = s.recv(4096)
            if not data:
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


async def ws_connect(server: LiveServer, code: str, source: str, headers=None):
    return await websockets.connect(
        f"{server.ws_base}/ws/{code}",
        additional_headers=headers,
        compression=None,
        local_addr=(source, 0),
        open_timeout=5,
    )


def test_slow_heads_and_idle_connections_are_closed_in_time_and_others_served(abuse_server):
    """Sockets that trickle an unfinished request head, and sockets that send nothing,
    are closed within DEMON_REQUEST_TIMEOUT_S; meanwhile another client is served."""
    slow = [raw(abuse_server, new_address()) for _ in range(6)]
    idle = [raw(abuse_server, new_address()) for _ in range(6)]
    started = time.monotonic()
    for s in slow:
        s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")

    async def trickle() -> None:
        """A byte every 0.3 s, until the server has closed every socket (or 2 s past the
        deadline, when the checks below fail)."""
        while time.monotonic() < started + REQUEST_TIMEOUT_S + 2 and not all(map(closed_now, slow + idle)):
            await asyncio.sleep(0.3)
            for s in slow:
                try:
                    s.sendall(b"a")
                except OSError:
                    pass

    async def main() -> None:
        task = asyncio.create_task(trickle())
        with client(abuse_server, new_address()) as http:
            assert (await asyncio.to_thread(http.get, "/health")).status_code == 200
        await task

    asyncio.run(main())
    # Every one of them is gone by now (the bound plus a margin for a loaded machine).
    for s in slow + idle:
        assert closed_by_server(s, max(0.1, started + REQUEST_TIMEOUT_S + 3 - time.monotonic()))
        s.close()
    assert time.monotonic() - started < REQUEST_TIMEOUT_S + 4


def test_slow_body_is_closed_too(abuse_server):
    """A complete head and then a body that never arrives: the same bound."""
    s = raw(abuse_server, new_address())
    s.sendall(
        b'POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na'
    )
    started = time.monotonic()
    reply = b""
    s.settimeout(REQUEST_TIMEOUT_S + 3)
    try:
        while chunk := s.recv(4096):
            reply += chunk
    except (ConnectionResetError, TimeoutError):
        pass
    assert time.monotonic() - started < REQUEST_TIMEOUT_S + 2.5
    assert closed_by_server(s, 0.5)
    s.close()


def test_websocket_that_never_says_hello_is_closed(abuse_server):
    async def main():
        with client(abuse_server, new_address()) as http:
            code = http.post("/api/rooms", json={"name": "Ann"}).json()["code"]
        ws = await ws_connect(abuse_server, code, new_address())
        started = time.monotonic()
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), HELLO_TIMEOUT_S + 3)
        assert ws.close_code == 1008
        assert time.monotonic() - started < HELLO_TIMEOUT_S + 2

    asyncio.run(main())


def closed_now(s: socket.socket) -> bool:
    """Whether the server has closed this socket already (without waiting)."""
    s.setblocking(False)
    try:
        return s.recv(4096) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        s.setblocking(True)


async def seated_sockets(server: LiveServer, source: str, n: int) -> list:
    """`n` authenticated room sockets from `source`: connections that stay open (an idle
    TCP connection would be closed by the request deadline)."""
    grants = []
    with client(server, new_address()) as http:
        code = http.post("/api/rooms", json={"name": "Ann", "max_players": 8}).json()["code"]
    for i in range(n):
        if i % 3 == 0:
            joiner = new_address()
        with client(server, joiner) as http:
            grants.append(http.post(f"/api/rooms/{code}/join", json={"name": f"P{i}"}).json())
    sockets = []
    for grant in grants:
        ws = await ws_connect(server, code, source)
        await ws.send(json.dumps({"type": "hello", "token": grant["token"]}))
        assert json.loads((await ws.recv()).split("\n")[0])["type"] == "welcome"
        sockets.append(ws)
    return sockets


def test_connections_per_address_are_capped_and_refusals_logged_once_per_interval(abuse_server):
    """One address cannot hold more than DEMON_MAX_CONNECTIONS_PER_ADDR connections: the
    rest are closed at once, and hundreds of refusals make a line or two of log, not
    hundreds. Another address is still served."""
    attacker = new_address()

    async def main():
        held = await seated_sockets(abuse_server, attacker, PER_ADDR)
        # A fixed wait: one refusal log interval elapses, so what earlier tests had
        # refused is logged by now and not counted below.
        time.sleep(LOG_INTERVAL_S)
        log_before = abuse_server.log()
        started = time.monotonic()
        refused = 0
        for _ in range(300):
            try:
                s = raw(abuse_server, attacker)
            except OSError:
                refused += 1
                continue
            closed = closed_by_server(s, 0.5)  # well within the request deadline
            s.close()
            if not closed:
                break
            refused += 1
        assert refused == 300
        with client(abuse_server, new_address()) as http:
            assert http.get("/health").status_code == 200
        for ws in held:
            await ws.close()
        # the address gets its connections back once the server has seen them close
        wait_until(lambda: served(abuse_server, attacker), what="the attacker's address served again")
        # the last refusals are summarised when their interval ends
        new = abuse_server.wait_for_log(
            lambda text: counted(text, "connections_refused", "per_addr") >= 300, since=len(log_before)
        )
        new_lines = new.splitlines()
        refusal_lines = [line for line in new_lines if "event=connections_refused" in line]
        intervals = (time.monotonic() - started) / LOG_INTERVAL_S
        assert 1 <= len(refusal_lines) <= intervals + 1, refusal_lines
        assert counted(new, "connections_refused", "per_addr") == 300, refusal_lines
        assert not any("Too many open files" in line for line in new_lines)

    asyncio.run(main())


def test_total_connections_are_capped(abuse_server):
    """Past DEMON_MAX_CONNECTIONS, from however many addresses, no more connections are
    held: a newcomer takes the place of the oldest idle one (it used to be
    closed at once, which let idle connections lock everyone out), so the newcomer is
    answered and the oldest are the ones closed."""
    held = []
    sources = [new_address() for _ in range(TOTAL // PER_ADDR + 2)]
    for source in sources:
        for _ in range(PER_ADDR):
            held.append(raw(abuse_server, source))
            time.sleep(0.002)  # one at a time, so "oldest" is the order they were opened in
    # within the request deadline: only the cap closes anything, the first ones first
    wait_until(lambda: all(closed_now(s) for s in held[: len(held) - TOTAL]), timeout=3)
    still_open = [s for s in held if not closed_now(s)]
    assert TOTAL - 5 <= len(still_open) <= TOTAL
    assert all(closed_now(s) for s in held[: len(held) - TOTAL])  # the first ones made way
    with client(abuse_server, new_address()) as http:
        assert http.get("/health").status_code == 200
    for s in held:
        s.close()


def test_websockets_per_forwarded_address_are_capped_behind_a_trusted_proxy(abuse_server):
    """Behind a trusted proxy (127.0.0.1, named in DEMON_TRUSTED_PROXIES) every connection comes from the
    proxy, so the cap applies to the address the proxy forwards, per WebSocket."""

    async def main():
        with client(abuse_server, new_address()) as http:
            code = http.post("/api/rooms", json={"name": "Ann"}).json()["code"]
        forwarded = {"X-Forwarded-For": "198.51.100.77"}
        sockets = [await ws_connect(abuse_server, code, "127.0.0.1", forwarded) for _ in range(PER_ADDR)]
        extra = await ws_connect(abuse_server, code, "127.0.0.1", forwarded)
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(extra.recv(), 3)
        assert extra.close_code == 1008
        other = await ws_connect(abuse_server, code, "127.0.0.1", {"X-Forwarded-For": "198.51.100.78"})
        await other.send(json.dumps({"type": "ping"}))  # not a hello: refused by the room, not the cap
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(other.recv(), 3)
        assert other.close_reason != extra.close_reason
        for ws in sockets:
            await ws.close()

    asyncio.run(main())


class FileLimitedServer(LiveServer):
    """A server started with a small open-file limit (soft and hard), as a container or
    a systemd unit may give it."""

    def __init__(self, data_dir, nofile: int, **settings) -> None:
        super().__init__(data_dir, **settings)
        self.nofile = nofile

    def in_child(self) -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (self.nofile, self.nofile))


@pytest.mark.slow
def test_the_connection_cap_is_kept_below_the_file_limit(tmp_path):
    """With 160 files allowed and the default cap of 1000 connections, a flood used to
    run the process out of descriptors: accept() failed with EMFILE, nobody could
    connect, and asyncio logged the failure again and again. The cap is lowered to fit,
    so the surplus is refused by the cap, the log has no EMFILE, and the server serves
    again as soon as the flood ends."""
    with FileLimitedServer(tmp_path, nofile=160, max_connections_per_addr=40) as srv:
        flood = []
        for _ in range(6):
            source = new_address()
            for _ in range(40):
                try:
                    flood.append(raw(srv, source))
                except OSError:
                    pass
        # A fixed wait: the flood is held for a while, so the accept loop meets it all
        # (refusals, evictions, any EMFILE) before it ends.
        time.sleep(1.5)
        for s in flood:
            s.close()
        fresh = new_address()
        wait_until(lambda: served(srv, fresh), what="served again after the flood")
        log = srv.log()
        assert "out of system resource" not in log and "Too many open files" not in log, log[-2000:]
        # A burst can still meet EMFILE for a moment (asyncio accepts up to its backlog at
        # once before the refused sockets are closed); then it is one summary line, not a flood.
        assert log.count("out_of_resources=") <= 3
        assert "DEMON_MAX_CONNECTIONS=1000 lowered to" in log
        assert "per_addr=" not in log and "evicted=" in log  # made way under the total cap


def test_a_flood_of_malformed_requests_makes_a_few_log_lines(abuse_server):
    """uvicorn warns once per malformed request ("Invalid HTTP request received."); 200
    of them make a summary line per interval instead."""
    source = new_address()
    time.sleep(LOG_INTERVAL_S)  # a fixed wait: earlier tests' refusal interval ends and is logged
    before = len(abuse_server.log())
    started = time.monotonic()
    for _ in range(200):
        s = raw(abuse_server, source)
        s.sendall(b"NOT HTTP AT ALL\r\n\r\n")
        assert closed_by_server(s, 2)
        s.close()
    # the last ones are summarised when their interval ends
    new = abuse_server.wait_for_log(lambda text: counted(text, "log_flood", "invalid_request") >= 200, since=before)
    lines = new.splitlines()
    assert len(lines) <= 2 * ((time.monotonic() - started) / LOG_INTERVAL_S + 1), lines[:10]
    assert counted(new, "log_flood", "invalid_request") == 200, lines


def test_addresses_are_keyed_per_ipv4_address_and_per_ipv6_64():
    from app.server.guard import TrustedProxies, address_key

    assert address_key("2001:db8:1:2::1") == address_key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7" == address_key("192.0.2.7")
    trusted = TrustedProxies("10.0.0.0/8, 127.0.0.1,::1")
    assert "10.9.8.7" in trusted and "127.0.0.1" in trusted and "::1" in trusted
    assert "11.0.0.1" not in trusted and "127.0.0.2" not in trusted and None not in trusted
    assert "127.0.0.1" not in TrustedProxies("")
