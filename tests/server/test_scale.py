"""Two real server processes behind a real HAProxy (docker/cluster.py), played through the
balancer with real WebSockets: routing by the room code's shard letter, a SIGKILL that
takes one process's rooms away and brings them back with every acknowledged move, and
draining (docs/self-hosting.md, "Several processes").

Skipped when haproxy is not installed (Debian: `apt-get install haproxy`; .ci/run does).
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import RACE_SEED
from tests.server.test_ws_play import seat_players, start_round
from tests.server.test_ws_reconnect import play_some
from tests.support.live_server import GENEROUS_LIMITS, free_port
from tests.support.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docker"))
from cluster import Cluster, haproxy_path  # noqa: E402

pytestmark = pytest.mark.skipif(
    haproxy_path() is None,
    reason="haproxy is not installed (apt-get install haproxy): the multi-process tests need a real load balancer",
)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    data = tmp_path_factory.mktemp("cluster")
    env = {f"DEMON_{k.upper()}": str(v) for k, v in GENEROUS_LIMITS.items()}
    env.update(
        {
            "DEMON_TEST_SEED": str(RACE_SEED),
            "DEMON_COUNTDOWN_S": "0.2",
            "DEMON_RATE_PER_S": "400",
            "DEMON_RATE_BURST": "400",
            "DEMON_RECONNECT_GRACE_S": "60",
            "DEMON_WINNABLE_READY": "0",
        }
    )
    with open(data / "cluster.log", "w") as log:
        c = Cluster(2, port=free_port(), ports=[free_port(), free_port()], data_dir=data, env=env, log=log)
        try:
            c.start()
            yield c
        finally:
            c.stop()


def round_of(state: dict) -> dict:
    """What the moves made of a round (not who is connected)."""
    rnd = state["round"]
    return {k: rnd[k] for k in ("seats", "foundations", "cards_home")}


async def settle(players: list) -> None:
    """Until every player of a room has seen the newest version any of them has."""
    newest = max(p.v for p in players)
    for p in players:
        await p.wait_for(lambda p=p: p.v >= newest)


async def rooms_on_both(cluster: Cluster) -> dict:
    """A room of two seated players on each process (new rooms go round-robin)."""
    rooms: dict[str, list] = {}
    for _ in range(6):
        players = await seat_players(cluster, 2)
        letter = players[0].code[0]
        if letter in rooms:
            for p in players:
                await p.close()
        else:
            rooms[letter] = players
        if set(rooms) == {"A", "B"}:
            return rooms
    raise AssertionError(f"new rooms all went to {sorted(rooms)}")


async def grips_on_both(http: httpx.AsyncClient) -> dict:
    """A Devil's Grip game with two moves made on each process."""
    games: dict[str, dict] = {}
    for _ in range(6):
        game = (await http.post("/api/grip", json={})).json()
        if game["id"][0] in games:
            continue
        token = game["token"]
        for _ in range(2):
            game = (
                await http.post(
                    f"/api/grip/{game['id']}",
                    json={"op": "action", "action": game["legal"][0]},
                    headers={"Authorization": f"Bearer {token}"},
                )
            ).json()
        games[game["id"][0]] = {**game, "token": token}
        if set(games) == {"A", "B"}:
            return games
    raise AssertionError(f"new games all went to {sorted(games)}")


