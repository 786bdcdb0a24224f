"""A restart loses nothing: a real uvicorn subprocess, killed and started again on the
same data directory (issue: rooms and matches kept in SQLite)."""

from __future__ import annotations

import asyncio
import copy
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

import httpx
import pytest

from app.storage.store import DB_NAME, MIGRATIONS, SCHEMA_VERSION
from tests.server.test_ws_play import bot, choose, seat_players, start_round
from tests.support.live_server import ROOT, LiveServer
from tests.support.ws_client import Player

SETTINGS = {"test_seed": 288, "countdown_s": 0.1, "rate_per_s": 400, "rate_burst": 400}


async def play_acknowledged(players: list[Player], n: int, rng: random.Random) -> list[tuple[int, str]]:
    """Play n actions round-robin; return (seat, action id) of every acknowledged one."""
    acked = []
    for i in range(n):
        p = players[i % len(players)]
        assert p.state is not None and p.seat is not None
        action = choose(p.legal, rng, p.state["round"]["seats"][p.seat])
        if action is None:
            continue
        reply = await p.reply(await p.act(action))
        if reply["type"] == "ack":
            acked.append((p.seat, reply["id"]))
            await p.wait_for(lambda: p.v >= reply["v"])
    return acked


async def reconnect_all(server: LiveServer, players: list[Player]) -> list[Player]:
    again = []
    for p in players:
        q = Player(server.ws_base, p.grant)
        q.v, q.state = p.v, copy.deepcopy(p.state)  # what the browser still holds
        await q.connect(resume=True)
        again.append(q)
    for q in again:
        await q.wait_for(lambda q=q: q.state is not None and q.legal, 10)
    return again


@pytest.mark.slow
def test_sigkill_mid_round_loses_no_acknowledged_action(tmp_path):
    async def before(server):
        players = await seat_players(server, 3, rounds=1)
        await start_round(players)
        acked = await play_acknowledged(players, 30, random.Random(1))
        await players[0].wait_for(lambda: all(p.v == players[0].v for p in players))
        return players, acked, players[0].state["round"]

    async def after(server, players, acked, round_before):
        again = await reconnect_all(server, players)
        ref = again[0]
        await ref.wait_for(lambda: all(p["connected"] for p in ref.state["players"]), 10)
        assert ref.state["round"]["seats"] == round_before["seats"]
        assert ref.state["round"]["foundations"] == round_before["foundations"]
        assert ref.v > players[0].v  # the version goes on from where it was
        # Every acknowledged action id is remembered: sending it again is not re-applied.
        seat, action_id = acked[-1]
        p = next(q for q in again if q.seat == seat)
        v_before = p.v
        await p.act({"type": "draw"}, action_id)
        dup = await p.reply(action_id)
        assert dup["type"] == "ack" and dup.get("duplicate")
        await asyncio.sleep(0.1)  # a fixed wait: the duplicate must *not* be applied meanwhile
        assert p.v == v_before
        # The round continues and plays to its end.
        await asyncio.gather(*(bot(q, random.Random(i)) for i, q in enumerate(again)))
        for q in again:
            await q.wait_for(lambda q=q: q.state["phase"] == "match_over", 10)
        for q in again:
            await q.close()

    server = LiveServer(tmp_path, **SETTINGS).start()
    try:
        players, acked, round_before = asyncio.run(before(server))
        assert len(acked) >= 20
        server.stop(signal.SIGKILL)
        server.start()
        asyncio.run(after(server, players, acked, round_before))
        # the finished match, as its players see it (the room was not listed: docs/security.md)
        games = httpx.post(
            f"{server.base}/api/rooms/{players[0].code}/history", json={"token": players[0].token}
        ).json()["games"]
        assert games and games[0]["code"] == players[0].code
        assert {p["name"] for p in games[0]["players"]} == {"P0", "P1", "P2"}
    finally:
        server.stop()


def test_sigterm_closes_sockets_with_1012_and_exits_quickly(tmp_path):
    async def main(server):
        players = await seat_players(server, 3, rounds=1)
        await start_round(players)
        await play_acknowledged(players, 12, random.Random(2))
        await players[0].wait_for(lambda: all(p.v == players[0].v for p in players))
        t0 = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        for p in players:
            await p.wait_for(lambda p=p: p.close_code is not None, 5)
        code = await asyncio.to_thread(server.proc.wait, 10)
        elapsed = time.monotonic() - t0
        return players, [p.close_code for p in players], code, elapsed

    server = LiveServer(tmp_path, **SETTINGS).start()
    try:
        players, codes, exit_code, elapsed = asyncio.run(main(server))
        assert codes == [1012, 1012, 1012]
        # a stop asked for and done is a success: 0, not the signal uvicorn raises again
        # after its shutdown (under an init, as in docker/compose.yml, Docker saw 143)
        assert exit_code == 0 and elapsed < 5.0
        server.proc = None
        server.start()

        async def resume():
            again = await reconnect_all(server, players)
            assert again[0].state["round"] == players[0].state["round"] | {"votes": again[0].state["round"]["votes"]}
            for q in again:
                await q.close()

        asyncio.run(resume())
    finally:
        server.stop()


