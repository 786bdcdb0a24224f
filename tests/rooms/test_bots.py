"""Bots as seats, without sockets: the room's rules for adding and removing them, and
bots playing whole rounds through the real hub (its dispatch, flush and timers) with a
recording socket for the person at the table.

The hub, the rooms, the bot driver and the decision engine are the real ones; only the
person's network is a recorder (tests/server plays the same over a real uvicorn).
"""

from __future__ import annotations

import asyncio

import pytest

from app.config import Settings
from app.demon.hub.connection import Pipe
from app.demon.hub.hub import Hub
from app.demon.room.room import Phase, RoomError
from app.demon.rules.round import DemonRound
from app.protocol import messages as m
from tests.rooms.test_hub_flush import RecordingSocket, turns
from tests.rooms.test_room import T0, make_room
from tests.support.actions import as_sent


def snapshot(room) -> tuple:
    return room.v, room.public_state(T0)


# ----------------------------------------------------------------- the room's rules


def test_the_host_seats_bots_that_show_as_bots_and_removes_them():
    room, (host, guest) = make_room(2, max_players=4)
    out, bot = room.add_bot(host, "hard", T0)
    assert [e["event"]["kind"] for e in out.events] == ["room"]
    assert bot.seat == 2 and bot.name == "Bot 1" and bot.bot.level == "hard"
    players = room.public_state(T0)["players"]
    assert [p["bot"] for p in players] == [None, None, "hard"]
    assert players[2]["connected"] is True  # at the table, always
    assert room.to_public_summary()["players"][2]["bot"] == "hard"
    _, second = room.add_bot(host, "easy", T0)
    assert second.name == "Bot 2" and second.colour not in (host.colour, guest.colour, bot.colour)
    assert room.seating.by_token("") is None  # a bot has no token
    room.remove_bot(host, bot.id, T0)
    assert [p.id for p in room.players] == [host.id, guest.id, second.id]
    assert [p.seat for p in room.players] == [0, 1, 2]


def bad_requests():
    """(name, how to set the room up, the request) for every refused bot request."""

    def full(room, host, guest):
        room.add_bot(host, "easy", T0)
        room.add_bot(host, "easy", T0)

    def playing(room, host, guest):
        room.add_bot(host, "easy", T0)
        room.start(host, T0)
        room.begin_round(T0 + 3)

    def counting_down(room, host, guest):
        room.start(host, T0)

    def nothing(room, host, guest):
        room.add_bot(host, "medium", T0)

    def bot_id(room):
        return room.bots()[0].id

    return [
        ("full", full, lambda room, host, guest: room.add_bot(host, "hard", T0), "room_full"),
        ("in play", playing, lambda room, host, guest: room.add_bot(host, "hard", T0), "bad_phase"),
        ("countdown", counting_down, lambda room, host, guest: room.add_bot(host, "hard", T0), "bad_phase"),
        ("not host", nothing, lambda room, host, guest: room.add_bot(guest, "hard", T0), "not_host"),
        ("level", nothing, lambda room, host, guest: room.add_bot(host, "godlike", T0), "invalid"),
        ("remove not host", nothing, lambda room, host, guest: room.remove_bot(guest, bot_id(room), T0), "not_host"),
        ("remove a person", nothing, lambda room, host, guest: room.remove_bot(host, guest.id, T0), "invalid"),
        ("remove nobody", nothing, lambda room, host, guest: room.remove_bot(host, "p99", T0), "invalid"),
        ("remove in play", playing, lambda room, host, guest: room.remove_bot(host, bot_id(room), T0), "bad_phase"),
    ]


@pytest.mark.parametrize("name,setup,request_,code", bad_requests(), ids=[b[0] for b in bad_requests()])
def test_a_refused_bot_request_says_why_and_changes_nothing(name, setup, request_, code):
    room, (host, guest) = make_room(2, max_players=4)
    setup(room, host, guest)
    before = snapshot(room)
    next_player = room.seating.next_number
    with pytest.raises(RoomError) as err:
        request_(room, host, guest)
    assert err.value.code == code
    assert snapshot(room) == before and room.seating.next_number == next_player


def test_the_host_is_always_a_person_and_bots_do_not_keep_a_room_alive():
    room, (host, guest) = make_room(2, max_players=4)
    room.add_bot(host, "easy", T0)
    room.leave(host, T0)
    assert room.host == guest.id
    room.disconnect(guest, T0)
    assert room.is_idle(T0 + 1000, 300)  # the bot is "connected", but is not a person
    room.leave(guest, T0)
    assert room.host is None and not room.has_people()
    joiner = room.join("Cy", b"x" * 32)
    assert room.host == joiner.id


