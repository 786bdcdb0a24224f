"""Two and three real server processes behind a real HAProxy (docker/cluster.py), played
through the balancer with real WebSockets: routing by the room code's shard letter, every
kind of link opened many times with the same answer each time (docs/self-hosting.md, the
table of "Several processes"), the daily race's one table and one attempt, requests sent
to the wrong process that are never counted as guesses, a SIGKILL that takes one
process's rooms away and brings them back with every acknowledged move, and draining.

Skipped when haproxy is not installed (Debian: `apt-get install haproxy`; .ci/run does).
"""

from __future__ import annotations

import asyncio
import random
import socket
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from tests.server.conftest import RACE_SEED
from tests.server.test_ws_play import seat_players, start_round
from tests.server.test_ws_reconnect import play_some
from tests.support.live_server import GENEROUS_LIMITS, free_port
from tests.support.waiting import wait_until
from tests.support.ws_client import Player, join_room

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docker"))
from cluster import Cluster, haproxy_path  # noqa: E402

pytestmark = pytest.mark.skipif(
    haproxy_path() is None,
    reason="haproxy is not installed (apt-get install haproxy): the multi-process tests need a real load balancer",
)


def running_cluster(tmp_path_factory, processes: int, **settings: str):
    data = tmp_path_factory.mktemp(f"cluster{processes}")
    env = {f"DEMON_{k.upper()}": str(v) for k, v in GENEROUS_LIMITS.items()}
    env.update(
        {
            "DEMON_TEST_SEED": str(RACE_SEED),
            "DEMON_COUNTDOWN_S": "0.2",
            "DEMON_RATE_PER_S": "400",
            "DEMON_RATE_BURST": "400",
            "DEMON_RECONNECT_GRACE_S": "60",
            "DEMON_WINNABLE_READY": "0",
            # the daily race: a short round of quick bots
            "DEMON_DAILY_TIME_LIMIT_S": "3",
            "DEMON_BOT_THINK_SCALE": "0.2",
        }
    )
    env.update({f"DEMON_{k.upper()}": v for k, v in settings.items()})
    with open(data / "cluster.log", "w") as log:
        c = Cluster(
            processes, port=free_port(), ports=[free_port() for _ in range(processes)], data_dir=data, env=env, log=log
        )
        try:
            c.start()
            yield c
        finally:
            c.stop()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    yield from running_cluster(tmp_path_factory, 2)


# Three processes, and the default miss budget's size: a link of one process that the
# balancer or a peer counted as a wrong guess would soon be refused (429).
SMALL_MISS_BURST = 6


