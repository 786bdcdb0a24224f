"""Room logic without sockets: the Room class is synchronous and takes the time as an
argument, so every rule of the table is tested directly."""

from __future__ import annotations

import json
import random

import pytest

from app.demon.room.room import Options, Phase, Room, RoomError
from app.demon.rules.round import DemonRound
from app.racing import DEMON
from app.support.secrets_util import hash_token, new_code, normalise_code, token_matches
from tests.support.actions import as_sent

T0 = 1000.0


def make_room(n: int = 2, **options) -> tuple[Room, list]:
    room = Room("ROOMABC", Options(**options), countdown_s=3, grace_s=120, test_seed=288)
    room.clock = lambda: T0
    players = [room.join(f"P{i}", hash_token(f"tok{i}")) for i in range(n)]
    for p in players:
        room.connect(p, T0)
    return room, players


def started(n: int = 2, **options) -> tuple[Room, list]:
    room, players = make_room(n, **options)
    room.start(players[0], T0)
    room.begin_round(T0 + 3)
    return room, players


def kinds(outcome) -> list[str]:
    return [e["event"]["kind"] for e in outcome.events]


def test_codes_and_tokens():
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200 and all(len(c) == 7 and c.isalpha() and c.isupper() for c in codes)
    assert not any(ch in c for c in codes for ch in "IO")
    assert 24**7 >= 10**9
    assert normalise_code(" kxw-prtm ") == "KXWPRTM"
    h = hash_token("secret")
    assert token_matches("secret", h) and not token_matches("secreT", h)


def test_first_joiner_is_host_and_joiners_are_seated_up_to_the_maximum():
    room, players = make_room(3, max_players=2)
    assert room.host == players[0].id
    assert [p.seat for p in players] == [0, 1, None]
    assert players[2] in room.spectators
    assert room.seating.by_token("tok1") is players[1]
    assert room.seating.by_token("nope") is None


def test_start_needs_the_host_and_two_seated_players():
    room, players = make_room(1)
    with pytest.raises(RoomError) as err:
        room.start(players[0], T0)
    assert err.value.code == "bad_phase"
    room2, players2 = make_room(2)
    with pytest.raises(RoomError) as err:
        room2.start(players2[1], T0)
    assert err.value.code == "not_host"


def test_countdown_then_the_round_starts_for_everyone_at_once():
    room, players = make_room(3)
    out = room.start(players[0], T0)
    assert room.phase is Phase.COUNTDOWN and "countdown" in kinds(out)
    reply = room.act(players[1], "early", as_sent({"type": "draw"}), T0 + 1).reply
    assert reply["code"] == "not_started"
    out = room.begin_round(T0 + 3)
    assert room.phase is Phase.PLAYING and "round_started" in kinds(out)
    assert room.round.started and len(room.round.seats) == 3
    assert all(room.legal_for(p) for p in players)


def test_late_joiner_spectates_then_is_seated_next_round():
    room, players = started(2, rounds=2)
    late = room.join("Late", hash_token("late"))
    assert late.seat is None and room.legal_for(late) == []
    assert room.act(late, "x", as_sent({"type": "draw"}), T0).reply["code"] == "spectator"
    room.vote(players[0], True)
    room.vote(players[1], True)
    assert room.phase is Phase.ROUND_OVER
    room.next_round(players[0], T0)
    room.begin_round(T0 + 3)
    assert late.seat == 2 and len(room.round.seats) == 3


def test_action_ack_duplicate_and_illegal():
    room, players = started()
    v = room.v
    out = room.act(players[0], "a1", as_sent({"type": "draw"}), T0 + 4)
    assert out.reply == {"type": "ack", "id": "a1", "v": v + 1}
    again = room.act(players[0], "a1", as_sent({"type": "draw"}), T0 + 4)
    assert again.reply["duplicate"] and again.reply["v"] == v + 1 and not again.events
    assert room.v == v + 1
    bad = room.act(players[0], "a2", as_sent({"type": "tableau", "src": 0, "dst": 0, "count": 1}), T0 + 4)
    assert bad.reply["code"] == "illegal" and not bad.events and room.v == v + 1


def test_race_lost_names_the_winner():
    room, players = started()
    seat0 = room.round.seats[0].tableau
    ace = next(i for i, p in enumerate(seat0) if p.up and str(p.up[-1]) == "AC")
    room.act(players[0], "ace", as_sent({"type": "foundation", "src": ace, "pile": None}), T0)
    two0 = next(i for i, p in enumerate(room.round.seats[0].tableau) if p.up and str(p.up[-1]) == "2C")
    two1 = next(i for i, p in enumerate(room.round.seats[1].tableau) if p.up and str(p.up[-1]) == "2C")
    first = room.act(players[1], "b", as_sent({"type": "foundation", "src": two1, "pile": 0}), T0)
    second = room.act(players[0], "a", as_sent({"type": "foundation", "src": two0, "pile": 0}), T0)
    assert first.reply["type"] == "ack"
    assert second.reply["code"] == "race_lost" and second.reply["by_seat"] == 1
    assert second.reply["by_name"] == "P1" and second.reply["pile"] == 0
    assert str(room.round.seats[0].tableau[two0].up[-1]) == "2C"