async def kill_scenario(cluster: Cluster) -> None:
    rng = random.Random(17)
    async with httpx.AsyncClient(base_url=cluster.base, timeout=10) as http:
        rooms = await rooms_on_both(cluster)
        grips = await grips_on_both(http)
        for players in rooms.values():
            await start_round(players)
            for p in players:
                await play_some(p, 6, rng)
            await settle(players)
        a, b = rooms["A"], rooms["B"]
        acked = round_of(a[0].state)
        acked_v = a[0].v
        assert acked_v > 5

        cluster.kill("A")  # SIGKILL, mid-round: no goodbye, no last save
        for p in a:
            await p.wait_for(lambda p=p: p.close_code is not None)

        # B's room plays on as if nothing happened; its sockets never closed.
        v = b[0].v
        for p in b:
            await play_some(p, 4, rng)
        await settle(b)
        assert b[0].v > v and b[0].close_code is None and b[1].close_code is None
        assert round_of(b[0].state) == round_of(b[1].state)
        assert (await http.get(f"/api/rooms/{b[0].code}")).status_code == 200
        moved = await http.post(
            f"/api/grip/{grips['B']['id']}",
            json={"op": "undo"},
            headers={"Authorization": f"Bearer {grips['B']['token']}"},
        )
        assert moved.status_code == 200
        # Once the balancer's checks have seen A gone (a request in the second before gets a
        # 503 or a dropped connection; browsers retry either way), A's room answers 503, the
        # whole says A is down, and recent games still answer.
        await asyncio.to_thread(cluster.wait_servers, "new_rooms", {"B"})
        await asyncio.to_thread(cluster.wait_servers, "shard_A", set())
        assert (await http.get(f"/api/rooms/{a[0].code}")).status_code == 503
        whole = await http.get("/health/all")
        assert whole.status_code == 503 and whole.json()["status"] == "degraded"
        assert [p["status"] for p in whole.json()["processes"]].count("down") == 1
        history = await http.get("/api/history")
        assert history.status_code == 200 and history.json()["complete"] is False
        # New rooms meanwhile all go to B.
        for _ in range(3):
            assert (await http.post("/api/rooms", json={"name": "Cy"})).json()["code"][0] == "B"

        # A comes back with every acknowledged move: its players resume where they were.
        cluster.start_process("A")
        await asyncio.to_thread(cluster.wait_ready, 60, ["A"])
        for p in a:
            await p.connect(resume=True)
            await p.wait_for(lambda p=p: p.state["phase"] == "playing" and p.v is not None and p.v >= acked_v)
        assert round_of(a[0].state) == acked
        v = a[0].v
        await play_some(a[0], 3, rng)
        await settle(a)
        assert a[0].v > v and round_of(a[0].state) == round_of(a[1].state)
        game = await http.get(
            f"/api/grip/{grips['A']['id']}", headers={"Authorization": f"Bearer {grips['A']['token']}"}
        )
        assert game.status_code == 200 and game.json()["state"] == grips["A"]["state"]
        assert (await http.get("/health/all")).json()["status"] == "ok"
        for p in a + b:
            await p.close()


def test_sigkill_of_one_process_leaves_the_other_playing_and_loses_nothing(cluster):
    asyncio.run(kill_scenario(cluster))


async def drain_scenario(cluster: Cluster) -> None:
    async with httpx.AsyncClient(base_url=cluster.base, timeout=10) as http:
        rooms = await rooms_on_both(cluster)
        cluster.drain("A")
        await asyncio.to_thread(cluster.wait_servers, "new_rooms", {"B"})
        mine = httpx.get(cluster.process_base("A") + "/health/accepting")
        assert mine.status_code == 503 and mine.json()["accepting"] is False
        assert {p["shard"]: p["accepting"] for p in (await http.get("/health/all")).json()["processes"]} == {
            "A": False,
            "B": True,
        }
        # No new room or game goes to the draining process...
        for _ in range(4):
            assert (await http.post("/api/rooms", json={"name": "Cy"})).json()["code"][0] == "B"
            assert (await http.post("/api/grip", json={})).json()["id"][0] == "B"
        # ...while its own room still plays: a start, moves, and a new socket all reach it.
        a = rooms["A"]
        await start_round(a)
        await play_some(a[0], 3, random.Random(3))
        await a[0].close()
        await a[0].connect(resume=True)
        await settle(a)
        assert (await http.get(f"/api/rooms/{a[0].code}")).status_code == 200
        # SIGUSR2: it accepts new rooms again.
        cluster.drain("A", accepting=True)
        await asyncio.to_thread(cluster.wait_servers, "new_rooms", {"A", "B"})
        codes = [(await http.post("/api/rooms", json={"name": "Di"})).json()["code"] for _ in range(2)]
        assert {c[0] for c in codes} == {"A", "B"}
        for p in a + rooms["B"]:
            await p.close()


def test_a_draining_process_takes_no_new_rooms_and_keeps_its_own(cluster):
    asyncio.run(drain_scenario(cluster))