@pytest.fixture(scope="module")
def cluster3(tmp_path_factory):
    yield from running_cluster(tmp_path_factory, 3, miss_burst=str(SMALL_MISS_BURST), miss_per_min="1")


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
    per request. (The balancer's own health checks, every second or two, are not in the
    log at info level at all.)"""

    def peer_health_lines() -> int:
        log = (cluster.data_dir / "cluster.log").read_text()
        return sum(1 for line in log.splitlines() if line.startswith("B | ") and '"GET /health?from=peer HTTP' in line)

    time.sleep(1.1)  # past what an earlier test had kept: the first ask here reaches B
    before = peer_health_lines()
    t0 = time.monotonic()
    with httpx.Client(base_url=cluster.process_base("A")) as http:
        for _ in range(40):
            assert http.get("/health/all").status_code == 200
    elapsed = time.monotonic() - t0
    time.sleep(0.5)  # a fixed wait: B's log lines for A's last asks are written (a count, no line to wait for)
    # A's asks: one per second at most
    assert 1 <= peer_health_lines() - before <= 1.5 * elapsed + 2 < 40
    log = (cluster.data_dir / "cluster.log").read_text()
    assert '"GET /health/accepting HTTP' not in log and '"GET /health HTTP' not in log


# ---------------------------------------------------------------- every link, many times

TIMES = 10


async def rooms_on_each(cluster: Cluster, **options) -> dict[str, list]:
    """A room of two seated players on every process (new rooms go round-robin)."""
    rooms: dict[str, list] = {}
    for _ in range(4 * len(cluster.letters)):
        players = await seat_players(cluster, 2, **options)
        letter = players[0].code[0]
        if letter in rooms:
            for p in players:
                await p.close()
        else:
            rooms[letter] = players
        if set(rooms) == set(cluster.letters):
            return rooms
    raise AssertionError(f"new rooms went only to {sorted(rooms)}")


async def same_every_time(http: httpx.AsyncClient, url: str, status: int = 200, **kwargs) -> Any:
    """`url` opened TIMES times through the balancer: the same status and body each time."""
    bodies = []
    for _ in range(TIMES):
        answer = await http.get(url, **kwargs)
        assert answer.status_code == status, (url, answer.status_code, answer.text[:200])
        bodies.append(
            answer.json() if answer.headers.get("content-type", "").startswith("application/json") else answer.text
        )
    assert all(b == bodies[0] for b in bodies), url
    return bodies[0]


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


async def spectate(cluster: Cluster, code: str) -> dict:
    """The spectator's link: a join once the round is on, a socket, the room's state."""
    watcher = Player(cluster.ws_base, await join_room(cluster.base, code, "Watcher"))
    assert watcher.grant["spectator"] is True
    await watcher.connect()
    await watcher.wait_for(lambda: watcher.state is not None and watcher.state.get("round") is not None)
    state = watcher.state
    assert state is not None
    await watcher.close()
    assert watcher.close_code in (None, 1000, 1001, 1005)
    return state


async def finish_daily_races(http: httpx.AsyncClient, letters: list[str]) -> dict[str, str]:
    """Browsers start the day's race until two processes hold one each: {browser: code}."""
    started: dict[str, str] = {}
    for i in range(4 * len(letters)):
        browser = f"scale-browser-{i:04d}-{random.getrandbits(32):08x}"
        grant = await http.post("/api/daily", json={"name": f"Racer{i}", "browser": browser})
        assert grant.status_code == 200, grant.text
        started[browser] = grant.json()["code"]
        if len({code[0] for code in started.values()}) >= 2:
            return started
    raise AssertionError(f"daily races went only to {sorted({c[0] for c in started.values()})}")


