"""A daily race's room, without sockets: the same round for every racer, so the room refuses
what would help one racer or deal the day again (docs/daily.md, "What makes it fair"):
the coach, "let the bots finish" and a rematch are answered `daily_race` and change
nothing; the room says it is the day's (its state's `daily`) and keeps saying so after a
restart. A practice room of the same table still allows all three."""

from __future__ import annotations

import pytest

from app.demon.hub.coach import advice
from app.demon.room.errors import DailyRace
from app.demon.room.persist import restore_room, room_initial, room_meta
from app.demon.room.room import Phase
from tests.rooms.test_room import T0, make_room

DAY = "2026-12-07"


def race(daily: str | None):
    """One person and three bots in play, as `POST /api/daily` seats them (or a practice room)."""
    room, (person,) = make_room(1, max_players=4, rounds=1)
    room.daily = daily
    bots = [room.add_bot(person, "easy", T0)[1] for _ in range(3)]
    room.start(person, T0)
    room.begin_round(T0 + 3)
    assert room.phase is Phase.PLAYING
    return room, person, bots


def test_the_daily_race_has_no_coach():
    room, person, _bots = race(DAY)
    before = (room.v, room.public_state(T0))
    with pytest.raises(DailyRace) as err:
        advice(room, person)
    assert err.value.code == "daily_race"
    assert (room.v, room.public_state(T0)) == before
    practice, person, _ = race(None)
    assert advice(practice, person)["type"] == "coach"


def test_the_daily_race_cannot_be_handed_to_the_bots():
    room, person, _bots = race(DAY)
    with pytest.raises(DailyRace):
        room.vote(person, True, bots_finish=True)
    assert not room.bots_finish and room.votes == set() and room.phase is Phase.PLAYING
    practice, person, _ = race(None)
    practice.vote(person, True, bots_finish=True)
    assert practice.bots_finish


def test_the_daily_deal_is_not_dealt_again():
    room, person, _bots = race(DAY)
    room.vote(person, True)  # the person ends it (the bots have no say while a person plays)
    assert room.phase is Phase.MATCH_OVER and room.result is not None
    v, result = room.v, room.result
    with pytest.raises(DailyRace) as err:
        room.rematch(person, T0 + 10)
    assert err.value.code == "daily_race"
    assert room.phase is Phase.MATCH_OVER and room.v == v and room.result == result and room.round is not None
    practice, person, _ = race(None)
    practice.vote(person, True)
    practice.rematch(person, T0 + 10)
    assert practice.phase is Phase.COUNTDOWN


def test_the_room_says_it_is_the_days_and_a_restart_keeps_it():
    room, person, _bots = race(DAY)
    assert room.public_state(T0)["daily"] == DAY
    assert "daily" not in race(None)[0].public_state(T0)
    again = restore_room(
        room_meta(room, T0 + 5), room_initial(room), list(room.record.steps), list(room.record.step_ids), now=T0 + 6
    )
    assert again.daily == DAY and again.public_state(T0 + 6)["daily"] == DAY
    with pytest.raises(DailyRace):
        again.vote(again.seating.by_id(person.id), True, bots_finish=True)


def test_the_daily_race_is_never_an_open_table():
    """Listed, its code would reach strangers who have not raced the day's deal."""
    room, person, _bots = race(DAY)
    before = (room.v, room.public_state(T0))
    with pytest.raises(DailyRace) as err:
        room.set_open(person, True)
    assert err.value.code == "daily_race"
    assert not room.door.open and (room.v, room.public_state(T0)) == before
    practice, person, _ = race(None)
    practice.set_open(person, True)
    assert practice.door.open