def test_vote_ends_the_round_when_every_player_in_the_round_voted():
    room, players = started(3)
    room.vote(players[0], True)
    room.vote(players[1], True)
    assert room.phase is Phase.PLAYING
    out = room.vote(players[2], True)
    assert room.phase is Phase.ROUND_OVER and "round_ended" in kinds(out)
    assert room.result["reason"] == "vote"


def test_a_dropped_player_keeps_their_say_until_the_grace_period_ends():
    """Review finding: a closed socket (or a server restart) used to end the vote."""
    room, players = started(2)
    room.vote(players[0], True)
    room.disconnect(players[1], T0 + 5)
    assert room.phase is Phase.PLAYING
    room.tick(T0 + 5 + 121)  # now absent: no longer blocks the vote
    assert room.phase is Phase.ROUND_OVER and room.result["reason"] == "vote"


def test_leaving_during_the_countdown_is_not_dealt_in():
    room, players = make_room(3)
    room.start(players[0], T0)
    room.leave(players[2], T0 + 1)
    room.begin_round(T0 + 3)
    assert len(room.round.seats) == 2 and [p.seat for p in room.players] == [0, 1]


def test_the_round_does_not_start_when_the_countdown_is_left_alone():
    room, players = make_room(2)
    room.start(players[0], T0)
    room.leave(players[1], T0 + 1)
    room.begin_round(T0 + 3)
    assert room.phase is Phase.LOBBY and room.round is None


def test_a_refused_start_changes_nothing():
    room, players = started(3, rounds=3)
    room.vote(players[0], True)
    room.vote(players[1], True)
    room.vote(players[2], True)
    room.leave(players[1], T0)
    room.leave(players[2], T0)
    seats_before = [(p.id, p.seat) for p in room.players]
    with pytest.raises(RoomError):
        room.start(players[0], T0)
    assert [(p.id, p.seat) for p in room.players] == seats_before


def test_rematch_forgets_the_old_round():
    room, players = started(2, rounds=1)
    room.act(players[0], "d", as_sent({"type": "draw"}), T0)
    room.vote(players[0], True)
    room.vote(players[1], True)
    room.rematch(players[0], T0)
    assert room.round is None and room.record.initial is None
    assert room.round_actions == [] and room.round_step_ids == []


def test_a_host_away_past_the_grace_period_hands_over():
    room, players = make_room(3)
    room.disconnect(players[0], T0)
    room.tick(T0 + 60)
    assert room.host == players[0].id
    out = room.tick(T0 + 121)
    assert room.host == players[1].id and "room" in kinds(out)


def test_spectators_are_capped():
    room, players = started(2)
    for i in range(32):
        room.join(f"S{i}", hash_token(f"s{i}"))
    with pytest.raises(RoomError) as err:
        room.join("One too many", hash_token("x"))
    assert err.value.code == "room_full"


def test_stuck_is_shown_only_for_seats_that_have_seen_their_whole_stock():
    """Whether a seat is stuck depends on its face-down stock order: it is public only
    once every stock card has been on view (review finding)."""
    room, players = started(2)
    stuck = DemonRound.from_layout(
        [
            {"tableau": [{"up": ["KS"]}] + [{}] * 6, "stock": "2D 9C 5H"},
            {"tableau": [{"up": ["KH"]}] + [{}] * 6, "stock": "7C"},
        ]
    )
    room.round = stuck
    assert room.round.stuck_seats() == {0, 1}
    assert room.public_stuck() == []
    room.act(players[1], "draw", as_sent({"type": "draw"}), T0)
    assert room.public_stuck() == [1]


def random_moves(seed: int, seats: int = 6):
    """A whole round of six seats playing at random (foundation plays preferred), yielding
    the room and its players after every accepted move."""
    rng = random.Random(seed)
    room, players = started(seats)
    while room.phase is Phase.PLAYING:
        p = players[rng.randrange(seats)]
        legal = room.legal_for(p)
        plays = [a for a in legal if a["type"] == "foundation"]
        action = rng.choice(plays) if plays and rng.random() < 0.6 else rng.choice(legal) if legal else None
        if action is None:
            continue
        room.act(p, f"a{room.v}", as_sent(action), T0)
        yield room, players


