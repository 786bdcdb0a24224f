"""Emotes over real WebSockets (a real uvicorn, tests/server/conftest.py): a greeting
reaches the other seats, bad ones are refused and go nowhere, a flood of them is closed
like any flood without disturbing anybody else, and spectators only watch."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets

from tests.server.test_ws_bad_input import still_works
from tests.server.test_ws_play import seat_players, start_round
from tests.support.ws_client import Player, join_room


def run(coro):
    return asyncio.run(coro)


def emotes_of(p: Player) -> list[dict]:
    return [m for m in p.received if m["type"] == "emote"]


async def seated(server, n: int, **options) -> list[Player]:
    """`seat_players`, and every one of them attached (has its snapshot): an emote only
    reaches the sockets the room holds when it is sent."""
    players = await seat_players(server, n, **options)
    for p in players:
        await p.wait_for(lambda p=p: p.state is not None and len(p.state["players"]) == n, 5)
    return players


async def close_all(players: list[Player]) -> None:
    for p in players:
        await p.close()


def test_an_emote_reaches_every_seat_in_the_lobby_and_at_the_table(server):
    async def main():
        players = await seated(server, 3)
        await players[1].send({"type": "emote", "emote": "wave"})
        for p in players:
            await p.wait_for(lambda p=p: emotes_of(p), 5)
            assert emotes_of(p) == [{"type": "emote", "player": players[1].grant["you"], "emote": "wave"}]
        await start_round(players)
        v = players[0].v
        # Another seat: players[1] may still be in its cooldown (that it ends is checked on
        # a fake clock, tests/rooms/test_emotes.py, not by waiting 1.5 s here).
        await players[2].send({"type": "emote", "emote": "gg"})
        for p in players:
            await p.wait_for(lambda p=p: len(emotes_of(p)) == 2, 5)
            assert emotes_of(p)[-1] == {"type": "emote", "player": players[2].grant["you"], "emote": "gg"}
        assert players[0].v == v  # not an event: no version
        await still_works(players)
        await close_all(players)

    run(main())


def test_unknown_or_malformed_emotes_are_refused_and_nothing_is_broadcast(server):
    async def main():
        players = await seated(server, 2)
        sender, other = players
        bad = [
            {"type": "emote", "emote": "shout"},
            {"type": "emote", "emote": "<b>hi</b>"},
            {"type": "emote"},
            {"type": "emote", "emote": 3},
            {"type": "emote", "emote": ["wave"]},
            {"type": "emote", "emote": "wave", "text": "hello all"},
            {"type": "emote", "emote": "WAVE"},
        ]
        for message in bad:
            await sender.send(message)
        await sender.wait_for(lambda: len(sender.errors) == len(bad), 5)
        assert all(e["code"] == "invalid" and e["message"] for e in sender.errors)
        assert "emote" in sender.errors[0]["message"]
        await still_works([other])  # its pong came after anything the bad ones could have sent
        assert emotes_of(other) == [] and emotes_of(sender) == []
        # the first good one still goes through: the bad ones started no cooldown
        await sender.send({"type": "emote", "emote": "thumbs_up"})
        await other.wait_for(lambda: emotes_of(other), 5)
        await close_all(players)

    run(main())


def test_a_second_emote_within_the_cooldown_is_refused_with_slow_down(server):
    async def main():
        players = await seated(server, 2)
        sender, other = players
        await sender.send({"type": "emote", "emote": "wave"})
        await sender.send({"type": "emote", "emote": "laugh"})
        await sender.wait_for(lambda: sender.errors, 5)
        assert sender.errors[0]["code"] == "slow_down"
        await still_works([other])
        assert [e["emote"] for e in emotes_of(other)] == ["wave"]
        await close_all(players)

    run(main())


def test_an_emote_flood_is_closed_like_any_flood_and_disturbs_no_one(server):
    """The test server allows 400 messages a second, 400 at once (conftest.py): past
    that an emote flood is closed with 1008 like a flood of pings; the cooldown lets
    at most one of its emotes reach the table, and the room and other rooms go on."""

    async def main():
        players = await seated(server, 3)
        other_room = await seated(server, 2)
        await start_round(players)
        flooder = players[2]
        frame = json.dumps({"type": "emote", "emote": "laugh"})
        with pytest.raises((websockets.ConnectionClosed, ConnectionError, asyncio.TimeoutError)):
            for _ in range(2000):
                await flooder.ws.send(frame)
            await flooder.wait_for(lambda: False, 5)
        assert flooder.close_code == 1008
        await still_works(players[:2])
        await still_works(other_room)
        assert [len(emotes_of(p)) for p in players[:2]] == [1, 1]
        assert all(emotes_of(p) == [] for p in other_room)
        await close_all(players[:2] + other_room)

    run(main())


def test_spectators_see_emotes_but_cannot_send_them(server):
    async def main():
        players = await seated(server, 2, max_players=2)
        watcher = Player(server.ws_base, await join_room(server.base, players[0].code, "Dee"))
        assert watcher.grant["spectator"]
        await watcher.connect()
        await watcher.wait_for(lambda: watcher.state is not None, 5)
        await watcher.send({"type": "emote", "emote": "wave"})
        await watcher.wait_for(lambda: watcher.errors, 5)
        assert watcher.errors[0]["code"] == "spectator"
        await players[0].send({"type": "emote", "emote": "wow"})
        await watcher.wait_for(lambda: emotes_of(watcher), 5)
        assert emotes_of(watcher)[0]["player"] == players[0].grant["you"]
        await still_works([players[1]])
        assert [e["emote"] for e in emotes_of(players[1])] == ["wow"]
        await close_all(players + [watcher])

    run(main())
