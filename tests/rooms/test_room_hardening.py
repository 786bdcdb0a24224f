"""The room hardened: action ids remembered for the whole round, the
real winner of a race lost with `pile: null`, a rematch carried by the event
stream alone and names two seats cannot confuse."""

from __future__ import annotations

import copy
import json

from app.demon.room.room import Phase
from app.demon.rules.round import DemonRound
from tests.rooms.test_room import T0, make_room, started
from tests.support.actions import as_sent


def cycle_action(room, player) -> dict:
    legal = room.legal_for(player)
    return next(a for a in legal if a["type"] in ("draw", "recycle"))


def test_an_action_id_resent_after_300_newer_ones_is_answered_not_applied_again():
    """Item 6: the ids were kept in a window of 256, so an old id came back as new."""
    room, players = started(2)
    first = room.act(players[0], "first", as_sent({"type": "draw"}), T0).reply
    assert first["type"] == "ack"
    for i in range(300):
        reply = room.act(players[0], f"n{i}", as_sent(cycle_action(room, players[0])), T0).reply
        assert reply["type"] == "ack"
    v, steps = room.v, len(room.round_actions)
    again = room.act(players[0], "first", as_sent({"type": "draw"}), T0).reply
    assert again == {**first, "duplicate": True}
    assert room.v == v and len(room.round_actions) == steps


def test_action_ids_of_the_last_round_are_still_answered_in_the_next():
    """The guarantee spans a round change: a resend that arrives after the next round
    has begun must not be applied to the new table."""
    room, players = started(2, rounds=3)
    first = room.act(players[0], "old", as_sent({"type": "draw"}), T0).reply
    room.vote(players[0], True)
    room.vote(players[1], True)
    room.next_round(players[0], T0)
    room.begin_round(T0 + 3)
    v = room.v
    assert room.act(players[0], "old", as_sent({"type": "draw"}), T0).reply == {**first, "duplicate": True}
    assert room.v == v


def three_twos_of_clubs(room) -> None:
    """Three seats each show the 2 of clubs (and a king, so that playing the two is not
    "Demon!", and an ace of diamonds in the stock, so that nobody is stuck); seats 0
    and 1 have each started a clubs pile with their ace."""
    room.round = DemonRound.from_layout(
        [{"tableau": [{"up": ["2C"]}, {"up": ["KS"]}] + [{}] * 5, "stock": "AD"}] * 3,
        foundations=[[("AC", 0)], [("AC", 1)]],
    )


def test_a_race_lost_with_pile_null_names_the_pile_and_seat_that_just_took_the_card():
    """Item 7: the rejection named the first pile that ever reached that height (pile 0,
    seat 0), not the pile that took the card this player was too late for."""
    room, players = started(3)
    three_twos_of_clubs(room)
    play = {"type": "foundation", "src": 0, "pile": None}
    assert room.act(players[0], "a", as_sent(play), T0).reply["type"] == "ack"  # onto pile 0
    assert room.act(players[1], "b", as_sent(play), T0).reply["type"] == "ack"  # onto pile 1
    lost = room.act(players[2], "c", as_sent(play), T0).reply
    assert lost["code"] == "race_lost"
    assert (lost["pile"], lost["by_seat"], lost["by_name"]) == (1, 1, players[1].name)


def test_a_race_lost_on_a_named_pile_still_names_that_pile():
    room, players = started(3)
    three_twos_of_clubs(room)
    assert room.act(players[1], "b", as_sent({"type": "foundation", "src": 0, "pile": 1}), T0).reply["type"] == "ack"
    lost = room.act(players[2], "c", as_sent({"type": "foundation", "src": 0, "pile": 1}), T0).reply
    assert (lost["code"], lost["pile"], lost["by_seat"]) == ("race_lost", 1, 1)


def apply_as_documented(state: dict, event: dict) -> None:
    """docs/protocol.md, Events: what a client does with each kind."""
    if event["kind"] == "room":
        state.update(copy.deepcopy(event["state"]))
    elif event["kind"] == "round_started":
        state["round"] = copy.deepcopy(event["round"])
        state["round_no"] = event["round_no"]
    elif event["kind"] == "round_ended":
        state["result"] = event["result"]


def test_after_a_rematch_the_events_alone_give_the_state_a_snapshot_gives():
    """Item 8: the rematch's only event was a `room` event without `round`, so a client
    that applies events kept the old table until it asked for a snapshot."""
    room, players = started(2, rounds=1)
    room.vote(players[0], True)
    room.vote(players[1], True)
    assert room.phase is Phase.MATCH_OVER
    state = json.loads(json.dumps(room.public_state(T0)))
    assert state["round"] is not None
    outcome = room.rematch(players[0], T0)
    for message in outcome.events:
        apply_as_documented(state, json.loads(room.log.text(message))["event"])
    assert state == json.loads(json.dumps(room.public_state(T0)))
    assert state["round"] is None


def names(room) -> list[str]:
    return [p.name for p in room.seating.everyone()]


def test_two_players_with_the_same_name_can_be_told_apart():
    """Item 9: "Ann" and "Ann" (or "ann", or a full-width "Ａｎｎ") at one table."""
    room, players = make_room(0)
    for name in ("Ann", "Ann", "ann", "Ａｎｎ", "Bob"):
        room.join(name, b"")
    assert names(room) == ["Ann", "Ann (2)", "ann (3)", "Ａｎｎ (4)", "Bob"]


def test_a_name_freed_by_a_leaver_can_be_taken_again():
    room, players = make_room(0)
    ann = room.join("Ann", b"")
    room.leave(ann, T0)
    assert room.join("Ann", b"").name == "Ann"


def test_a_person_named_like_a_bot_is_told_apart_from_the_bot():
    room, players = make_room(1)
    _outcome, bot = room.add_bot(players[0], "easy", T0)
    assert bot.name == "Bot 1"
    assert room.join("bot 1", b"").name == "bot 1 (2)"
