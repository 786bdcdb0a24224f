"""A Nerts table over real WebSockets against a real uvicorn: an old page is told to
reload, a whole round played by two sockets converges with the server's snapshot, and
bad house rules are refused at the door (docs/protocol.md, "Nerts")."""

from __future__ import annotations

import asyncio
import copy
import random

import httpx
import pytest

from tests.support.ws_client import Player, create_room, join_room

CLOSE_OUTDATED = 4001


async def nerts_table(server, n: int = 2, house: dict | None = None, protocol: int | None = 2) -> list[Player]:
    grant = await create_room(server.base, "P0", game="nerts", house_rules=house or {})
    grants = [grant] + [await join_room(server.base, grant["code"], f"P{i}") for i in range(1, n)]
    players = [Player(server.ws_base, g) for g in grants]
    for p in players:
        await p.connect(protocol=protocol)
    await players[0].wait_for(lambda: players[0].state and len(players[0].state["players"]) == n)
    return players


def test_a_page_older_than_nerts_is_told_to_reload(server):
    async def main():
        grant = await create_room(server.base, "Ann", game="nerts")
        old = Player(server.ws_base, grant)
        await old.connect()  # a hello with no `protocol`
        await old.wait_for(lambda: old.close_code is not None, 5)
        assert old.close_code == CLOSE_OUTDATED
        assert old.state is None  # it was never shown the table
        new = Player(server.ws_base, grant)
        await new.connect(protocol=2)
        await new.wait_for(lambda: new.state is not None, 5)
        assert new.state["options"]["game"] == "nerts"
        await new.close()

    asyncio.run(main())


def test_switching_a_lobby_to_nerts_closes_the_old_pages_in_it(server):
    async def main():
        grant = await create_room(server.base, "Ann")
        host = Player(server.ws_base, grant)
        await host.connect(protocol=2)
        old = Player(server.ws_base, await join_room(server.base, grant["code"], "Bob"))
        await old.connect()
        await host.wait_for(lambda: host.state and len(host.state["players"]) == 2)
        await host.send({"type": "options", "game": "nerts", "house_rules": {"draw": 1}})
        await old.wait_for(lambda: old.close_code is not None, 5)
        assert old.close_code == CLOSE_OUTDATED
        await host.wait_for(lambda: host.state["options"].get("game") == "nerts", 5)
        assert host.state["options"]["house_rules"]["draw"] == 1
        assert host.close_code is None
        await host.close()

    asyncio.run(main())


def test_house_rules_no_table_deals_are_refused_at_the_door(server):
    async def main():
        async with httpx.AsyncClient() as http:
            for body in (
                {"name": "A", "game": "nerts", "house_rules": {"draw": 2}},
                {"name": "A", "game": "nerts", "house_rules": {"jokers": True}},
                {"name": "A", "game": "demon", "house_rules": {"draw": 1}},
                {"name": "A", "game": "chess"},
            ):
                r = await http.post(server.base + "/api/rooms", json=body)
                assert r.status_code == 422, (body, r.text)
                r = await http.post(server.base + "/api/rooms/practice", json=body)
                assert r.status_code == 422, (body, r.text)

    asyncio.run(main())


async def play(p: Player, rng: random.Random, steps: int) -> None:
    """Random legal actions, foundation plays first, then vote to end."""
    for _ in range(steps):
        if p.state["phase"] != "playing":
            return
        if not p.legal:
            await asyncio.sleep(0.01)
            continue
        home = [a for a in p.legal if a["type"] == "foundation"]
        action = rng.choice(home or p.legal)
        reply = await p.reply(await p.act(action))
        assert reply["type"] in ("ack", "rejected"), reply
        if reply["type"] == "rejected":
            assert reply["code"] in ("race_lost", "illegal", "round_over"), reply
    if p.state["phase"] == "playing":
        await p.send({"type": "vote", "end": True})


@pytest.mark.parametrize("house", [{"draw": 3}, {"draw": 1, "racing_spaces": True, "stall": False}])
def test_a_nerts_round_played_over_sockets_converges_with_the_server(server, house):
    async def main():
        players = await nerts_table(server, 2, house)
        await players[0].send({"type": "start"})
        for p in players:
            await p.wait_for(lambda p=p: p.state["phase"] == "playing" and p.legal, 10)
        assert players[0].state["round"]["seats"][0]["nerts_count"] == 13
        await asyncio.gather(*(play(p, random.Random(i), 300) for i, p in enumerate(players)))
        for p in players:
            await p.wait_for(lambda p=p: p.state["phase"] in ("round_over", "match_over"), 20)
        result = players[0].state["result"]
        assert result["reason"] in ("nerts", "stuck", "vote")
        for p in players:  # what each client built from events is what a snapshot says
            believed = copy.deepcopy(p.state)
            seen = len(p.received)
            await p.send({"type": "resync"})
            await p.wait_for(lambda p=p, seen=seen: any(m["type"] == "snapshot" for m in p.received[seen:]))
            assert p.state["round"] == believed["round"]
            assert p.state["result"] == believed["result"]
        for p in players:
            await p.close()

    asyncio.run(main())


@pytest.fixture
def bot_server(tmp_path):
    from tests.support.live_server import LiveServer

    srv = LiveServer(
        tmp_path, test_seed=288, countdown_s=0.2, bot_think_scale=0.03, rate_per_s=400, rate_burst=400, send_queue=4096
    )
    with srv:
        yield srv


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_nerts_practice_round_against_bots_is_played_out(bot_server, level):
    """Bots play Nerts from their seat's view through the same door as a person; the
    person lets them finish, and the round ends with N14 scores for everyone."""

    async def main():
        async with httpx.AsyncClient() as http:
            r = await http.post(
                bot_server.base + "/api/rooms/practice",
                json={
                    "name": "Ann",
                    "bots": 3,
                    "level": level,
                    "rounds": 1,
                    "game": "nerts",
                    "house_rules": {"draw": 1},
                },
            )
            r.raise_for_status()
        ann = Player(bot_server.ws_base, r.json())
        await ann.connect(protocol=2)
        await ann.wait_for(lambda: ann.state and ann.state["phase"] == "playing", 10)
        assert ann.state["options"]["house_rules"]["draw"] == 1
        # The bots are playing: their cards reach the foundations or their layouts change.
        start = copy.deepcopy(ann.state["round"]["seats"][1:])
        await ann.wait_for(lambda: ann.state["round"]["seats"][1:] != start, 20)
        await ann.send({"type": "vote", "end": True, "bots_finish": True})
        await ann.wait_for(lambda: ann.state["phase"] == "match_over", 120)
        result = ann.state["result"]
        assert result["reason"] in ("nerts", "stuck", "vote")
        assert set(result["scores"]) == {p["id"] for p in ann.state["players"]}
        await ann.close()

    asyncio.run(main())
