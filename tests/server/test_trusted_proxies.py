"""X-Forwarded-For is believed only from proxies named in
DEMON_TRUSTED_PROXIES. By default nobody is named, not even the loopback: an ssh -L,
socat or tunnel agent on the server's machine connects from 127.0.0.1 and passes on
whatever header its client wrote, which used to buy a fresh budget per request. And from
a trusted proxy the header is walked from the right: the client is the right-most entry
no trusted proxy wrote, never one the client wrote itself (real HAProxy and forged
headers below).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import httpx
import pytest

from app.server.guard import ForwardedFor
from tests.server.test_abuse import client, closed_by_server, raw, served
from tests.support.live_server import ROOT, LiveServer, free_port
from tests.support.waiting import wait_until

sys.path.insert(0, str(ROOT / "docker"))
from cluster import haproxy_path


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


# ---------------------------------------------------------------- walked from the right


def test_forwarded_for_is_walked_from_the_right_past_trusted_proxies_only():
    """The client is the right-most entry no trusted proxy wrote; what lies left of it is
    the client's own writing and is never believed."""
    two = ForwardedFor("10.0.0.1, 10.0.0.2")
    # the balancer (10.0.0.2) behind the self-hoster's proxy (10.0.0.1): the client's forged
    # entry comes first, then the address the proxy saw, then the proxy's own
    assert two.client("10.0.0.2", ["9.9.9.9, 203.0.113.5, 10.0.0.1"]) == "203.0.113.5"
    assert two.client("10.0.0.2", ["10.9.9.9, 8.8.8.8"]) == "8.8.8.8"
    # HAProxy adds a header of its own: several headers read as one list, in order
    assert two.client("10.0.0.2", ["9.9.9.9", "203.0.113.5", "10.0.0.1"]) == "203.0.113.5"
    # ports and brackets, as proxies write them
    assert two.client("10.0.0.2", ["[2001:db8::7]:4711, 10.0.0.1:80"]) == "2001:db8::7"
    # only trusted proxies on the path: the left-most is a machine of one's own
    assert two.client("10.0.0.2", ["10.0.0.1"]) == "10.0.0.1"
    # a connection from anybody else: its header is not read at all
    assert two.client("203.0.113.9", ["10.0.0.7"]) is None
    assert two.client("10.0.0.2", [""]) is None


def test_a_star_believes_one_hop_the_entry_the_proxy_itself_wrote():
    star = ForwardedFor("*")
    assert star.client("172.30.137.2", ["10.9.9.9, 8.8.8.8"]) == "8.8.8.8"
    assert star.client("172.30.137.2", ["10.9.9.9", "198.51.100.4"]) == "198.51.100.4"


@pytest.fixture(scope="module")
def star_server(tmp_path_factory):
    """DEMON_TRUSTED_PROXIES="*" (what compose.scale.yml used to set), a small miss budget."""
    srv = LiveServer(tmp_path_factory.mktemp("star"), trusted_proxies="*", miss_burst=5, miss_per_min=1)
    with srv:
        yield srv


def test_with_a_star_a_client_written_address_reads_no_metrics(star_server):
    """The headers the self-hoster's proxy and the balancer produce for a client that wrote
    `X-Forwarded-For: 10.9.9.9`: the left-most, private, address is the client's
    invention; the right-most, public, one is who connected."""
    with client(star_server, "127.0.0.1") as http:
        forged = http.get("/metrics", headers={"X-Forwarded-For": "10.9.9.9, 8.8.8.8"})
        assert forged.status_code == 404 and "demon_build_info" not in forged.text
        ours = http.get("/metrics", headers={"X-Forwarded-For": "8.8.8.8, 10.0.0.5"})
        assert ours.status_code == 200 and "demon_build_info" in ours.text


def test_behind_haproxy_keeping_the_header_forged_addresses_buy_no_misses(star_server, tmp_path):
    """Real HAProxy, as docker/haproxy-cfg.sh writes it with HAPROXY_KEEP_FORWARDED=1 (the
    setup behind a proxy of one's own): a client sending a new X-Forwarded-For with every
    wrong code is still one address, refused once its misses are spent."""
    binary = haproxy_path()
    if binary is None:
        pytest.skip("haproxy is not installed (apt-get install haproxy)")
    port = free_port()
    cfg = tmp_path / "haproxy.cfg"
    env = {**os.environ, "HAPROXY_KEEP_FORWARDED": "1", "HAPROXY_STATS": ""}
    cfg.write_text(
        subprocess.run(
            ["sh", str(ROOT / "docker" / "haproxy-cfg.sh"), f"127.0.0.1:{port}", f"A=127.0.0.1:{star_server.port}"],
            check=True,
            capture_output=True,
            text=True,
            env=env,
        ).stdout
    )
    balancer = subprocess.Popen([binary, "-db", "-f", str(cfg)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        transport = httpx.HTTPTransport(local_address="127.0.0.94")
        with httpx.Client(base_url=base, transport=transport, timeout=5) as http:

            def up() -> bool:
                try:
                    return http.get("/health").status_code == 200
                except httpx.HTTPError:
                    return False

            wait_until(up, what="the balancer up")
            statuses = [
                http.get("/api/rooms/ZZZZZZQ", headers={"X-Forwarded-For": f"198.51.100.{i}"}).status_code
                for i in range(40)
            ]
        assert statuses[:5] == [404] * 5 and set(statuses[5:]) == {429}, statuses
        # another address is not refused: the misses were counted against 127.0.0.94
        with client(star_server, "127.0.0.95") as direct:
            assert direct.get("/api/rooms/ZZZZZZQ").status_code == 404
    finally:
        balancer.terminate()
        balancer.wait(10)