@pytest.mark.slow
def test_restore_from_a_database_of_the_previous_schema(tmp_path):
    """A v1 database (before match history existed) with a room mid-round is upgraded in
    place and the room resumes."""
    data = tmp_path / "data"
    v1 = LiveServer(data, **SETTINGS)
    # Build the old database by hand: schema 1 exactly as MIGRATIONS[0] wrote it.
    data.mkdir()
    conn = sqlite3.connect(data / DB_NAME)
    for statement in MIGRATIONS[0]:
        conn.execute(statement)
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    # Play a little on a server that only knows schema 1's tables... which is this code
    # after its migrations; so instead write the room with today's server, then strip
    # what schema 2 added and set the version back to 1.
    server = LiveServer(data, **SETTINGS).start()

    async def play():
        players = await seat_players(server, 2, rounds=1)
        await start_round(players)
        await play_acknowledged(players, 10, random.Random(3))
        await players[0].wait_for(lambda: all(p.v == players[0].v for p in players))
        for p in players:
            await p.close()
        return players

    try:
        players = asyncio.run(play())
    finally:
        server.stop()
    conn = sqlite3.connect(data / DB_NAME)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.execute("DROP TABLE matches")
    conn.execute("ALTER TABLE rooms DROP COLUMN finished")
    for statement in (
        "DROP TABLE grip_par",
        "DROP TABLE grip_solutions",  # what schema 3 added
        "ALTER TABLE grips DROP COLUMN used_hint",
        "ALTER TABLE grips DROP COLUMN winnable",
        "DROP TABLE replays",
        "DROP TABLE daily",
        "ALTER TABLE steps DROP COLUMN at",
    ):  # what schema 7 added
        conn.execute(statement)
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    server = LiveServer(data, **SETTINGS).start()
    try:

        async def resume():
            again = await reconnect_all(server, players)
            assert again[0].state["round"]["seats"] == players[0].state["round"]["seats"]
            for q in again:
                await q.close()

        asyncio.run(resume())
        conn = sqlite3.connect(data / DB_NAME)
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("SELECT count(*) FROM matches").fetchone()[0] == 0
        conn.close()
    finally:
        server.stop()
    del v1


def test_corrupt_database_is_refused_and_left_alone(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    garbage = b"this is not a database" * 100
    (data / DB_NAME).write_bytes(garbage)
    server = LiveServer(data)
    proc = subprocess.run(
        [sys.executable, "-m", "app"], cwd=ROOT, env=server.env(), capture_output=True, text=True, timeout=30
    )
    assert proc.returncode == 2
    assert "unreadable" in proc.stderr and DB_NAME in proc.stderr
    assert (data / DB_NAME).read_bytes() == garbage


def test_database_from_a_newer_server_is_refused(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    conn = sqlite3.connect(data / DB_NAME)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    server = LiveServer(data)
    proc = subprocess.run(
        [sys.executable, "-m", "app"], cwd=ROOT, env=server.env(), capture_output=True, text=True, timeout=30
    )
    assert proc.returncode == 2 and "newer server" in proc.stderr


@pytest.mark.slow
def test_devils_grip_game_survives_a_restart(tmp_path):
    server = LiveServer(tmp_path).start()
    try:
        with httpx.Client(base_url=server.base) as http:
            game = http.post("/api/grip", json={"number": 11}).json()
            auth = {"Authorization": f"Bearer {game['token']}"}
            moved = http.post(
                f"/api/grip/{game['id']}", headers=auth, json={"op": "action", "action": game["legal"][0]}
            ).json()
        server.stop(signal.SIGKILL)
        server.start()
        with httpx.Client(base_url=server.base) as http:
            back = http.get(f"/api/grip/{game['id']}", headers=auth).json()
        assert back["state"] == moved["state"] and back["can_undo"]
    finally:
        server.stop()
    assert json.dumps(back)  # JSON-able


def test_data_directory_that_cannot_be_created_gives_a_clear_error(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    server = LiveServer(blocker / "data")
    proc = subprocess.run(
        [sys.executable, "-m", "app"], cwd=ROOT, env=server.env(), capture_output=True, text=True, timeout=30
    )
    assert proc.returncode == 2 and "Cannot create the data directory" in proc.stderr
    assert "Traceback" not in proc.stderr


# Root writes to any directory through its capabilities (CAP_DAC_OVERRIDE), not its uid.
# Without them, root is held to a directory's mode bits like any user, and can still
# reach its own files (a checkout or a Python under /root, which `nobody` could not).
NO_CAPABILITIES = ["setpriv", "--inh-caps=-all", "--bounding-set=-all"]


def test_unwritable_data_directory_gives_a_clear_error(tmp_path):
    """Seen in Docker with a root-owned bind mount: the error called the (missing)
    database "unreadable" instead of naming the directory's permissions. As root (CI),
    the server runs without capabilities, so the directory is unwritable to it too."""
    data = tmp_path / "data"
    data.mkdir()
    data.chmod(0o555)
    server = LiveServer(data)
    unprivileged = NO_CAPABILITIES if os.getuid() == 0 else []
    proc = subprocess.run(
        [*unprivileged, sys.executable, "-m", "app"],
        cwd=ROOT,
        env=server.env(),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.returncode == 2 and "not writable" in proc.stderr, proc.stderr
    assert f"(uid {os.getuid()})" in proc.stderr
