"""A restart with bots at the table: their level, memory and random state come back, and
they carry on playing. Once through the hub with the real SQLite store (to compare the
bots' state exactly), once with a real uvicorn stopped with SIGTERM and started again."""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3

import httpx
import pytest

from app.config import Settings
from app.demon.hub.connection import Pipe
from app.demon.hub.hub import Hub
from app.demon.room.room import Phase
from app.protocol import messages as m
from app.storage.store import DB_NAME, Store
from tests.rooms.test_bots import until
from tests.rooms.test_hub_flush import RecordingSocket, turns
from tests.support.live_server import LiveServer
from tests.support.ws_client import Player


def bot_states(room) -> dict:
    return {p.id: (p.name, p.seat, p.bot.to_json()) for p in room.bots()}


def test_a_graceful_restart_keeps_each_bots_level_memory_and_random_state(tmp_path):
    async def main():
        settings = Settings(data_dir=tmp_path, countdown_s=0.0, test_seed=288, bot_think_scale=0.002)
        store = Store.open(tmp_path)
        hub = Hub(settings, store)
        await hub.start()
        handle, person, _ = hub.create_practice(m.PracticeRoom(name="Ann", bots=3, level="hard", rounds=1))
        room = handle.room
        pipe = Pipe(RecordingSocket(), 4096)
        assert hub.attach(handle, person, pipe, None)
        await until(lambda: room.phase is Phase.PLAYING and hub.bots.actions >= 30)
        await hub.stop()
        before, steps_before, v_before = bot_states(room), len(room.round_actions), room.v
        assert all(state[2]["memory"]["decisions"] > 0 for state in before.values())
        store.close()

        store2 = Store.open(tmp_path)
        restored = {
            r.code: r for r in store2.load_rooms(countdown_s=0.0, replay_window=512, grace_s=120.0, test_seed=288)
        }
        assert bot_states(restored[room.code]) == before  # exactly where they were: level, memory, rng
        hub2 = Hub(settings, store2)
        await hub2.start()  # (and at once they think again, which moves their rng on)
        handle2 = hub2.rooms[room.code]
        room2 = handle2.room
        assert {p.id: p.bot.level for p in room2.bots()} == {p: s[2]["level"] for p, s in before.items()}
        assert len(room2.round_actions) == steps_before and room2.v >= v_before
        assert all(p.connected for p in room2.bots()) and room2.host == person.id
        # They carry on: the person comes back and lets the bots finish; they play on.
        person2 = room2.seating.by_id(person.id)
        sock = RecordingSocket()
        pipe2 = Pipe(sock, 8192)
        assert hub2.attach(handle2, person2, pipe2, room2.v, hub2.epoch)
        hub2.handle_message(handle2, person2, pipe2, m.Vote(type="vote", end=True, bots_finish=True))
        await until(lambda: room2.phase is not Phase.PLAYING)
        await turns()
        after_moves = [e for e in sock.messages() if e["type"] == "event" and e["event"]["kind"] == "move"]
        assert after_moves and {e["event"]["seat"] for e in after_moves} <= {1, 2, 3}
        assert room2.result["reason"] in ("vote", "demon", "stuck")
        await hub2.stop()
        store2.close()

    asyncio.run(main())


@pytest.mark.slow
def test_bots_carry_on_after_a_sigterm_restart_of_the_server(tmp_path):
    server = LiveServer(tmp_path / "data", test_seed=288, countdown_s=0.1, bot_think_scale=0.05)

    async def before() -> tuple[dict, int]:
        async with httpx.AsyncClient() as http:
            r = await http.post(
                server.base + "/api/rooms/practice", json={"name": "Ann", "bots": 2, "level": "hard", "rounds": 1}
            )
            r.raise_for_status()
            grant = r.json()
        ann = Player(server.ws_base, grant)
        await ann.connect()
        await ann.wait_for(lambda: ann.state is not None and ann.state["phase"] == "playing", 10)

        def moves():
            return [e for e in ann.received if e["type"] == "event" and e["event"]["kind"] == "move"]

        await ann.wait_for(lambda: len(moves()) >= 10, 20)
        await ann.close()
        return grant, len(moves())

    async def after(grant: dict) -> dict:
        ann = Player(server.ws_base, grant)
        await ann.connect()
        await ann.wait_for(lambda: ann.state is not None, 10)
        assert ann.state is not None
        bots = [p for p in ann.state["players"] if p["bot"]]
        assert [p["bot"] for p in bots] == ["hard", "hard"] and all(p["connected"] for p in bots)
        start_v = ann.v
        await ann.wait_for(
            lambda: any(
                e["type"] == "event" and e["v"] > start_v and e["event"]["kind"] == "move" for e in ann.received
            ),
            20,
        )
        await ann.send({"type": "vote", "end": True})
        await ann.wait_for(lambda: ann.state["phase"] == "match_over", 60)
        await ann.close()
        return ann.state

    with server:
        grant, seen = asyncio.run(before())
        server.stop(signal.SIGTERM)
        meta = json.loads(
            sqlite3.connect(tmp_path / "data" / DB_NAME)
            .execute("SELECT meta FROM rooms WHERE code = ?", (grant["code"],))
            .fetchone()[0]
        )
        saved = [p["bot"] for p in meta["players"] if "bot" in p]
        assert [b["level"] for b in saved] == ["hard", "hard"]
        assert all(b["memory"]["decisions"] > 0 for b in saved)
        server.start()
        state = asyncio.run(after(grant))
    assert seen >= 10
    assert state["result"]["reason"] in ("vote", "demon", "stuck")
    assert sum(state["result"]["scores"].values()) > 0
