"""The practice-round coach (app/demon/hub/coach.py): advice only where no other person plays,
always a play the room accepts, and never anything the seat cannot see."""

from __future__ import annotations

import asyncio
import random

import pydantic
import pytest

from app.demon.hub import coach
from app.demon.hub.connection import Pipe
from app.demon.hub.hub import Hub
from app.demon.room.errors import RoomError
from app.demon.room.room import Phase
from app.demon.rules.layout import Pile, SeatState
from app.demon.rules.round import DemonRound
from app.protocol import messages as m
from tests.rooms.test_bots import fast, until
from tests.rooms.test_hub_flush import RecordingSocket, turns
from tests.rooms.test_room import T0, make_room
from tests.support.actions import as_sent


def practice(bots: int = 1):
    """A room of one person (P0) and `bots` bots, its round begun (no hub: the bots only
    sit there, so the person's seat is all that moves)."""
    room, (person,) = make_room(1, max_players=bots + 1)
    for _ in range(bots):
        room.add_bot(person, "easy", T0)
    room.start(person, T0)
    room.begin_round(T0 + 3)
    return room, person


def hidden_shuffled(r: DemonRound, rng: random.Random, seen_stock: set[int]) -> DemonRound:
    """The same round with every seat's face-down cards and stock dealt again in another
    order: the same counts, the same visible cards. A seat that has been through its
    stock (`seen_stock`) has seen its order, so only its face-down cards are dealt again."""
    seats = []
    for i, st in enumerate(r.seats):
        keep = i in seen_stock or not st.stock
        hidden = [c for p in st.tableau for c in p.down] + ([] if keep else list(st.stock))
        rng.shuffle(hidden)
        piles = []
        for p in st.tableau:
            piles.append(Pile(tuple(hidden[: len(p.down)]), p.up))
            del hidden[: len(p.down)]
        seats.append(SeatState(tuple(piles), st.stock if keep else tuple(hidden), st.waste))
    return DemonRound.from_layout(seats, r.foundations, started=r.started, absent=r.absent, end=r.end, seed=r.seed)


def test_following_the_coach_plays_a_round_move_after_move():
    """Every piece of advice is in the seat's legal list and the room accepts it, until
    the coach has nothing left to advise but a vote; cards reach the foundations."""
    room, person = practice(bots=2)
    kinds = set()
    for step in range(400):
        answer = coach.advice(room, person)
        assert answer["type"] == "coach" and answer["v"] == room.v
        kinds.add(answer["why"]["kind"])
        if answer["action"] is None:
            assert answer["why"]["kind"] == "stuck"
            break
        assert answer["action"] in room.legal_for(person)
        reply = room.act(person, f"c{step}", as_sent(answer["action"]), T0 + 4).reply
        assert reply is not None and reply["type"] == "ack", reply
        if room.phase is not Phase.PLAYING:
            break
    else:
        pytest.fail("the coach kept advising for 400 plays")
    assert room.round.foundation_counts()[person.seat] > 0
    assert {"ace", "draw"} <= kinds


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_coach_sees_only_the_seats_view(seed):
    """Dealing every hidden card (face-down cards and stocks, of every seat) again in
    another order never changes the advice, at many positions of a coached round."""
    rng = random.Random(seed)
    room, person = practice(bots=1)
    compared = 0
    for step in range(120):
        answer = coach.advice(room, person)
        real = room.round
        for _ in range(3):
            room.round = hidden_shuffled(real, rng, room.record.cycled)
            assert coach.advice(room, person) == answer
            compared += 1
        room.round = real
        if answer["action"] is None:
            break
        room.act(person, f"c{step}", as_sent(answer["action"]), T0 + 4)
        if room.phase is not Phase.PLAYING:
            break
    assert compared > 30


def test_the_advice_changes_when_a_visible_card_does():
    """The other side of the same coin: the coach does look at what is on view."""
    ace = DemonRound.from_layout(
        [{"tableau": [{"down": "9C", "up": "AH"}], "stock": "5S"}, {"tableau": [{"up": "KD"}], "stock": "6S"}]
    )
    eight = DemonRound.from_layout(
        [{"tableau": [{"down": "9C", "up": "8H"}], "stock": "5S"}, {"tableau": [{"up": "KD"}], "stock": "6S"}]
    )
    room, person = practice(bots=1)
    room.round = ace
    assert coach.advice(room, person)["why"] == {"kind": "ace", "card": "AH"}
    room.round = eight
    assert coach.advice(room, person)["why"] == {"kind": "draw"}


