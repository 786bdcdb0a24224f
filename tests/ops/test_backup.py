"""`python -m app backup` while rounds are played on a real server, and `restore` of the copy
into a fresh data directory: every move acknowledged before a backup began is in it, and
the restored server brings the rooms back."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from app.storage.schema import SCHEMA_VERSION
from tests.server.conftest import RACE_SEED
from tests.server.test_ws_play import choose, public_round, seat_players, start_round
from tests.support.live_server import ROOT, LiveServer
from tests.support.ws_client import Player

Ack = tuple[float, str, str, int]  # (when the client had it, room code, action id, version)


def run_app(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


async def play_recording(p: Player, rng: random.Random, acks: list[Ack]) -> None:
    """Play the round out as tests/server/test_ws_play.py's bot does, noting when each
    `ack` arrived."""
    idle, voted = 0, False
    assert p.state is not None
    while p.state["phase"] == "playing":
        action = choose(p.legal, rng, public_round(p)["seats"][p.seat]) if p.legal else None
        if action is None or action["type"] == "recycle":
            idle += 1
        elif action["type"] != "draw":
            idle = 0
        if (action is None or idle > 3) and not voted:
            await p.send({"type": "vote", "end": True})
            voted = True
        if action is None or voted:
            await p.wait_for(lambda: p.state["phase"] != "playing", 30)
            return
        action_id = await p.act(action)
        reply = await p.reply(action_id)
        if reply["type"] == "ack":
            acks.append((time.monotonic(), p.code, action_id, reply["v"]))


def saved_actions(copy: Path) -> set[tuple[str, str]]:
    conn = sqlite3.connect(copy)
    try:
        return {
            (code, aid) for code, aid in conn.execute("SELECT code, action_id FROM steps WHERE action_id IS NOT NULL")
        }
    finally:
        conn.close()


@pytest.mark.slow
@pytest.mark.timeout(600)  # 75 s at load 14 on 2 cores: room to spare on a worse day
def test_backup_under_load_holds_every_acknowledged_move_and_restores(tmp_path):
    backups = tmp_path / "backups"
    acks: list[Ack] = []
    taken: list[tuple[float, Path]] = []  # (when the backup command started, its copy)
    srv = LiveServer(tmp_path / "live", test_seed=RACE_SEED, countdown_s=0.2, rate_per_s=400, rate_burst=400)
    with srv:

        async def scenario() -> list[Player]:
            tables = [await seat_players(srv, 2, rounds=3) for _ in range(6)]
            for players in tables:
                await start_round(players)
            rng = random.Random(11)
            play = asyncio.gather(*(play_recording(p, rng, acks) for players in tables for p in players))
            # Back up again and again while the rounds are played (the first starts while
            # they are), and once more after, so that the last copy is made as they ended
            # (on a loaded machine a backup's process can take longer than the rounds).
            while not play.done() or len(taken) < 2:
                started = time.monotonic()
                proc = await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-m",
                    "app",
                    "backup",
                    str(backups),
                    "--data-dir",
                    str(srv.data_dir),
                    cwd=ROOT,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE,
                )
                out, err = await proc.communicate()
                assert proc.returncode == 0, err.decode()
                taken.append((started, Path(out.decode().strip())))
            await play
            return [p for players in tables for p in players]

        players = asyncio.run(scenario())
        assert len(taken) >= 2
        for started, copy in taken:
            before = {(code, aid) for at, code, aid, _v in acks if at < started}
            missing = before - saved_actions(copy)
            assert not missing, f"{copy.name} lacks {len(missing)} acknowledged moves of {len(before)}"
        assert any(at < taken[-1][0] for at, *_ in acks)
        # the last copy, made as the rounds ended: what a restore brings back
        last_started, last = taken[-1]
        in_last = saved_actions(last)
        codes = sorted({p.code for p in players})

    fresh = tmp_path / "fresh"
    restored = run_app("restore", str(last), "--data-dir", str(fresh))
    assert restored.returncode == 0, restored.stderr
    with LiveServer(fresh) as again:
        for code in codes:
            assert httpx.get(f"{again.base}/api/rooms/{code}").status_code == 200

        # a seat's token from before opens its seat on the restored server, whose room
        # holds every move the copy holds
        async def resume() -> dict[str, int]:
            seen: dict[str, int] = {}
            for code in codes:
                p = next(p for p in players if p.code == code)
                back = Player(again.ws_base, p.grant)
                await back.connect()
                await back.wait_for(lambda: back.v is not None and back.state is not None)
                assert back.v is not None
                seen[code] = back.v
                await back.close()
            return seen

        versions = asyncio.run(resume())
    for code in codes:
        acked = [v for _at, c, aid, v in acks if c == code and (c, aid) in in_last]
        assert versions[code] >= max(acked)


@pytest.mark.slow
def test_restore_checks_the_copy_and_refuses_a_running_server(tmp_path):
    data = tmp_path / "data"
    with LiveServer(data) as srv:
        assert httpx.post(srv.base + "/api/rooms", json={"name": "Ann"}).status_code == 200
        made = run_app("backup", str(tmp_path / "b"), "--data-dir", str(data))
        assert made.returncode == 0, made.stderr
        copy = Path(made.stdout.strip())
        refused = run_app("restore", str(copy), "--data-dir", str(data))
        assert refused.returncode == 1 and "running server" in refused.stderr
    # not a database at all
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database" * 100)
    answer = run_app("restore", str(junk), "--data-dir", str(tmp_path / "x"))
    assert answer.returncode == 1 and "not a readable SQLite database" in answer.stderr
    # a database from a newer server
    newer = tmp_path / "newer.sqlite3"
    newer.write_bytes(copy.read_bytes())
    conn = sqlite3.connect(newer)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    answer = run_app("restore", str(newer), "--data-dir", str(tmp_path / "x"))
    assert answer.returncode == 1 and "newer server" in answer.stderr
    # a damaged page: the integrity check finds it before anything is replaced
    damaged = tmp_path / "damaged.sqlite3"
    conn = sqlite3.connect(copy)
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'rooms'").fetchone()[0]
    conn.close()
    raw = bytearray(copy.read_bytes())
    raw[(root - 1) * page : (root - 1) * page + 12] = b"\x0d\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
    damaged.write_bytes(bytes(raw))
    answer = run_app("restore", str(damaged), "--data-dir", str(data))
    assert answer.returncode == 1, answer.stdout
    assert "integrity check" in answer.stderr or "not a readable SQLite database" in answer.stderr, answer.stderr
    assert not list(data.glob("*.before-restore-*"))
    # a good copy, the server stopped: in place, the old database kept beside it
    answer = run_app("restore", str(copy), "--data-dir", str(data))
    assert answer.returncode == 0, answer.stderr
    assert len(list(data.glob("demon.sqlite3.before-restore-*"))) == 1
