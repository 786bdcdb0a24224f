"""Bots over a real uvicorn and real WebSockets: the host adds and removes them, every bad
request gets a clear error and changes nothing, and a practice room (you and the bots)
plays a round to its end."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from tests.support.live_server import LiveServer
from tests.support.ws_client import Player, create_room, join_room

MAX_BOTS = 4


@pytest.fixture
def bot_server(tmp_path):
    srv = LiveServer(
        tmp_path,
        test_seed=288,
        countdown_s=0.2,
        max_bots=MAX_BOTS,
        bot_think_scale=0.03,
        rate_per_s=400,
        rate_burst=400,
        send_queue=4096,
    )
    with srv:
        yield srv


async def practice(server, **body) -> httpx.Response:
    async with httpx.AsyncClient() as http:
        return await http.post(server.base + "/api/rooms/practice", json={"name": "Ann", **body})


async def rooms_held(server) -> int:
    async with httpx.AsyncClient() as http:
        return (await http.get(server.base + "/health")).json()["rooms"]


async def lobby(server, n: int = 2, max_players: int = 3) -> list[Player]:
    grant = await create_room(server.base, "Host", rounds=1, max_players=max_players)
    grants = [grant] + [await join_room(server.base, grant["code"], f"G{i}") for i in range(1, n)]
    players = [Player(server.ws_base, g) for g in grants]
    for p in players:
        await p.connect()
    for p in players:  # everyone has seen everyone arrive: no event is still on its way
        await p.wait_for(
            lambda p=p: (
                p.state is not None and len(p.state["players"]) == n and all(x["connected"] for x in p.state["players"])
            ),
            5,
        )
    await players[0].wait_for(lambda: len({p.v for p in players}) == 1, 5)
    return players


async def refused(p: Player, message: dict, code: str) -> None:
    """`message` is answered with an error `code`, and nothing in the room changes."""
    before_v, before_state, errors = p.v, p.state, len(p.errors)
    await p.send(message)
    await p.wait_for(lambda: len(p.errors) > errors, 5)
    assert p.errors[-1]["code"] == code, p.errors[-1]
    await p.send({"type": "ping"})
    pongs = sum(1 for m in p.received if m["type"] == "pong")
    await p.wait_for(lambda: sum(1 for m in p.received if m["type"] == "pong") > pongs, 5)
    assert p.v == before_v and p.state == before_state


def test_the_host_adds_and_removes_a_bot_and_every_bad_request_changes_nothing(bot_server):
    async def main():
        host, guest = await lobby(bot_server)
        await refused(guest, {"type": "add_bot", "level": "hard"}, "not_host")
        await refused(host, {"type": "add_bot", "level": "godlike"}, "invalid")
        await refused(host, {"type": "add_bot", "level": "hard", "seat": 2}, "invalid")
        await host.send({"type": "add_bot", "level": "hard"})
        await guest.wait_for(lambda: len(guest.state["players"]) == 3, 5)
        bot = guest.state["players"][2]
        assert bot["bot"] == "hard" and bot["name"] == "Bot 1" and bot["connected"] and bot["seat"] == 2
        assert [p["bot"] for p in guest.state["players"][:2]] == [None, None]
        await refused(host, {"type": "add_bot", "level": "easy"}, "room_full")
        await refused(guest, {"type": "remove_bot", "player": bot["id"]}, "not_host")
        await refused(host, {"type": "remove_bot", "player": guest.grant["you"]}, "invalid")
        await host.send({"type": "remove_bot", "player": bot["id"]})
        await guest.wait_for(lambda: len(guest.state["players"]) == 2, 5)
        await host.send({"type": "add_bot", "level": "easy"})
        await guest.wait_for(lambda: len(guest.state["players"]) == 3, 5)
        await host.send({"type": "start"})
        await host.wait_for(lambda: host.state["phase"] == "playing", 5)
        await refused(host, {"type": "remove_bot", "player": host.state["players"][2]["id"]}, "bad_phase")
        for p in (host, guest):
            await p.close()

    asyncio.run(main())


def test_the_servers_bot_limit_is_kept_and_a_refused_practice_room_is_not_created(bot_server):
    async def main():
        r = await practice(bot_server, bots=MAX_BOTS, level="easy")
        assert r.status_code == 200, r.text
        rooms = await rooms_held(bot_server)
        r = await practice(bot_server, bots=1)
        assert r.status_code == 503 and "bots" in r.json()["detail"]
        assert await rooms_held(bot_server) == rooms
        host, _guest = await lobby(bot_server)
        await refused(host, {"type": "add_bot", "level": "easy"}, "too_many_bots")
        for body in (
            {"bots": 0},
            {"bots": 8},
            {"bots": 2, "level": "expert"},
            {"bots": "3"},
            {"bots": 2, "extra": True},
        ):
            bad = await practice(bot_server, **body)
            assert bad.status_code == 422, body
        assert await rooms_held(bot_server) == rooms + 1  # only the lobby above

    asyncio.run(main())


def test_a_practice_room_plays_a_round_to_its_end_over_a_real_socket(tmp_path):
    server = LiveServer(tmp_path, test_seed=7, countdown_s=0.2, bot_think_scale=0.03)

    async def main():
        r = await practice(server, bots=3, level="hard", rounds=1)
        assert r.status_code == 200
        grant = r.json()
        assert grant["seat"] == 0 and not grant["spectator"]
        ann = Player(server.ws_base, grant)
        await ann.connect()
        await ann.wait_for(lambda: ann.state and ann.state["phase"] == "playing" and ann.legal, 10)
        assert [p["bot"] for p in ann.state["players"]] == [None, "hard", "hard", "hard"]
        assert ann.state["host"] == grant["you"]
        await ann.wait_for(
            lambda: sum(1 for m in ann.received if m["type"] == "event" and m["event"]["kind"] == "move") >= 20, 20
        )
        await ann.send({"type": "vote", "end": True})
        await ann.wait_for(lambda: ann.state["phase"] == "match_over", 90)
        assert ann.gaps == 0  # every version arrived, once, in order
        moves = [m["event"] for m in ann.received if m["type"] == "event" and m["event"]["kind"] == "move"]
        assert {mv["seat"] for mv in moves} == {1, 2, 3}
        for mv in moves:
            view = mv["seat_view"]
            held = sum(p["down"] + len(p["up"]) for p in view["tableau"]) + view["stock"] + view["waste_count"]
            assert held + mv["cards_home"][mv["seat"]] == 52
        result = ann.state["result"]
        assert result["reason"] in ("vote", "demon", "stuck") and result["match_over"]
        assert set(result["scores"]) == {p["id"] for p in ann.state["players"]}
        await ann.close()
        async with httpx.AsyncClient() as http:
            games = (
                await http.post(f"{server.base}/api/rooms/{grant['code']}/history", json={"token": grant["token"]})
            ).json()["games"]
        mine = next(g for g in games if g["code"] == grant["code"])
        assert [p.get("bot") for p in mine["players"]] == [None, "hard", "hard", "hard"]

    with server:
        asyncio.run(main())