async def every_link(cluster: Cluster) -> None:
    async with httpx.AsyncClient(base_url=cluster.base, timeout=15) as http:
        rooms = await rooms_on_each(cluster, rounds=1)
        for letter, players in rooms.items():
            code = players[0].code
            await start_round(players)
            # the room's link and a spectator's, again and again
            room = await same_every_time(http, f"/api/rooms/{code}")
            assert room["code"] == code
            states = [await spectate(cluster, code) for _ in range(TIMES)]
            assert {s["code"] for s in states} == {code}, letter
            assert (await http.get(f"/r/{code}")).status_code == 200
            for p in players:
                await p.send({"type": "vote", "end": True})
            for p in players:
                await p.wait_for(lambda p=p: p.state["phase"] == "match_over")

        for host, guest in rooms.values():
            code = host.code
            # one's own replay: the round's players, by their seat token
            listed = await same_every_time(http, "/api/replays", params={"code": code}, headers=bearer(guest.token))
            assert len(listed["replays"]) == 1
            replay_id = listed["replays"][0]["id"]
            assert replay_id.startswith(code + "-")
            own = await same_every_time(http, f"/api/replays/{replay_id}", headers=bearer(guest.token))
            assert own["code"] == code and own["shared"] is False
            # shared by the host: anyone with the link, with no token at all
            shared = await http.post(
                f"/api/replays/{replay_id}/share", json={"shared": True}, headers=bearer(host.token)
            )
            assert shared.status_code == 200, shared.text
            anyone = await same_every_time(http, f"/api/replays/{replay_id}")
            assert anyone["shared"] is True and anyone["initial"] == own["initial"]
            assert (await http.get(f"/replay/{code}/{replay_id}")).status_code == 200
            # the other player opens it too
            assert (await same_every_time(http, f"/api/replays/{replay_id}", headers=bearer(host.token)))[
                "id"
            ] == replay_id

        # recent games: every process's listed... and the seat's own, from its room's process
        for host, _guest in rooms.values():
            mine = await http.post(f"/api/rooms/{host.code}/history", json={"token": host.token})
            assert [g["code"] for g in mine.json()["games"]] == [host.code]
        for _ in range(TIMES):
            assert (await http.get("/api/history")).json()["complete"] is True

        # Devil's Grip: a game on every process, its link and its replay's
        games: dict[str, dict] = {}
        for _ in range(4 * len(cluster.letters)):
            game = (await http.post("/api/grip", json={})).json()
            games.setdefault(game["id"][0], game)
            if set(games) == set(cluster.letters):
                break
        assert set(games) == set(cluster.letters)
        for game in games.values():
            got = await same_every_time(http, f"/api/grip/{game['id']}", headers=bearer(game["token"]))
            assert got["state"] == game["state"]
            await same_every_time(http, f"/api/grip/{game['id']}/sync", headers=bearer(game["token"]))
            assert (await http.get(f"/grip/replay/{game['id']}")).status_code == 200

        # the daily race: one table for the whole server, each entry's replay for a browser
        # whose own race ended (on whichever process), nothing of it for one that has not
        started = await finish_daily_races(http, cluster.letters)
        codes = set(started.values())
        racer = next(iter(started))
        as_racer = {"browser": racer}

        async def finished_table() -> dict:
            deadline = time.monotonic() + 60
            while True:
                day = (await http.get("/api/daily", params=as_racer)).json()
                done = {e["code"] for e in day["entries"] if e["replay_id"] is not None}
                if codes <= done or time.monotonic() > deadline:
                    return day
                await asyncio.sleep(0.3)

        await finished_table()
        # a process keeps its peers' answers for a second (cluster.Peers): past that, every
        # process answers the same table
        await asyncio.sleep(1.1)
        day = (await http.get("/api/daily", params=as_racer)).json()
        assert day["complete"] is True and day["raced"] is True
        for _ in range(TIMES):
            again = (await http.get("/api/daily", params=as_racer)).json()
            assert [e["code"] for e in again["entries"]] == [e["code"] for e in day["entries"]]
            assert codes <= {e["code"] for e in again["entries"]}
        assert (await http.get("/daily")).status_code == 200
        for entry in day["entries"]:
            if entry["code"] in codes:
                assert entry["replay_id"].startswith(entry["code"] + "-")
                watched = await same_every_time(
                    http, f"/api/replays/{entry['replay_id']}", headers={"X-Demon-Browser": racer}
                )
                assert watched["code"] == entry["code"]
                stranger = await http.get(f"/api/replays/{entry['replay_id']}")
                assert stranger.status_code == 403, stranger.text
        unraced = (await http.get("/api/daily")).json()
        assert all(e["code"] is None and e["replay_id"] is None for e in unraced["entries"])
        # one counted attempt per browser, whichever process a second start reaches
        for browser in started:
            for _ in range(len(cluster.letters) + 1):  # round-robin: every process in turn
                again = await http.post("/api/daily", json={"name": "Again", "browser": browser})
                assert again.status_code == 409, again.text
            for letter in cluster.letters:
                direct = httpx.post(
                    cluster.process_base(letter) + "/api/daily", json={"name": "Again", "browser": browser}, timeout=10
                )
                assert direct.status_code == 409, (letter, direct.text)
            played = await same_every_time(http, "/api/daily", params={"browser": browser})
            assert played["played"] is True
        for players in rooms.values():
            for p in players:
                await p.close()


def test_every_link_answers_the_same_every_time_with_two_processes(cluster):
    asyncio.run(every_link(cluster))


def test_every_link_answers_the_same_every_time_with_three_processes(cluster3):
    """With the miss budget at its usual size: had any of these requests been counted as a
    wrong guess (a process asked for another's replay), the address would be refused."""
    asyncio.run(every_link(cluster3))
    # and the address is not near its limit either: a room of each process still answers
    with httpx.Client(base_url=cluster3.base, timeout=10) as http:
        for _ in range(SMALL_MISS_BURST):
            code = http.post("/api/rooms", json={"name": "Ed"}).json()["code"]
            assert http.get(f"/api/rooms/{code}").status_code == 200


async def two_starts_at_once(cluster: Cluster) -> list[int]:
    """One browser's start sent to two processes at the same moment, directly."""
    browser = f"twice-at-once-{random.getrandbits(48):012x}"
    async with httpx.AsyncClient(timeout=15) as http:
        answers = await asyncio.gather(
            *(
                http.post(cluster.process_base(x) + "/api/daily", json={"name": "Twin", "browser": browser})
                for x in cluster.letters[:2]
            )
        )
    return sorted(a.status_code for a in answers)