@pytest.mark.parametrize("seed", [3, 288, 4096])
def test_the_stuck_flags_kept_between_moves_equal_a_fresh_answer(seed):
    """`public_stuck` rests on the engine's kept rule-16 answers (only the seats whose
    situation changed are searched again); after every move of a whole round it must
    equal the answer worked out from scratch."""
    for room, _players in random_moves(seed):
        if room.round.end is None:
            seen = room.record.cycled | {s for s, seat in enumerate(room.round.seats) if not seat.stock}
            anew = DemonRound.from_json(room.round.to_json())
            assert room.public_stuck() == sorted(anew.stuck_seats(among=seen) if seen else [])


@pytest.mark.parametrize("seed", [5, 288])
def test_the_legal_actions_kept_between_moves_equal_a_fresh_answer(seed):
    """The engine keeps a seat's legal actions while its layout stays, checking only its
    foundation plays when the foundations moved, and `TableAnswers.legal` keeps their
    JSON while the engine's answer is the same: after every move of a round, every
    seat's kept answer must equal one worked out from nothing (a fresh analysis)."""
    import dataclasses

    from app.demon.room.answers import TableAnswers
    from app.demon.rules.round import RoundAnalysis, action_to_json

    for room, players in random_moves(seed):
        fresh = TableAnswers()
        for q in players:
            kept = room.legal_for(q)
            if room.phase is Phase.PLAYING:
                anew = dataclasses.replace(room.round, analysis=RoundAnalysis())
                assert kept == fresh.legal(anew, DEMON, q.seat, q.id)
                assert kept == [
                    {k: v for k, v in action_to_json(a).items() if k != "seat"} for a in anew.legal_actions(q.seat)
                ]


def test_a_refused_recycle_does_not_count_as_having_seen_the_stock():
    """Found in review: a recycle sent while the stock still had cards was refused, yet
    marked the seat as having been through its stock, so its stuck status showed early."""
    room, players = started(2)
    room.round = DemonRound.from_layout(
        [
            {"tableau": [{"up": ["KS"]}] + [{}] * 6, "stock": "2D 9C 5H 6H"},
            {"tableau": [{"up": ["KH"]}] + [{}] * 6, "stock": "7C"},
        ]
    )
    assert room.act(players[0], "r", as_sent({"type": "recycle"}), T0).reply["code"] == "illegal"
    assert room.public_stuck() == []


def test_time_limit_ends_the_round():
    room, players = started(2, time_limit_s=60)
    assert not room.tick(T0 + 60).events
    out = room.tick(T0 + 63.5)
    assert room.result["reason"] == "time" and "round_ended" in kinds(out)


def test_seat_away_past_the_grace_period_is_out_but_still_scores():
    room, players = started(3)
    room.disconnect(players[2], T0 + 10)
    room.tick(T0 + 100)
    assert 2 not in room.round.absent
    out = room.tick(T0 + 131)
    assert 2 in room.round.absent and "absent" in kinds(out)
    assert room.act(players[2], "z", as_sent({"type": "draw"}), T0 + 131).reply["code"] == "illegal"
    room.vote(players[0], True)
    room.vote(players[1], True)
    assert set(room.result["scores"]) == {p.id for p in players}


def test_host_leaving_passes_the_host_on():
    room, players = make_room(3)
    room.leave(players[0], T0)
    assert room.host == players[1].id
    assert [p.seat for p in room.players] == [0, 1]


def test_match_totals_rounds_and_rematch():
    room, players = started(2, rounds=2)
    room.vote(players[0], True)
    room.vote(players[1], True)
    assert room.phase is Phase.ROUND_OVER and room.round_no == 1
    room.next_round(players[0], T0)
    room.begin_round(T0 + 3)
    room.vote(players[0], True)
    room.vote(players[1], True)
    assert room.phase is Phase.MATCH_OVER and room.result["match_over"]
    totals = room.result["totals"]
    assert totals == {p.id: sum(h["scores"][p.id] for h in room.history) for p in players}
    assert set(room.result["winners"]) == {pid for pid, t in totals.items() if t == max(totals.values())}
    with pytest.raises(RoomError):
        room.next_round(players[0], T0)
    room.rematch(players[0], T0)
    assert room.phase is Phase.COUNTDOWN and room.round_no == 0 and all(p.total == 0 for p in players)


def test_demon_ends_the_round_with_62_for_the_winner():
    room, players = started(2)
    one_left = DemonRound.from_layout(
        [{"tableau": [{"up": ["KS"]}] + [{}] * 6}, {"tableau": [{"up": ["KH"]}] + [{}] * 6}],
        foundations=[[(f"{r}S", 0) for r in "A23456789TJQ"], [(f"{r}H", 1) for r in "A23456789TJQ"]],
    )
    room.round = one_left
    out = room.act(players[0], "last", as_sent({"type": "foundation", "src": 0, "pile": 0}), T0)
    assert out.reply["type"] == "ack"
    assert room.result["reason"] == "demon" and room.result["winner"] == players[0].id
    assert room.result["scores"][players[0].id] == 62