@pytest.mark.parametrize(
    "seat0,kind,why",
    [
        (
            {"tableau": [{"down": "2C", "up": "7S"}, {"up": "8H"}], "stock": "5S"},
            "uncover",
            {"kind": "uncover", "card": "7S", "onto": "8H"},
        ),
        ({"tableau": [{"down": "2C", "up": "KS"}, {}], "stock": "5S"}, "uncover", {"kind": "uncover", "card": "KS"}),
        (
            {"tableau": [{"up": "8H"}], "waste": "7C", "stock": "5S"},
            "waste",
            {"kind": "waste", "card": "7C", "onto": "8H"},
        ),
        (
            {"tableau": [{"down": "2C", "up": "3H"}], "stock": "5S"},
            "home",
            {"kind": "home", "card": "3H", "onto": "2H", "uncover": True},
        ),
        ({"tableau": [{"up": "8H"}], "waste": "9S KS 7C 5D", "stock": ""}, "recycle", {"kind": "recycle"}),
    ],
)
def test_each_kind_of_play_says_why(seat0, kind, why):
    r = DemonRound.from_layout([seat0, {"tableau": [{"up": "KD"}], "stock": "6S"}], [[("AH", 1), ("2H", 1)]])
    room, person = practice(bots=1)
    room.round = r
    answer = coach.advice(room, person)
    assert answer["why"] == why, answer
    assert answer["action"] in room.legal_for(person)


def test_no_advice_where_another_person_plays_and_nothing_changes():
    room, (ann, bob) = make_room(2)
    room.start(ann, T0)
    room.begin_round(T0 + 3)
    v, round_ = room.v, room.round
    for player in (ann, bob):
        with pytest.raises(RoomError) as err:
            coach.advice(room, player)
        assert err.value.code == "not_practice"
    assert room.v == v and room.round is round_
    # a person and a bot and another person: still a race between people
    room, (ann, bob) = make_room(2, max_players=3)
    room.add_bot(ann, "easy", T0)
    room.start(ann, T0)
    room.begin_round(T0 + 3)
    with pytest.raises(RoomError) as err:
        coach.advice(room, ann)
    assert err.value.code == "not_practice"


def test_no_advice_outside_a_round_or_for_a_bot():
    room, (person,) = make_room(1, max_players=2)
    _, bot = room.add_bot(person, "easy", T0)
    with pytest.raises(RoomError) as err:
        coach.advice(room, person)
    assert err.value.code == "bad_phase"
    room.start(person, T0)
    room.begin_round(T0 + 3)
    with pytest.raises(RoomError) as err:
        coach.advice(room, bot)
    assert err.value.code == "spectator"


def test_the_hub_answers_coach_on_the_socket_and_refuses_it_in_a_race(tmp_path):
    async def main():
        hub = Hub(fast(tmp_path, bot_think_scale=10))
        handle, person, _ = hub.create_practice(m.PracticeRoom(name="Ann", bots=1, level="easy", rounds=1))
        sock = RecordingSocket()
        pipe = Pipe(sock, 4096)
        assert hub.attach(handle, person, pipe, None)
        await until(lambda: handle.room.phase is Phase.PLAYING)
        hub.handle_message(handle, person, pipe, m.client_message.validate_python({"type": "coach"}))
        await turns()
        answers = [msg for msg in sock.messages() if msg["type"] == "coach"]
        assert len(answers) == 1 and answers[0]["action"] in handle.room.legal_for(person)

        handle2, ann, _ = hub.create_room(m.CreateRoom(name="Ann", rounds=1))
        _, bob, _ = hub.join_room(handle2.room.code, "Bob")
        sock2 = RecordingSocket()
        pipe2 = Pipe(sock2, 4096)
        assert hub.attach(handle2, ann, pipe2, None)
        hub.handle_message(handle2, ann, pipe2, m.Start(type="start"))
        await until(lambda: handle2.room.phase is Phase.PLAYING)
        await turns()
        v = handle2.room.v
        hub.handle_message(handle2, ann, pipe2, m.client_message.validate_python({"type": "coach"}))
        await turns()
        errors = [msg for msg in sock2.messages() if msg["type"] == "error"]
        assert [e["code"] for e in errors] == ["not_practice"]
        assert not [msg for msg in sock2.messages() if msg["type"] == "coach"]
        assert handle2.room.v == v

    asyncio.run(main())


def test_a_coach_message_takes_no_fields():
    with pytest.raises(pydantic.ValidationError):
        m.client_message.validate_python({"type": "coach", "seat": 1})