def test_one_browser_starting_on_two_processes_at_once_is_counted_once(cluster3):
    for _ in range(3):
        assert asyncio.run(two_starts_at_once(cluster3)) == [200, 409]


# ---------------------------------------------------------------- the wrong process


async def misdirected_socket(cluster: Cluster, letter: str, code: str) -> tuple[int | None, str]:
    url = cluster.process_base(letter).replace("http", "ws") + f"/ws/{code}"
    async with websockets.connect(url, compression=None) as ws:
        try:
            await ws.send('{"type": "hello", "token": "x"}')
            await ws.recv()
        except websockets.ConnectionClosed as closed:
            assert closed.rcvd is not None
            return closed.rcvd.code, closed.rcvd.reason
    return None, ""


def test_a_request_sent_to_the_wrong_process_is_never_a_guess(cluster3):
    """Direct to process A, from an address of its own: B's room, its replay and a Devil's
    Grip game of B's, many more times than the miss budget holds, are answered 404 and
    counted as nothing; A's own room still answers. An id whose letter no process holds
    (it can exist nowhere) is counted: past the budget, 429."""
    a, b = cluster3.letters[0], cluster3.letters[1]
    codes: dict[str, str] = {}
    with httpx.Client(base_url=cluster3.base, timeout=10) as via:
        while set(codes) != set(cluster3.letters):
            code = via.post("/api/rooms", json={"name": "Fay"}).json()["code"]
            codes.setdefault(code[0], code)
        b_game = via.post("/api/grip", json={}).json()
        while b_game["id"][0] != b:
            b_game = via.post("/api/grip", json={}).json()
    b_code, a_code = codes[b], codes[a]
    local = httpx.HTTPTransport(local_address="127.0.0.92")
    with httpx.Client(base_url=cluster3.process_base(a), transport=local, timeout=10) as http:
        for _ in range(3 * SMALL_MISS_BURST):
            for url in (
                f"/api/rooms/{b_code}",
                f"/api/rooms/{b_code.lower()}",
                f"/api/replays/{b_code}-not-a-round-id",
                f"/api/replays?code={b_code}",
                f"/api/grip/{b_game['id']}",
            ):
                answer = http.get(url)
                assert answer.status_code == 404 and "another process" in answer.json()["detail"], (url, answer.text)
        assert http.get(f"/api/rooms/{a_code}").status_code == 200
    for _ in range(SMALL_MISS_BURST + 2):
        code, reason = asyncio.run(misdirected_socket(cluster3, a, b_code))
        assert code == 1008 and reason == "room held by another process"
    with httpx.Client(base_url=cluster3.process_base(a), timeout=10) as http:
        assert http.get(f"/api/rooms/{a_code}").status_code == 200
    # Z is no process's letter: a wrong code there is a guess like any other
    with httpx.Client(
        base_url=cluster3.process_base(a), transport=httpx.HTTPTransport(local_address="127.0.0.93")
    ) as http:
        statuses = [http.get("/api/rooms/ZZZZZZX").status_code for _ in range(SMALL_MISS_BURST + 2)]
        assert statuses[:SMALL_MISS_BURST] == [404] * SMALL_MISS_BURST and statuses[-1] == 429


# ---------------------------------------------------------------- the balancer's edges


def raw_get(base: str, target: str) -> tuple[int, bytes]:
    """A request line sent as written (an HTTP client would normalise the path)."""
    host, port = base.split("//")[1].split(":")
    with socket.create_connection((host, int(port)), timeout=5) as s:
        s.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    status = int(data.split(b" ", 2)[1])
    return status, data


def test_the_balancer_refuses_metrics_however_the_path_is_spelled(cluster):
    letter = cluster.letters[0]
    # the process itself reads %6D as m: these spellings are /metrics to it
    status, body = raw_get(cluster.process_base(letter), "/%6Detrics")
    assert status == 200 and b"demon_build_info" in body
    for target in (
        "/metrics",
        "/%6Detrics",
        "/%6detrics",
        "/%6D%65trics",
        "//metrics",
        "/./metrics",
        "/METRICS",
        "/metrics?x=1",
    ):
        status, body = raw_get(cluster.base, target)
        assert status == 404 and b"demon_build_info" not in body, target