def test_events_since_replays_or_asks_for_a_snapshot():
    room = Room("ROOMABC", Options(), replay_window=4)
    room.clock = lambda: T0
    p = room.join("A", hash_token("a"))
    for _ in range(10):
        room.connect(p, T0)
    assert [json.loads(e)["v"] for e in room.log.since(8)] == [9, 10]
    assert room.log.since(10) == []
    assert room.log.since(3) is None  # fell out of the window
    assert room.log.since(11) is None  # from the future: resync


def test_idle_room_expires():
    room, players = make_room(2)
    for p in players:
        room.disconnect(p, T0 + 1)
    assert not room.is_idle(T0 + 100, ttl_s=300)
    assert room.is_idle(T0 + 302, ttl_s=300)


# ---------------------------------------------------------------- a round ends cleanly


def test_a_rematch_starts_the_new_matchs_countdown_for_everyone():
    """The host's Rematch is the new match's Start: the table counts down at once and
    deals round 1 when the countdown ends; nobody presses Start a second time."""
    room, players = started(2, rounds=1)
    room.vote(players[0], True)
    room.vote(players[1], True)
    assert room.phase is Phase.MATCH_OVER
    with pytest.raises(RoomError):
        room.rematch(players[1], T0)  # only the host
    outcome = room.rematch(players[0], T0 + 5)
    assert kinds(outcome) == ["room", "countdown"]
    room_event = outcome.events[0]["event"]["state"]
    assert room_event["phase"] == "countdown" and room_event["round"] is None and room_event["result"] is None
    assert outcome.events[1]["event"]["ends_in_ms"] == 3000
    assert room.phase is Phase.COUNTDOWN and room.countdown_ends == T0 + 8
    started_out = room.begin_round(T0 + 8)
    assert "round_started" in kinds(started_out)
    assert room.phase is Phase.PLAYING and room.round_no == 1 and room.history == []


def test_a_rematch_with_one_player_left_goes_back_to_the_lobby():
    room, players = started(2, rounds=1)
    room.vote(players[0], True)
    room.vote(players[1], True)
    room.leave(players[1], T0)
    outcome = room.rematch(players[0], T0)
    assert kinds(outcome) == ["room"] and room.phase is Phase.LOBBY
    assert outcome.events[0]["event"]["state"]["round"] is None


def test_a_rematch_seats_the_spectators_who_waited_for_a_seat():
    room, players = started(2, rounds=1, max_players=3)
    dee = room.join("Dee", hash_token("tokd"))
    eve = room.join("Eve", hash_token("toke"))
    assert dee in room.spectators and eve in room.spectators
    room.vote(players[0], True)
    room.vote(players[1], True)
    room.rematch(players[0], T0)
    assert [p.id for p in room.players] == [players[0].id, players[1].id, dee.id]
    assert room.spectators == [eve]


def test_each_spectator_is_told_whether_a_seat_waits_for_them():
    """Joining mid-round: the first to arrive get the free seats at the next deal, the
    others watch on (the public state says which, so the page can say it truthfully)."""
    room, players = started(2, max_players=3)
    assert room.to_public_summary()["free_seats"] == 1  # what the join form promises
    room.join("Dee", hash_token("tokd"))
    assert room.to_public_summary()["free_seats"] == 0
    room.join("Eve", hash_token("toke"))
    spectators = room.public_state(T0)["spectators"]
    assert [(s["name"], s["next_round"]) for s in spectators] == [("Dee", True), ("Eve", False)]
    room.leave(players[1], T0)  # a seat frees up for good at the next deal
    spectators = room.public_state(T0)["spectators"]
    assert [(s["name"], s["next_round"]) for s in spectators] == [("Dee", True), ("Eve", True)]
    room.vote(players[0], True)
    room.start(players[0], T0)
    assert [p.name for p in room.players] == ["P0", "Dee", "Eve"] and room.spectators == []


@pytest.mark.parametrize("phase", ["lobby", "playing", "round_over"])
def test_a_spectators_vote_is_answered_spectator_in_every_phase(phase):
    """docs/protocol.md: a spectator's `vote` is answered `spectator`, whatever the
    phase (it was `bad_phase`, the phase being checked first)."""
    room, players = make_room(3, max_players=2)
    if phase != "lobby":
        room.start(players[0], T0)
        room.begin_round(T0 + 3)
    if phase == "round_over":
        room.vote(players[0], True)
        room.vote(players[1], True)
    assert room.phase.value == phase
    votes, v = set(room.votes), room.v
    with pytest.raises(RoomError) as refused:
        room.vote(players[2], True)
    assert refused.value.code == "spectator"
    assert room.votes == votes and room.v == v  # and it changed nothing
