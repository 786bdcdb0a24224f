"""Moves make no reference cycles: the server's collector policy depends on it.

The server freezes what survives every tenth of a second (app/server/loop/collector.py), so
cyclic garbage is freed only by the rare full collection; a cycle made per move (a lost
race once kept its exception on its own traceback) would pile up between them. Here the
real hub, rooms, engine, bot driver and SQLite store play with the collector off, and
a full collection afterwards must find nothing unreachable. Counting objects, not
timing anything: a regression fails on any machine.
"""

from __future__ import annotations

import asyncio
import gc
import random

from app.config import Settings
from app.demon.hub.connection import Pipe
from app.demon.hub.hub import Hub
from app.demon.room.phases import Phase
from app.protocol import messages as m
from app.storage.store import Store
from tests.rooms.test_hub_flush import RecordingSocket, turns


async def people_race(hub: Hub, rng: random.Random, moves: int) -> int:
    """A room of 4 seats with sockets; every turn all of them play a random legal action
    (foundation plays first, so that seats race for the same piles and some lose)."""
    handle, host, _ = hub.create_room(m.CreateRoom(name="P0", rounds=20, max_players=8))
    players = [host]
    for i in range(1, 4):
        joined = hub.join_room(handle.room.code, f"P{i}")
        assert joined is not None
        players.append(joined[1])
    pipes = [Pipe(RecordingSocket(), 256) for _ in players]
    for player, pipe in zip(players, pipes):
        assert hub.attach(handle, player, pipe, None)
    hub.handle_message(handle, host, pipes[0], m.Start(type="start"))
    await turns()
    hub.outbox.publish(handle, handle.room.begin_round(hub.clock()))
    sent = 0
    while sent < moves:
        room = handle.room
        if room.phase is not Phase.PLAYING:
            hub.handle_message(handle, host, pipes[0], m.NextRound(type="next_round"))
            await turns()
            hub.outbox.publish(handle, room.begin_round(hub.clock()))
            continue
        for player, pipe in zip(players, pipes):
            legal = room.legal_for(player)
            if not legal:
                continue
            plays = [a for a in legal if a["type"] == "foundation"] or legal
            action = rng.choice(plays)
            sent += 1
            hub.handle_message(
                handle,
                player,
                pipe,
                m.Action.model_validate({"type": "action", "id": f"{player.id}-{sent}", "action": action}),
            )
        await turns()
        if sent % 40 == 0:  # now and then everybody votes (rule 17), so rounds end too
            for player, pipe in zip(players, pipes):
                hub.handle_message(handle, player, pipe, m.Vote(type="vote", end=True))
            await turns()
    return sent


def test_moves_races_and_bot_turns_leave_no_cyclic_garbage(tmp_path):
    async def main() -> tuple[int, int, int]:
        store = Store.open(tmp_path)
        hub = Hub(
            Settings(data_dir=tmp_path, countdown_s=0.0, test_seed=288, bot_think_scale=0.001, max_bots=20), store
        )
        await hub.start()
        rng = random.Random(25)
        await people_race(hub, rng, 40)  # warm: first-time imports and caches may hold cycles
        gc.collect()
        gc.disable()
        try:
            bots = hub.create_practice(m.PracticeRoom(name="B", bots=7, level="hard", rounds=5))
            bots[0].person_seen = True  # its person is at the table (their socket's `Hub.attach` says so)
            sent = await people_race(hub, rng, 600)
            # a fixed wait: the bots play on their timers meanwhile and after (time passing is the test)
            for _ in range(40):
                await asyncio.sleep(0.01)
            hub.bots.forget(bots[0])
            bot_actions = hub.bots.actions
            found = gc.collect()
        finally:
            gc.enable()
        await hub.stop()
        store.close()
        return sent, bot_actions, found

    sent, bot_actions, found = asyncio.run(main())
    assert sent >= 600 and bot_actions >= 50  # the play really happened
    assert found == 0, f"{found} objects in reference cycles after {sent} plays and {bot_actions} bot actions"


def test_the_collector_collects_in_full_only_once_the_frozen_heap_has_grown():
    """Frozen objects are freed by reference counting, cycles only by a full collection:
    it runs once the frozen heap has grown by the policy's factor, and not before."""
    from app.server.loop.collector import Collector

    collector = Collector(check_every=1, quiet_growth=1.05, floor=0)
    gc.disable()
    try:
        collector.full_collection()
        first = collector.full_collections
        collector.tick()  # nothing new: no full collection
        assert collector.full_collections == first
        kept = [[i] for i in range(int(collector.baseline * 0.1) + 1000)]  # 10 % more tracked objects
        for i in range(0, len(kept), 2):  # and cycles among them, garbage once `kept` goes
            kept[i].append(kept[i + 1] if i + 1 < len(kept) else kept[i])
            if i + 1 < len(kept):
                kept[i + 1].append(kept[i])
        collector.tick()  # frozen now, and past the limit: a full collection
        assert collector.full_collections == first + 1
        grown = collector.baseline
        del kept
        assert gc.get_freeze_count() >= grown - 100  # the cycles are still there, frozen ...
        collector.full_collection()
        assert collector.baseline < grown - 1000  # ... until a full collection frees them
    finally:
        gc.enable()


def test_the_collector_waits_for_nobody_racing_before_a_full_collection():
    """A full collection stops every table (160 ms at 50 rooms of 8): while someone races
    it waits, up to the leak's safety net, and runs once nobody does."""
    from app.server.loop.collector import Collector

    racing = True
    collector = Collector(lambda: racing, check_every=1, quiet_growth=1.05, busy_growth=1.5, busy_floor=0, floor=0)
    gc.disable()
    try:
        collector.full_collection()
        first = collector.full_collections
        kept = [[i] for i in range(int(collector.baseline * 0.2) + 1000)]  # 20 % more
        collector.tick()
        assert collector.full_collections == first  # grown past the quiet limit, but people race
        racing = False
        collector.tick()
        assert collector.full_collections == first + 1  # nobody races: now
        racing = True
        more = [[i] for i in range(int(collector.baseline * 0.6) + 1000)]  # past the busy limit
        collector.tick()
        assert collector.full_collections == first + 2  # the safety net, even while racing
        del kept, more
    finally:
        gc.enable()


def test_while_people_race_a_grown_heap_below_the_busy_floor_is_not_collected():
    """A server that starts nearly empty and fills up grows its heap many times over: the
    leak's safety net must not stop every table then (it did, 307 ms at 1,600 players),
    only once the heap is past what a process at capacity holds."""
    from app.server.loop.collector import Collector

    gc.disable()
    try:
        start = Collector(lambda: True, check_every=1, busy_growth=1.5, floor=0)
        start.full_collection()
        collector = Collector(lambda: True, check_every=1, busy_growth=1.5, busy_floor=start.baseline * 3, floor=0)
        collector.full_collection()
        first = collector.full_collections
        kept = [[i] for i in range(collector.baseline)]  # twice the heap: past the growth
        collector.tick()
        assert collector.full_collections == first  # but below the floor: no pause
        more = [[i] for i in range(collector.baseline * 2)]  # past the floor too
        collector.tick()
        assert collector.full_collections == first + 1
        del kept, more
    finally:
        gc.enable()