def test_bots_follow_the_people_a_persons_vote_ends_a_round_with_bots():
    """Rule 17 as decided (docs/rules.md): while a person is in the round, the people's
    votes alone end it; a bot's vote does not hold a person back, nor count for them."""
    room, (host,) = make_room(1, max_players=3)
    _, bot = room.add_bot(host, "easy", T0)
    room.start(host, T0)
    room.begin_round(T0 + 3)
    room.vote(bot, True)
    assert room.phase is Phase.PLAYING  # a bot's vote alone ends nothing
    room.vote(host, True)
    assert room.phase is not Phase.PLAYING and room.result["reason"] == "vote"


def test_with_two_people_and_a_bot_both_people_must_vote():
    room, (ann, bob) = make_room(2, max_players=3)
    room.add_bot(ann, "hard", T0)
    room.start(ann, T0)
    room.begin_round(T0 + 3)
    room.vote(ann, True)
    assert room.phase is Phase.PLAYING
    room.vote(bob, True)
    assert room.phase is not Phase.PLAYING and room.result["reason"] == "vote"


def test_a_person_alone_with_bots_may_let_them_finish_and_then_the_bots_decide():
    room, (host,) = make_room(1, max_players=4)
    _, b1 = room.add_bot(host, "easy", T0)
    _, b2 = room.add_bot(host, "hard", T0)
    room.start(host, T0)
    room.begin_round(T0 + 3)
    out = room.vote(host, True, bots_finish=True)
    assert room.phase is Phase.PLAYING and room.bots_finish
    assert out.events[-1]["event"] == {"kind": "votes", "votes": [0], "bots_finish": True}
    assert room.round_view()["bots_finish"] is True
    room.vote(b1, True)
    assert room.phase is Phase.PLAYING  # one bot still plays on
    room.vote(b2, True)
    assert room.phase is not Phase.PLAYING and room.result["reason"] == "vote"


def test_taking_the_vote_back_takes_the_round_back_from_the_bots():
    room, (host,) = make_room(1, max_players=3)
    _, bot = room.add_bot(host, "easy", T0)
    room.start(host, T0)
    room.begin_round(T0 + 3)
    room.vote(host, True, bots_finish=True)
    room.vote(host, False)
    assert not room.bots_finish and "bots_finish" not in room.round_view()
    room.vote(bot, True)
    assert room.phase is Phase.PLAYING  # the person decides again


def test_letting_the_bots_finish_is_refused_where_another_person_plays():
    room, (ann, bob) = make_room(2, max_players=3)
    room.add_bot(ann, "easy", T0)
    room.start(ann, T0)
    room.begin_round(T0 + 3)
    before = snapshot(room)
    with pytest.raises(RoomError) as refused:
        room.vote(ann, True, bots_finish=True)
    assert refused.value.code == "not_practice"
    with pytest.raises(RoomError):
        room.vote(ann, False, bots_finish=True)  # it goes with a vote to end
    assert snapshot(room) == before and not room.bots_finish


# ----------------------------------------------------------------- bots in the hub


def fast(tmp_path, **overrides) -> Settings:
    values = {
        "data_dir": tmp_path,
        "countdown_s": 0.0,
        "test_seed": 288,
        "persist": False,
        "bot_think_scale": 0.001,
        **overrides,
    }
    return Settings(**values)


def seat_cards(view: dict, home: int) -> int:
    return sum(p["down"] + len(p["up"]) for p in view["tableau"]) + view["stock"] + view["waste_count"] + home


