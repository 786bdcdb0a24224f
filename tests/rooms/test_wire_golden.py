"""The bytes on the wire, pinned: a seeded session through the real hub, rooms, engine and
SQLite store, every frame every socket received hashed in order.

Why: refactors of the rooms, the hub and the protocol must leave what a
browser or a third-party client reads byte for byte the same. A protocol test checks the
shapes one message at a time; this checks a whole session — joins, the deal, hundreds
of plays and refusals, legal lists, votes, the round's end and the next round — at once.
When the protocol changes on purpose, the hash changes with it: run this file with
`-s` to print the new one and say why in the commit.

Run-dependent strings (the room code, the run's epoch) are replaced before hashing; a
fixed clock makes every timestamp the same on every run.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from pathlib import Path

from app.config import Settings
from app.demon.hub.connection import Pipe
from app.demon.hub.hub import Hub
from app.protocol import messages as m
from app.storage.store import Store

SEATS = 4
PLAYS = 600
# sha256 of the session's frames; see the module's docstring before changing it.
GOLDEN = "32f6a10b192a6ba9c39f9d1aebc6346f33b98358db8f02569b939eeb5ae18614"


class Recorder:
    """A socket that keeps every frame it is sent."""

    def __init__(self, log: list[str], name: str) -> None:
        self.log = log
        self.name = name

    async def send_text(self, data: str) -> None:
        self.log.append(f"{self.name}<{data}")

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.log.append(f"{self.name}<close {code}")


class FixedClock:
    """Time moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def last_legal(frames: list[str], name: str) -> list[dict]:
    """The last `legal` list sent to socket `name` (frames hold one message per line)."""
    for frame in reversed(frames):
        who, _, text = frame.partition("<")
        if who != name:
            continue
        for line in reversed(text.split("\n")):
            if line.startswith('{"type":"legal"'):
                return json.loads(line)["actions"]
    return []


async def session(data_dir: Path) -> list[str]:
    frames: list[str] = []
    clock = FixedClock()
    store = Store.open(data_dir)
    hub = Hub(Settings(data_dir=data_dir, countdown_s=0.0, test_seed=4242), store, clock=clock)
    handle, host, _ = hub.create_room(m.CreateRoom(name="Ann", rounds=2, max_players=SEATS))
    players = [host]
    for name in ("Bob", "Cy", "Di"):
        joined = hub.join_room(handle.room.code, name)
        assert joined is not None
        players.append(joined[1])
    pipes = [Pipe(Recorder(frames, f"s{i}"), 4096) for i in range(SEATS)]
    for player, pipe in zip(players, pipes):
        hub.attach(handle, player, pipe, None)
        await settle()
    rng = random.Random(7)
    sent = 0

    def send(i: int, body: dict) -> None:
        nonlocal sent
        if body["type"] == "action":
            sent += 1
            body = {"id": f"a{sent}", **body}
        msg = m.client_message.validate_json(json.dumps(body))
        assert not isinstance(msg, m.Hello)
        hub.handle_message(handle, players[i], pipes[i], msg)

    for round_no in range(2):
        if round_no == 0:
            send(0, {"type": "start"})
        else:
            send(0, {"type": "next_round"})
        await settle()
        clock.now += 1.0
        hub.tick()
        await settle()
        for _ in range(PLAYS):
            if handle.room.phase.value != "playing":
                break
            i = rng.randrange(SEATS)
            legal = last_legal(frames, f"s{i}")
            if rng.random() < 0.05 or not legal:
                # a play that is not legal (a foundation that does not exist) or a ping
                send(
                    i,
                    {"type": "action", "action": {"type": "foundation", "src": "waste", "pile": 63}}
                    if rng.random() < 0.5
                    else {"type": "ping"},
                )
            else:
                foundation = [a for a in legal if a["type"] == "to_foundation"]
                action = rng.choice(foundation) if foundation and rng.random() < 0.7 else rng.choice(legal)
                send(i, {"type": "action", "action": action})
            await settle()
            clock.now += 0.25
        for i in range(SEATS):
            if handle.room.phase.value == "playing":
                send(i, {"type": "vote", "end": True})
                await settle()
        clock.now += 1.0
        hub.tick()
        await settle()
    await hub.stop()
    store.close()
    code, epoch = handle.room.code, hub.epoch
    return [f.replace(code, "CODE").replace(epoch, "EPOCH") for f in frames]


def test_a_seeded_session_sends_the_same_bytes(tmp_path):
    frames = asyncio.run(session(tmp_path))
    digest = hashlib.sha256("\n\x00".join(frames).encode()).hexdigest()
    print(f"\n{len(frames)} frames, sha256 {digest}")
    assert len(frames) > 500
    assert digest == GOLDEN
