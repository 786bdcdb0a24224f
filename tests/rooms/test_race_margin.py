"""The margin of a race: the loser's `race_lost` and the winner's `race_won`
say how long before the losing play the winning one arrived, on the receive clock (the
`now` the hub passes the room for each message). Also: the record keeps each step's
time, a restore carries the clock on, and a record without times stays readable."""

from __future__ import annotations

from app.common.records import record_times
from app.demon.room.persist import restore_room, room_meta
from app.demon.rules.record import replay_demon
from tests.rooms.test_room import T0, started
from tests.support.actions import as_sent


def _pile_with(room, seat: int, card: str) -> int:
    return next(i for i, p in enumerate(room.round.seats[seat].tableau) if p.up and str(p.up[-1]) == card)


def race_for_two_of_clubs(pile_target, t_win: float, t_lose: float):
    """Seat 0 plays AC; seat 1 then puts 2C on it at `t_win`, seat 0 tries at `t_lose`."""
    room, players = started()
    room.act(players[0], "ace", as_sent({"type": "foundation", "src": _pile_with(room, 0, "AC"), "pile": None}), T0 + 4)
    won = room.act(
        players[1], "b", as_sent({"type": "foundation", "src": _pile_with(room, 1, "2C"), "pile": pile_target}), t_win
    )
    lost = room.act(
        players[0], "a", as_sent({"type": "foundation", "src": _pile_with(room, 0, "2C"), "pile": pile_target}), t_lose
    )
    return room, players, won, lost


def test_the_loser_hears_the_margin_and_the_winner_is_told_it():
    room, players, won, lost = race_for_two_of_clubs(0, T0 + 10.0, T0 + 10.04)
    assert won.reply["type"] == "ack" and won.direct == []
    assert lost.reply["code"] == "race_lost" and lost.reply["by_name"] == "P1"
    assert lost.reply["margin_ms"] == 40
    assert lost.direct == [
        (players[1].id, {"type": "race_won", "pile": 0, "over_seat": 0, "over_name": "P0", "margin_ms": 40})
    ]


def test_a_play_to_any_pile_gets_the_margin_of_the_play_it_lost_to():
    _room, _players, _won, lost = race_for_two_of_clubs(None, T0 + 20.0, T0 + 21.5)
    assert lost.reply["code"] == "race_lost" and lost.reply["margin_ms"] == 1500


def test_simultaneous_arrival_is_a_margin_of_zero():
    _room, _players, _won, lost = race_for_two_of_clubs(0, T0 + 7.0, T0 + 7.0)
    assert lost.reply["margin_ms"] == 0


def test_other_refusals_carry_no_margin():
    room, players = started()
    lost = room.act(players[0], "x", as_sent({"type": "tableau", "src": 0, "dst": 0, "count": 1}), T0 + 5)
    assert lost.reply["type"] == "rejected" and "margin_ms" not in lost.reply and lost.direct == []


def test_the_record_keeps_each_step_time_after_the_signal():
    room, _players, _won, _lost = race_for_two_of_clubs(0, T0 + 10.0, T0 + 10.04)
    record = room.record.record()
    # the round started at T0 + 3 (begin_round); the ace at T0 + 4, the two at T0 + 10
    assert record["times"] == [1.0, 7.0]
    assert record_times(record) == [1.0, 7.0]
    replay_demon(record)  # a record with times replays like any other


def test_a_record_without_times_stays_readable():
    room, _players, _won, _lost = race_for_two_of_clubs(0, T0 + 10.0, T0 + 10.04)
    record = room.record.record()
    del record["times"]
    assert record_times(record) == [None, None]
    assert replay_demon(record).foundations == room.round.foundations


def test_a_restored_round_keeps_its_times_and_measures_races_from_them():
    room, players = started()
    room.act(players[0], "ace", as_sent({"type": "foundation", "src": _pile_with(room, 0, "AC"), "pile": None}), T0 + 4)
    room.act(players[1], "b", as_sent({"type": "foundation", "src": _pile_with(room, 1, "2C"), "pile": 0}), T0 + 10)
    later = 50_000.0  # another process: its monotonic clock started elsewhere
    again = restore_room(
        room_meta(room, T0 + 11),
        room.record.initial_json(),
        room.round_actions,
        room.round_step_ids,
        now=later,
        times=room.record.times,
        countdown_s=3,
        grace_s=120,
    )
    assert again.record.times == [1.0, 7.0]
    loser = again.seating.by_id(players[0].id)
    lost = again.act(
        loser, "a", as_sent({"type": "foundation", "src": _pile_with(again, 0, "2C"), "pile": 0}), later + 0.25
    )
    assert lost.reply["margin_ms"] == 250  # the downtime does not count


def test_a_round_saved_without_times_gives_no_margin():
    room, players = started()
    room.act(players[0], "ace", as_sent({"type": "foundation", "src": _pile_with(room, 0, "AC"), "pile": None}), T0 + 4)
    room.act(players[1], "b", as_sent({"type": "foundation", "src": _pile_with(room, 1, "2C"), "pile": 0}), T0 + 10)
    again = restore_room(
        room_meta(room, T0 + 11),
        room.record.initial_json(),
        room.round_actions,
        room.round_step_ids,
        now=T0,
        countdown_s=3,
        grace_s=120,
    )
    loser = again.seating.by_id(players[0].id)
    lost = again.act(loser, "a", as_sent({"type": "foundation", "src": _pile_with(again, 0, "2C"), "pile": 0}), T0 + 1)
    assert lost.reply["code"] == "race_lost" and "margin_ms" not in lost.reply and lost.direct == []
