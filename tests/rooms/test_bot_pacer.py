"""The pacer (app/demon/hub/pacer.py): bots finishing rounds for their people share one
budget of the event loop, however many rooms hurry them.

Counted, not timed: how many bot plays one turn of the event loop runs (a callback that
puts itself back with `call_soon` runs exactly once a turn and reads the count). The
hub, rooms, bot driver and engines are the real ones; only the people's network is a
recorder. What a stall costs in milliseconds is the benchmark's
(`bench/server.py --bots-finish`), not a test's.
"""

from __future__ import annotations

import asyncio

import pytest

from app.demon.hub.connection import Pipe
from app.demon.hub.hub import Hub
from app.demon.hub.pacer import Pacer
from app.demon.room.room import Phase
from app.protocol import messages as m
from tests.rooms.test_bots import fast, until
from tests.rooms.test_hub_flush import RecordingSocket, turns

ROOMS = 30  # 210 bots: far more than one turn's budget, all hurried at once


@pytest.mark.parametrize("game", ["demon", "nerts"])
def test_many_rooms_letting_their_bots_finish_play_at_most_the_budget_in_one_loop_turn(tmp_path, game):
    """Thirty people hand their rounds to their seven bots each, at once. With think times
    shrunk (every hurried bot is due again within a millisecond) each bot's timer used to
    play as it fired, so one turn of the loop ran as many plays as bots had come due:
    over a hundred, back to back, while no other table moved. Through the pacer no turn
    runs more than its budget, and the bots still play on, in every room."""

    async def main():
        hub = Hub(fast(tmp_path, bot_think_scale=0.01, max_bots=ROOMS * 7, test_seed=None))
        plays = 0
        played_in: set[str] = set()
        door = hub.bot_message

        def counting_door(handle, player, msg):  # the real door, counted
            nonlocal plays
            if isinstance(msg, m.Action):
                plays += 1
                played_in.add(handle.room.code)
            return door(handle, player, msg)

        hub.bot_message = counting_door  # type: ignore[method-assign]
        people = []
        for i in range(ROOMS):
            handle, person, _ = hub.create_practice(
                m.PracticeRoom(name=f"P{i}", bots=7, level="hard", rounds=1, game=game)
            )
            pipe = Pipe(RecordingSocket(), 1 << 16)
            assert hub.attach(handle, person, pipe, None)
            people.append((handle, person, pipe))
        await until(lambda: all(h.room.phase is Phase.PLAYING for h, _, _ in people))
        for handle, person, pipe in people:
            hub.handle_message(handle, person, pipe, m.Vote(type="vote", end=True, bots_finish=True))
        assert all(h.room.bots_finish for h, _, _ in people)
        await turns()  # the votes' flush: the bots' timers at a person's pace are cancelled there

        loop = asyncio.get_running_loop()
        per_turn: list[int] = []
        seen = plays
        enough = plays + 600

        def once_a_turn() -> None:
            nonlocal seen
            per_turn.append(plays - seen)  # (the first reading also counts the rest of this turn)
            seen = plays
            if plays < enough:
                loop.call_soon(once_a_turn)

        loop.call_soon(once_a_turn)
        await until(lambda: plays >= enough, timeout=60)
        hub.bots.stopped = True
        for handle, _, _ in people:
            hub.bots.forget(handle)
        return per_turn, played_in, hub.bots.pacer

    per_turn, played_in, pacer = asyncio.run(main())
    assert sum(per_turn) >= 600
    assert max(per_turn[1:]) <= pacer.per_turn, sorted(per_turn[1:])[-5:]
    assert len(played_in) == ROOMS  # first come, first served: no room waits for the others' rounds


def test_a_bot_at_a_persons_pace_does_not_wait_for_the_pacer(tmp_path):
    """Only hurried bots queue: a practice round nobody handed over plays at its timers."""

    async def main():
        hub = Hub(fast(tmp_path))
        handle, person, _ = hub.create_practice(m.PracticeRoom(name="Ann", bots=3, level="hard", rounds=1))
        assert hub.attach(handle, person, Pipe(RecordingSocket(), 4096), None)
        await until(lambda: hub.bots.actions >= 20)
        hub.bots.forget(handle)
        return hub.bots.pacer

    pacer = asyncio.run(main())
    assert pacer.ran == 0 and pacer.slices == 0


class Ticks:
    """A clock that moves one second every time a turn runs (and only then)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_slice_stops_at_its_budget_or_its_time_and_skips_cancelled_turns():
    async def main():
        loop = asyncio.get_running_loop()
        clock = Ticks()
        pacer = Pacer(per_turn=5, slice_s=2.5, share=1.0, clock=clock)
        ran: list[int] = []
        tokens = []
        for i in range(12):
            token = loop.call_later(3600, lambda: None)  # a timer that fired, as the driver's are
            tokens.append(token)

            def turn(i: int = i) -> None:
                clock.now += 1.0
                ran.append(i)

            pacer.push(token, turn)
        tokens[1].cancel()  # its room moved on: skipped, and not counted against the budget
        slices = []
        while len(pacer):
            before = len(ran)
            await asyncio.sleep(0)
            slices.append(len(ran) - before)
        for token in tokens:
            token.cancel()
        return ran, slices

    ran, slices = asyncio.run(main())
    assert ran == [0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]  # in the order they came, once each
    # three turns take the slice's 2.5 s (the first always runs): then the loop's turn ends
    assert [n for n in slices if n] == [3, 3, 3, 2]


def test_the_pacer_refuses_a_budget_that_runs_nothing():
    for bad in ({"per_turn": 0}, {"slice_s": 0.0}, {"share": 0.0}, {"share": 1.5}):
        with pytest.raises(ValueError):
            Pacer(**bad)


def test_a_turn_that_raises_does_not_stop_the_queue():
    async def main():
        pacer = Pacer(per_turn=1)
        loop = asyncio.get_running_loop()
        token = loop.call_later(3600, lambda: None)
        ran: list[str] = []

        def broken() -> None:
            raise RuntimeError("a bug in one bot")

        pacer.push(token, broken)
        pacer.push(token, lambda: ran.append("next"))
        for _ in range(20):
            await asyncio.sleep(0.001)
            if ran:
                break
        token.cancel()
        return ran

    loop = asyncio.new_event_loop()
    errors: list[dict] = []
    loop.set_exception_handler(lambda _loop, context: errors.append(context))
    try:
        assert loop.run_until_complete(main()) == ["next"]
    finally:
        loop.close()
    assert [str(e.get("exception")) for e in errors] == ["a bug in one bot"]  # reported by the loop, as any callback's
