"""The practice-round coach over a real uvicorn and real WebSockets: answered in a room of
one person and a bot, with a play the server then accepts; refused (`not_practice`,
nothing changed) in a race between two people."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from tests.server.test_ws_bots import refused
from tests.support.live_server import LiveServer
from tests.support.ws_client import Player, create_room, join_room


@pytest.fixture(scope="module")
def coach_server(tmp_path_factory):
    # Slow bots (an easy one thinks 15-30 s): the table holds still while the test plays.
    srv = LiveServer(
        tmp_path_factory.mktemp("ws-coach"),
        test_seed=288,
        countdown_s=0.2,
        bot_think_scale=10,
        rate_per_s=400,
        rate_burst=400,
    )
    with srv:
        yield srv


async def coach(p: Player) -> dict:
    seen = sum(1 for m in p.received if m["type"] == "coach")
    await p.send({"type": "coach"})
    await p.wait_for(lambda: sum(1 for m in p.received if m["type"] == "coach") > seen, 5)
    return [m for m in p.received if m["type"] == "coach"][-1]


def test_a_practice_room_is_coached_and_the_advice_is_accepted(coach_server):
    async def main():
        async with httpx.AsyncClient() as http:
            r = await http.post(
                coach_server.base + "/api/rooms/practice", json={"name": "Ann", "bots": 1, "level": "easy", "rounds": 1}
            )
        assert r.status_code == 200, r.text
        ann = Player(coach_server.ws_base, r.json())
        await ann.connect()
        await ann.wait_for(lambda: ann.state is not None and ann.state["phase"] == "playing" and ann.legal, 10)
        for _step in range(4):
            answer = await coach(ann)
            assert answer["why"]["kind"] in ("ace", "home", "uncover", "waste", "free", "empty", "draw", "recycle")
            assert answer["action"] in ann.legal, (answer, ann.legal)
            action_id = await ann.act(answer["action"])
            reply = await ann.reply(action_id)
            assert reply["type"] == "ack", reply
        await ann.close()

    asyncio.run(main())


def test_a_race_between_people_is_not_coached(coach_server):
    async def main():
        grant = await create_room(coach_server.base, "Ann", rounds=1, max_players=2)
        ann = Player(coach_server.ws_base, grant)
        bob = Player(coach_server.ws_base, await join_room(coach_server.base, grant["code"], "Bob"))
        for p in (ann, bob):
            await p.connect()
        await ann.wait_for(lambda: ann.state is not None and len(ann.state["players"]) == 2, 5)
        await ann.send({"type": "start"})
        for p in (ann, bob):
            await p.wait_for(lambda p=p: p.state is not None and p.state["phase"] == "playing" and p.legal, 10)
        await ann.wait_for(lambda: ann.v == bob.v, 5)
        for p in (ann, bob):
            await refused(p, {"type": "coach"}, "not_practice")
        assert not [m for p in (ann, bob) for m in p.received if m["type"] == "coach"]
        await refused(ann, {"type": "coach", "seat": 1}, "invalid")  # no fields: a typo is an error
        for p in (ann, bob):
            await p.close()

    asyncio.run(main())