async def until(predicate, timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        assert loop.time() < deadline, "timed out"
        await asyncio.sleep(0.01)


@pytest.mark.parametrize("seed,bots,level", [(288, 3, "hard"), (7, 7, "medium"), (4242, 2, "easy")])
def test_seeded_bot_rounds_play_to_the_end_through_the_room(tmp_path, seed, bots, level):
    """A person who lets the bots finish at once, and bots that play until they give up:
    the round ends by their votes (or a bot's Demon, or all stuck), every seat's 52 cards
    are accounted for after every move, and the person's socket sees every version once,
    in order."""

    async def main():
        hub = Hub(fast(tmp_path, test_seed=seed))
        handle, person, _ = hub.create_practice(m.PracticeRoom(name="Ann", bots=bots, level=level, rounds=1))
        room = handle.room
        sock = RecordingSocket()
        pipe = Pipe(sock, 4096)
        assert hub.attach(handle, person, pipe, None)
        await until(lambda: room.phase is Phase.PLAYING)
        hub.handle_message(handle, person, pipe, m.Vote(type="vote", end=True, bots_finish=True))
        await until(lambda: room.phase is not Phase.PLAYING)
        await turns()
        messages = sock.messages()
        first_v = next(msg["v"] for msg in messages if msg["type"] == "snapshot")
        versions = [msg["v"] for msg in messages if msg["type"] == "event"]
        assert versions == list(range(first_v + 1, room.v + 1))  # gap-free, nothing twice
        moves = [msg["event"] for msg in messages if msg["type"] == "event" and msg["event"]["kind"] == "move"]
        assert len(moves) > 50 and {mv["seat"] for mv in moves} == set(range(1, bots + 1))
        for mv in moves:
            assert seat_cards(mv["seat_view"], mv["cards_home"][mv["seat"]]) == 52
        final = room.round
        for s in range(bots + 1):
            assert len(final.seats[s].cards()) + final.foundation_counts()[s] == 52
        assert room.result["reason"] in ("vote", "demon", "stuck")
        assert sum(room.result["scores"].values()) > 0
        assert hub.bots.actions >= len(moves)
        assert not [t for t in handle.bot_timers.values() if not t.cancelled()] or room.phase is not Phase.PLAYING

    asyncio.run(main())


def race_round() -> DemonRound:
    """Seats 0 (a person) and 1 (a bot) both show the 2 of clubs; the ace is home. (The 3
    in seat 0's stock keeps the round going once a 2 is home.)"""
    return DemonRound.from_layout(
        [
            {"tableau": [{"up": ["2C"]}] + [{}] * 6, "stock": "3C"},
            {"tableau": [{"up": ["2C"]}] + [{}] * 6, "stock": "9H"},
        ],
        [[("AC", 0)]],
    )


async def race_table(tmp_path, think_scale: float):
    hub = Hub(fast(tmp_path, bot_think_scale=10))  # no bot moves while the table is set
    handle, person, _ = hub.create_room(m.CreateRoom(name="Ann", rounds=1, max_players=2))
    sock = RecordingSocket()
    pipe = Pipe(sock, 256)
    assert hub.attach(handle, person, pipe, None)
    hub.handle_message(handle, person, pipe, m.AddBot(type="add_bot", level="hard"))
    hub.handle_message(handle, person, pipe, m.Start(type="start"))
    await until(lambda: handle.room.phase is Phase.PLAYING)
    hub.bots.forget(handle)  # the dealt round's thoughts: this test sets its own table
    hub.bots.think_scale = think_scale
    handle.room.round = race_round()
    bot = handle.room.bots()[0]
    hub.bots.think(handle, bot)  # it sees the 2 of clubs and reaches for it
    assert bot.id in handle.bot_timers
    return hub, handle, person, bot, sock, pipe


def play_two(pipe_id: str) -> m.Action:
    return m.Action.model_validate(
        {"type": "action", "id": pipe_id, "action": {"type": "foundation", "src": 0, "pile": 0}}
    )


def test_a_person_who_arrives_first_wins_the_race_against_a_bot(tmp_path):
    async def main():
        hub, handle, person, bot, sock, pipe = await race_table(tmp_path, think_scale=0.05)
        hub.handle_message(handle, person, pipe, play_two("mine"))  # arrives while the bot thinks
        await until(lambda: bool(handle.room.answered.of(bot.id)), timeout=10)
        await turns()
        ack = [msg for msg in sock.messages() if msg["type"] == "ack"]
        assert [a["id"] for a in ack] == ["mine"]
        lost = handle.room.answered.of(bot.id)[0]
        assert lost["type"] == "rejected" and lost["code"] == "race_lost" and lost["by_seat"] == 0
        assert lost["by_name"] == "Ann" and lost["id"].startswith(f"bot-{hub.epoch}-")
        assert handle.room.round.foundations[0][-1] == (handle.room.round.foundations[0][-1][0], 0)
        hub.bots.forget(handle)

    asyncio.run(main())


def test_a_bot_that_arrives_first_wins_the_race_against_a_person(tmp_path):
    async def main():
        hub, handle, person, bot, sock, pipe = await race_table(tmp_path, think_scale=0.001)
        await until(lambda: bool(handle.room.answered.of(bot.id)))  # the bot's hand gets there first
        hub.handle_message(handle, person, pipe, play_two("mine"))
        await turns()
        mine = next(msg for msg in sock.messages() if msg.get("id") == "mine")
        assert mine["type"] == "rejected" and mine["code"] == "race_lost"
        assert mine["by_seat"] == 1 and mine["by_name"] == bot.name
        assert [r["type"] for r in handle.room.answered.of(bot.id)][:1] == ["ack"]
        hub.bots.forget(handle)

    asyncio.run(main())


def test_bad_bot_messages_get_an_error_and_change_nothing(tmp_path):
    """Through the hub's dispatch, as a socket's message: not the host, a full room, a
    room in play, more bots than DEMON_MAX_BOTS."""

    async def main():
        hub = Hub(fast(tmp_path, max_bots=3))
        handle, host, _ = hub.create_room(m.CreateRoom(name="Ann", rounds=1, max_players=3))
        _, guest, _ = hub.join_room(handle.room.code, "Bob")
        socks = [RecordingSocket(), RecordingSocket()]
        pipes = [Pipe(s, 256) for s in socks]
        for p, pipe in zip((host, guest), pipes):
            assert hub.attach(handle, p, pipe, None)
        await turns()
        room = handle.room

        async def refused(player, pipe, sock, msg, code: str) -> None:
            await turns()
            before = (room.v, room.public_state(T0), hub.bot_count())
            sock.frames.clear()
            hub.handle_message(handle, player, pipe, msg)
            await turns()
            assert (room.v, room.public_state(T0), hub.bot_count()) == before
            assert [(r["type"], r["code"]) for r in sock.messages()] == [("error", code)]

        add = m.AddBot(type="add_bot", level="easy")
        await refused(guest, pipes[1], socks[1], add, "not_host")
        hub.handle_message(handle, host, pipes[0], add)  # the third seat
        await refused(host, pipes[0], socks[0], add, "room_full")
        hub.handle_message(handle, host, pipes[0], m.Start(type="start"))
        await until(lambda: room.phase is Phase.PLAYING)
        hub.bots.forget(handle)
        hub.bots.think_scale = 100  # the bot sits still while the refusals are checked
        await refused(host, pipes[0], socks[0], m.RemoveBot(type="remove_bot", player=room.bots()[0].id), "bad_phase")
        await refused(host, pipes[0], socks[0], add, "bad_phase")
        # The server-wide limit: 3 bots; one is playing, a practice room of 3 is refused whole.
        with pytest.raises(RoomError) as err:
            hub.create_practice(m.PracticeRoom(name="Cy", bots=3))
        assert err.value.code == "too_many_bots" and len(hub.rooms) == 1
        handle2, cy, _ = hub.create_practice(m.PracticeRoom(name="Cy", bots=2))
        assert hub.bot_count() == 3 and handle2.room.phase is Phase.COUNTDOWN
        hub.bots.forget(handle)
        hub.bots.forget(handle2)

    asyncio.run(main())


def test_bots_stop_when_only_bots_are_left_and_the_room_expires(tmp_path):
    async def main():
        now = [T0]
        hub = Hub(fast(tmp_path, empty_room_ttl_s=300), clock=lambda: now[0])
        handle, person, _ = hub.create_practice(m.PracticeRoom(name="Ann", bots=3, level="hard"))
        sock = RecordingSocket()
        pipe = Pipe(sock, 4096)
        assert hub.attach(handle, person, pipe, None)
        room = handle.room
        await until(lambda: room.phase is Phase.PLAYING and hub.bots.actions > 10)
        hub.handle_message(handle, person, pipe, m.Leave(type="leave"))
        await turns()
        await asyncio.sleep(0.05)  # a fixed wait: thoughts already on their way arrive, and go nowhere
        acted = hub.bots.actions
        await asyncio.sleep(0.2)  # a fixed wait: the bots must *not* act meanwhile
        assert hub.bots.actions == acted and not handle.bot_timers
        hub.tick()
        assert room.code in hub.rooms  # removed like an empty room: after the same wait
        now[0] += 301
        hub.tick()
        assert room.code not in hub.rooms

    asyncio.run(main())


def test_bots_stay_seated_for_the_next_round_and_the_rematch():
    room, (host,) = make_room(1, max_players=3, rounds=1)
    _, bot = room.add_bot(host, "medium", T0)
    room.start(host, T0)
    room.begin_round(T0 + 3)
    room.vote(host, True)  # a person alone with a bot ends the round (bots follow people)
    assert room.phase is Phase.MATCH_OVER
    room.rematch(host, T0 + 10)  # the new match's countdown starts at once
    assert [p.id for p in room.players] == [host.id, bot.id] and room.bots() == [bot]
    room.begin_round(T0 + 13)
    assert room.phase is Phase.PLAYING and len(room.round.seats) == 2
    assert room.act(bot, "b1", as_sent({"type": "draw"}), T0 + 14).reply["type"] == "ack"


def test_a_bot_that_finds_a_play_after_voting_takes_its_vote_back_first(tmp_path):
    """Found in review against docs/bots.md: a bot's vote stood while it played on, so a
    person's vote could end the round while the bot still had plays."""

    async def main():
        hub, handle, person, bot, sock, pipe = await race_table(tmp_path, think_scale=100)
        hub.bots.forget(handle)
        room = handle.room
        hub.bot_message(handle, bot, m.Vote(type="vote", end=True))  # as when it was stuck
        assert room.votes == {1}
        await turns()
        sock.frames.clear()
        hub.bots.think_scale = 0.001
        hub.bots.think(handle, bot)  # the 2 of clubs can go home
        await until(lambda: any(r["type"] == "ack" for r in room.answered.of(bot.id)), timeout=10)
        hub.bots.forget(handle)
        await turns()
        events = [msg["event"] for msg in sock.messages() if msg["type"] == "event"]
        kinds = [(e["kind"], e.get("votes", e.get("seat"))) for e in events if e["kind"] in ("votes", "move")]
        assert kinds[:2] == [("votes", []), ("move", 1)]  # the vote went before the play

    asyncio.run(main())


def test_people_see_a_move_before_the_bots_think_about_it(tmp_path):
    """A bot's look at the table costs a view and a decision per bot; the flush sends
    every frame of the turn first, so people never wait for the bots' thinking (it made
    bench/server.py --bots's fan-out p99 several times the all-sockets one)."""

    async def main():
        hub, handle, person, bot, _sock, pipe = await race_table(tmp_path, think_scale=10)
        order: list[str] = []
        watched = RecordingSocket(on_frame=lambda data: order.append("frame"))
        pipe.socket = watched
        hub.bots.forget(handle)  # the bot is idle: the next change makes it think
        real_think = hub.bots.think

        def think(h, player):
            order.append("think")
            real_think(h, player)

        hub.bots.think = think
        hub.handle_message(
            handle,
            person,
            pipe,
            m.client_message.validate_python({"type": "action", "id": "draw", "action": {"type": "draw"}}),
        )
        await turns()
        assert order[:2] == ["frame", "think"]
        assert any(msg.get("id") == "draw" and msg["type"] == "ack" for msg in watched.messages())
        hub.bots.forget(handle)

    asyncio.run(main())


def test_letting_the_bots_finish_plays_the_round_out_fast(tmp_path):
    """Stuck in a practice round, the person once waited minutes while Easy bots
    (4-8 s a decision) played on. Handed the round, they play it out at the fast-forward
    pace: far within the minute this test allows, where their own pace takes several."""

    async def main():
        hub = Hub(fast(tmp_path, test_seed=4242, bot_think_scale=1.0))
        handle, person, _ = hub.create_practice(m.PracticeRoom(name="Ann", bots=3, level="easy", rounds=1))
        room = handle.room
        sock = RecordingSocket()
        pipe = Pipe(sock, 8192)
        assert hub.attach(handle, person, pipe, None)
        await until(lambda: room.phase is Phase.PLAYING)
        hub.handle_message(handle, person, pipe, m.Vote(type="vote", end=True, bots_finish=True))
        await until(lambda: room.phase is not Phase.PLAYING, timeout=60)
        await turns()
        moves = [msg["event"] for msg in sock.messages() if msg["type"] == "event" and msg["event"]["kind"] == "move"]
        assert len(moves) > 50 and {mv["seat"] for mv in moves} == {1, 2, 3}
        assert room.result["reason"] in ("vote", "demon", "stuck")
        votes = [msg["event"] for msg in sock.messages() if msg["type"] == "event" and msg["event"]["kind"] == "votes"]
        assert votes[0] == {"kind": "votes", "votes": [0], "bots_finish": True}

    asyncio.run(main())
