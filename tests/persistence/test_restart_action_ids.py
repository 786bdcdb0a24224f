"""The ids of applied actions are kept across a restart for the
current round *and the previous one*, on a real uvicorn killed with SIGKILL and started
again on the same SQLite file.

Before, only the current round's ids came back (from its saved log): a round-1 id resent
during round 2 after a restart was applied again as a new move (18 of 67 in the
black-box run).
"""

from __future__ import annotations

import asyncio
import random
import signal

import pytest

from tests.persistence.test_restart import SETTINGS, play_acknowledged, reconnect_all
from tests.server.test_ws_play import seat_players, start_round
from tests.support.live_server import LiveServer
from tests.support.ws_client import Player


async def end_round_by_vote(players: list[Player]) -> None:
    for p in players:
        await p.send({"type": "vote", "end": True})
    for p in players:
        await p.wait_for(lambda p=p: p.state["phase"] == "round_over", 10)


async def next_round(players: list[Player]) -> None:
    await players[0].send({"type": "next_round"})
    for p in players:
        await p.wait_for(lambda p=p: p.state["phase"] == "playing" and p.state["round_no"] == 2 and p.legal, 10)


@pytest.mark.slow
def test_previous_round_action_ids_survive_a_sigkill(tmp_path):
    async def before(server):
        players = await seat_players(server, 2, rounds=3)
        await start_round(players)
        round1 = await play_acknowledged(players, 30, random.Random(5))
        await end_round_by_vote(players)
        await next_round(players)
        round2 = await play_acknowledged(players, 6, random.Random(6))
        await players[0].wait_for(lambda: all(p.v == players[0].v for p in players))
        return players, round1, round2

    async def after(server, players, round1, round2):
        again = await reconnect_all(server, players)
        for seat, action_id in round1 + round2:  # every acknowledged id of both rounds
            p = next(q for q in again if q.seat == seat)
            v_before = p.v
            await p.act({"type": "draw"}, action_id)
            dup = await p.reply(action_id)
            assert dup["type"] == "ack" and dup.get("duplicate"), (action_id, dup)
            await asyncio.sleep(0.02)  # a fixed wait: the duplicate must *not* be applied meanwhile
            assert p.v == v_before, f"{action_id} was applied again"
        for q in again:
            await q.close()

    server = LiveServer(tmp_path, **SETTINGS).start()
    try:
        players, round1, round2 = asyncio.run(before(server))
        assert len(round1) >= 20 and round2
        server.stop(signal.SIGKILL)
        server.start()
        asyncio.run(after(server, players, round1, round2))
    finally:
        server.stop()