async def finished_match_on_each(cluster: Cluster) -> tuple[dict[str, str], dict[str, str]]:
    """A one-round match in a listed room on each process, ended by everyone's vote: the
    codes, and a token of a seat of each."""
    codes: dict[str, str] = {}
    tokens: dict[str, str] = {}
    for _ in range(6):
        players = await seat_players(cluster, 2, rounds=1, listed=True)
        letter = players[0].code[0]
        if letter not in codes:
            await start_round(players)
            for p in players:
                await p.send({"type": "vote", "end": True})
            for p in players:
                await p.wait_for(lambda p=p: p.state["phase"] == "match_over")
            codes[letter] = players[0].code
            tokens[letter] = players[0].token
        for p in players:
            await p.close()
        if set(codes) == {"A", "B"}:
            return codes, tokens
    raise AssertionError(f"new rooms all went to {sorted(codes)}")


def test_recent_games_and_logs_cover_every_process(cluster):
    codes, tokens = asyncio.run(finished_match_on_each(cluster))
    # A seat's own matches, asked through the balancer: the room's process answers.
    for letter, code in codes.items():
        mine = httpx.post(f"{cluster.base}/api/rooms/{code}/history", json={"token": tokens[letter]}).json()
        assert [g["code"] for g in mine["games"]] == [code]
    # Each process, asked directly or through the balancer, lists both processes' listed matches.
    for base in [cluster.base] + [cluster.process_base(x) for x in cluster.letters]:
        answer = httpx.get(base + "/api/history").json()
        assert answer["complete"] is True
        assert set(codes.values()) <= {g["code"] for g in answer["games"]}, base
    for letter in cluster.letters:  # what one peer asks another: its own only
        local = httpx.get(cluster.process_base(letter) + "/api/history?scope=local").json()
        assert local["shard"] == letter and {g["code"][0] for g in local["games"]} == {letter}
    # One log, every process: each line says which process wrote it.
    log = (cluster.data_dir / "cluster.log").read_text()
    for letter, code in codes.items():
        assert f"{letter} | " in log and f"shard={letter} event=room_created code={code}" in log


def test_the_balancer_sets_the_forwarded_address_itself(cluster):
    """A client's own X-Forwarded-For is dropped by the balancer, so a process that trusts
    the balancer cannot be told a made-up address (per-address limits and logs)."""
    httpx.get(cluster.base + "/api/rooms/ZZZZZZZ", headers={"X-Forwarded-For": "203.0.113.77"})
    httpx.get(cluster.base + "/health", headers={"X-Forwarded-For": "203.0.113.77"})
    log_file = cluster.data_dir / "cluster.log"
    wait_until(lambda: "GET /api/rooms/ZZZZZZZ" in log_file.read_text(), what="the request in the log")
    log = log_file.read_text()
    assert "GET /api/rooms/ZZZZZZZ" in log and "203.0.113.77" not in log


def test_the_processes_believe_the_balancer_about_the_client_address(cluster):
    """The server trusts no proxy by default (test_trusted_proxies.py); docker/cluster.py names the
    balancer, so a process sees (and limits, and logs) the player's own address."""
    with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.87")) as http:
        assert http.get(cluster.base + "/api/rooms/ZZZZZZY").status_code in (404, 429)
    wait_until(
        lambda: any(
            "127.0.0.87" in line and "GET /api/rooms/ZZZZZZY" in line
            for line in (cluster.data_dir / "cluster.log").read_text().splitlines()
        ),
        what="the player's own address in the process's log",
    )


def test_peer_answers_are_kept_a_second(cluster):
    """Hammering /health/all on one process asks its peer about once a second, not once
    per request."""

    def peer_health_lines() -> int:
        log = (cluster.data_dir / "cluster.log").read_text()
        return sum(1 for line in log.splitlines() if line.startswith("B | ") and '"GET /health HTTP' in line)

    before = peer_health_lines()
    t0 = time.monotonic()
    with httpx.Client(base_url=cluster.process_base("A")) as http:
        for _ in range(40):
            assert http.get("/health/all").status_code == 200
    elapsed = time.monotonic() - t0
    time.sleep(0.5)  # a fixed wait: B's log lines for A's last asks are written (a count, no line to wait for)
    # A's asks (one per second at most) plus the balancer's own /health check of B (every 2 s).
    assert peer_health_lines() - before <= 1.5 * elapsed + 4 < 40
