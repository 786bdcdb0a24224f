"""Emotes through the real hub, rooms and pipes, with recording sockets and a clock the
test moves (the WebSocket tests in tests/server/test_ws_emotes.py send them over a real
uvicorn): who gets one, who may send one, the cooldown, and that nothing is kept."""

from __future__ import annotations

import asyncio

import pytest

from app.demon.hub.connection import Pipe
from app.demon.hub.emotes import COOLDOWN_S, EMOTES, EmoteGate
from app.demon.hub.hub import Hub
from app.demon.room.errors import SpectatorCannotPlay
from app.demon.room.seating import Player
from app.protocol import messages as m
from app.storage.store import Store
from tests.rooms.test_hub_flush import RecordingSocket, seated_room, settings, turns


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def emote(name: str) -> m.Emote:
    msg = m.client_message.validate_python({"type": "emote", "emote": name})
    assert isinstance(msg, m.Emote)
    return msg


def of_type(socket: RecordingSocket, kind: str) -> list[dict]:
    return [msg for msg in socket.messages() if msg["type"] == kind]


def test_the_set_is_fixed_and_small():
    assert EMOTES == ("wave", "thumbs_up", "laugh", "wow", "sad", "gg")


def test_an_emote_reaches_every_seat_and_changes_nothing_in_the_room(tmp_path):
    async def main():
        clock = Clock()
        store = Store.open(tmp_path)
        hub = Hub(settings(tmp_path), store, clock=clock)
        handle, players, pipes, sockets = await seated_room(hub, 3)
        room = handle.room
        v, saved = room.v, store.load_rooms(countdown_s=0, replay_window=500, grace_s=60)[0].v
        hub.handle_message(handle, players[1], pipes[1], emote("wave"))
        await turns()
        for socket in sockets:  # the sender's own screen shows it too
            assert of_type(socket, "emote") == [{"type": "emote", "player": players[1].id, "emote": "wave"}]
        assert not any(of_type(s, "error") for s in sockets)
        # Ephemeral: no version, nothing in the replay window, nothing on disk.
        assert room.v == v
        assert room.log.since(v - 3) is not None and all('"emote"' not in t for t in room.log.since(v - 3))
        assert store.load_rooms(countdown_s=0, replay_window=500, grace_s=60)[0].v == saved
        store.close()

    asyncio.run(main())


def test_one_player_waits_out_a_cooldown_and_the_others_do_not(tmp_path):
    async def main():
        clock = Clock()
        hub = Hub(settings(tmp_path, persist=False), clock=clock)
        handle, players, pipes, sockets = await seated_room(hub, 2)
        hub.handle_message(handle, players[0], pipes[0], emote("wave"))
        clock.now += COOLDOWN_S / 2
        hub.handle_message(handle, players[0], pipes[0], emote("gg"))  # too soon
        hub.handle_message(handle, players[1], pipes[1], emote("laugh"))  # someone else: fine
        await turns()
        assert [e["emote"] for e in of_type(sockets[1], "emote")] == ["wave", "laugh"]
        refusal = of_type(sockets[0], "error")
        assert [e["code"] for e in refusal] == ["slow_down"] and refusal[0]["message"]
        assert of_type(sockets[1], "error") == []
        clock.now += COOLDOWN_S / 2
        hub.handle_message(handle, players[0], pipes[0], emote("gg"))
        await turns()
        assert [e["emote"] for e in of_type(sockets[1], "emote")] == ["wave", "laugh", "gg"]

    asyncio.run(main())


def test_the_cooldown_belongs_to_the_player_not_the_socket(tmp_path):
    """A reconnect (a new socket for the same seat) does not buy a fresh emote."""

    async def main():
        clock = Clock()
        hub = Hub(settings(tmp_path, persist=False), clock=clock)
        handle, players, pipes, sockets = await seated_room(hub, 2)
        hub.handle_message(handle, players[0], pipes[0], emote("wave"))
        again = RecordingSocket()
        fresh = Pipe(again, 256)
        assert hub.attach(handle, players[0], fresh, None)
        hub.handle_message(handle, players[0], fresh, emote("wave"))
        await turns()
        assert [e["code"] for e in of_type(again, "error")] == ["slow_down"]
        assert len(of_type(sockets[1], "emote")) == 1

    asyncio.run(main())


def test_spectators_see_emotes_but_cannot_send_them(tmp_path):
    async def main():
        hub = Hub(settings(tmp_path, persist=False), clock=Clock())
        handle, players, pipes, sockets = await seated_room(hub, 2)
        _, watcher, _ = hub.join_room(handle.room.code, "Dee")  # mid-round: a spectator
        assert watcher.seat is None
        watching = RecordingSocket()
        pipe = Pipe(watching, 256)
        assert hub.attach(handle, watcher, pipe, None)
        hub.handle_message(handle, watcher, pipe, emote("wave"))
        hub.handle_message(handle, players[0], pipes[0], emote("thumbs_up"))
        await turns()
        assert [e["code"] for e in of_type(watching, "error")] == ["spectator"]
        assert [e["player"] for e in of_type(watching, "emote")] == [players[0].id]
        assert [e["player"] for e in of_type(sockets[1], "emote")] == [players[0].id]

    asyncio.run(main())


def test_emotes_work_in_the_lobby_and_stay_in_their_room(tmp_path):
    async def main():
        hub = Hub(settings(tmp_path, persist=False), clock=Clock())
        handle, host, _ = hub.create_room(m.CreateRoom(name="Ann", rounds=1, max_players=4))
        _, bob, _ = hub.join_room(handle.room.code, "Bob")
        other, olga, _ = hub.create_room(m.CreateRoom(name="Olga", rounds=1, max_players=4))
        sockets = [RecordingSocket() for _ in range(3)]
        pipes = [Pipe(s, 256) for s in sockets]
        for h, p, pipe in ((handle, host, pipes[0]), (handle, bob, pipes[1]), (other, olga, pipes[2])):
            assert hub.attach(h, p, pipe, None)
        await turns()
        hub.handle_message(handle, bob, pipes[1], emote("gg"))
        await turns()
        assert [e["emote"] for e in of_type(sockets[0], "emote")] == ["gg"]
        assert of_type(sockets[2], "emote") == []

    asyncio.run(main())


def test_a_bot_cannot_emote(tmp_path):
    async def main():
        hub = Hub(settings(tmp_path, persist=False), clock=Clock())
        handle, host, _ = hub.create_room(m.CreateRoom(name="Ann", rounds=1, max_players=4))
        hub.handle_message(handle, host, Pipe(RecordingSocket(), 256), m.AddBot(type="add_bot"))
        bot = next(p for p in handle.room.players if p.bot is not None)
        assert hub.bot_message(handle, bot, emote("wave"))["code"] == "invalid"

    asyncio.run(main())


def test_the_gate_forgets_players_whose_cooldown_is_over():
    gate = EmoteGate(cooldown_s=1.0)
    people = [Player(id=f"p{i}", name=f"P{i}", token_hash=b"", seat=i) for i in range(8)]
    for i, p in enumerate(people):
        gate.emote(p, "wave", float(i))
    assert len(gate._last) <= 2
    with pytest.raises(SpectatorCannotPlay):
        gate.admit(Player(id="p9", name="S", token_hash=b""), 100.0)
