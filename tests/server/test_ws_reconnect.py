"""Reconnection mid-round: with missed events, without, and past the replay window.
After coming back, a client's state is identical to one that never dropped."""

from __future__ import annotations

import asyncio
import random

import pytest

from tests.server.test_ws_play import choose, seat_players, start_round
from tests.support.live_server import LiveServer


async def play_some(p, n: int, rng: random.Random) -> None:
    for _ in range(n):
        action = choose(p.legal, rng, p.state["round"]["seats"][p.seat])
        if action is None or p.state["phase"] != "playing":
            return
        reply = await p.reply(await p.act(action))
        await p.wait_for(lambda: reply.get("v") is None or p.v >= reply["v"])


async def scenario(server, moves_while_away: int) -> tuple[int, int]:
    players = await seat_players(server, 3)
    await start_round(players)
    rng = random.Random(moves_while_away)
    await play_some(players[0], 5, rng)
    dropped = players[2]
    await dropped.wait_for(lambda: dropped.v == players[0].v)
    await dropped.close()
    assert players[0].state is not None
    await players[0].wait_for(lambda: any(p["seat"] == 2 and not p["connected"] for p in players[0].state["players"]))
    await play_some(players[0], moves_while_away, rng)
    await play_some(players[1], moves_while_away, rng)
    snapshots_before = sum(1 for m in dropped.received if m["type"] == "snapshot")
    await dropped.connect(resume=True)
    await players[0].wait_for(lambda: all(p["connected"] for p in players[0].state["players"]))
    await dropped.wait_for(lambda: dropped.v == players[0].v)
    assert dropped.state == players[0].state
    assert dropped.legal  # its legal actions were sent again
    # It can play on: its next action is acknowledged.
    await play_some(dropped, 2, rng)
    await players[0].wait_for(lambda: players[0].v == dropped.v)
    assert dropped.state == players[0].state
    snapshots = sum(1 for m in dropped.received if m["type"] == "snapshot") - snapshots_before
    for p in players:
        await p.close()
    return snapshots, dropped.gaps


def test_reconnect_without_missed_events(server):
    snapshots, gaps = asyncio.run(scenario(server, 0))
    assert snapshots == 0 and gaps == 0


def test_reconnect_with_missed_events_replays_them(server):
    snapshots, gaps = asyncio.run(scenario(server, 10))
    assert snapshots == 0 and gaps == 0


@pytest.mark.slow
def test_reconnect_past_the_replay_window_gets_a_snapshot(tmp_path):
    with LiveServer(tmp_path, replay_window=8, countdown_s=0.1, rate_per_s=400, rate_burst=400, test_seed=288) as srv:
        snapshots, gaps = asyncio.run(scenario(srv, 20))
    assert snapshots == 1 and gaps == 0
