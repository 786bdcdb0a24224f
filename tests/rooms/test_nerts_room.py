"""A Nerts table, without sockets: the room deals Nerts with the host's house rules,
plays it through the same doors as Demon (act, vote, absences, the time limit), tells
the table about a stall, scores N14 into the match, and saves, restores and records a
Nerts round (docs/numbered-rules.md, Nerts; docs/protocol.md, Nerts)."""

from __future__ import annotations

import random

import pytest

from app.demon.room.persist import restore_room, room_initial, room_meta
from app.demon.room.room import Options, Phase, Room, RoomError
from app.nerts.rules.options import NertsOptions
from app.nerts.rules.round import NertsRound
from app.protocol import messages as m
from app.records.records import replay
from app.support.secrets_util import hash_token
from tests.support.actions import as_sent_nerts

T0 = 1000.0
ALL_HOUSE_RULES = [
    {"draw": draw, "racing_spaces": spaces, "stall": stall}
    for draw in (3, 1)
    for spaces in (False, True)
    for stall in (True, False)
]


def nerts_room(n: int = 2, house: dict | None = None, seed: int = 288, **options) -> tuple[Room, list]:
    room = Room(
        "ROOMNRT", Options.chosen(3, None, 8, "nerts", house, **options), countdown_s=3, grace_s=120, test_seed=seed
    )
    room.clock = lambda: T0
    players = [room.join(f"P{i}", hash_token(f"tok{i}")) for i in range(n)]
    for p in players:
        room.connect(p, T0)
    room.start(players[0], T0)
    room.begin_round(T0 + 3)
    return room, players


def wire(action: dict) -> dict:
    return {k: v for k, v in action.items() if k != "seat"}


def play_out(room: Room, players: list, rng: random.Random, steps: int = 4000) -> list[dict]:
    """Random legal actions from random seats until the round ends (or `steps` run out);
    every event the room published, in order."""
    events = []
    for i in range(steps):
        if room.phase is not Phase.PLAYING:
            break
        p = rng.choice(players)
        legal = room.legal_for(p)
        if not legal:
            continue
        # Prefer progress a little, so that rounds end by Nerts! as well as by a stall.
        plays = [a for a in legal if a["type"] == "foundation"] or legal
        action = rng.choice(plays if rng.random() < 0.5 else legal)
        outcome = room.act(p, f"a{i}", as_sent_nerts(dict(action)), T0 + 4 + i / 100)
        assert outcome.reply is not None and outcome.reply["type"] == "ack", outcome.reply
        events += [e["event"] for e in outcome.events]
    return events


def test_a_nerts_table_deals_nerts_with_the_house_rules_the_host_chose():
    room, _ = nerts_room(3, {"draw": 1, "racing_spaces": True})
    assert isinstance(room.round, NertsRound)
    assert room.round.options == NertsOptions(draw=1, racing_spaces=True, stall=True)
    state = room.public_state(T0)
    assert state["options"] == {
        "rounds": 3,
        "time_limit_s": None,
        "max_players": 8,
        "game": "nerts",
        "house_rules": {"draw": 1, "racing_spaces": True, "stall": True},
    }
    view = state["round"]
    assert view is not None and view["stalled"] is False
    seat = view["seats"][0]
    assert set(seat) == {
        "seat",
        "nerts_top",
        "nerts_count",
        "work",
        "stock",
        "waste",
        "waste_count",
        "on_foundations",
        "absent",
    }
    assert seat["nerts_count"] == 13 and len(seat["work"]) == 4


def test_a_demon_tables_options_are_written_as_before():
    """No `game` key for Demon: its bytes on the wire do not change."""
    assert Options().to_json() == {"rounds": 3, "time_limit_s": None, "max_players": 8}
    assert Options.from_json(Options().to_json()) == Options()


@pytest.mark.parametrize(
    "game, house",
    [
        ("nerts", {"draw": 2}),
        ("nerts", {"stall": 1}),
        ("nerts", {"jokers": True}),
        ("demon", {"draw": 1}),
        ("go", None),
    ],
)
def test_house_rules_no_table_deals_are_refused_and_change_nothing(game, house):
    room = Room("ROOMBAD", Options(), countdown_s=3)
    host = room.join("Ann", hash_token("t"))
    with pytest.raises(RoomError) as err:
        room.set_options(host, Options.chosen(3, None, 8, game, house))
    assert err.value.code == "invalid"
    assert room.options == Options()


def test_the_host_switches_the_lobby_to_nerts_and_everyone_is_told():
    room = Room("ROOMSW", Options(), countdown_s=3)
    host = room.join("Ann", hash_token("t"))
    out = room.set_options(host, Options.chosen(5, None, 4, "nerts", {"stall": False}))
    state = out.events[0]["event"]["state"]
    assert state["options"]["game"] == "nerts"
    assert state["options"]["house_rules"] == {"draw": 3, "racing_spaces": False, "stall": False}


def test_a_demon_action_is_no_nerts_action():
    """A Nerts room reads its messages as Nerts': Demon's `tableau` does not parse."""
    with pytest.raises(ValueError):
        m.nerts_client_message.validate_python(
            {"type": "action", "id": "x", "action": {"type": "tableau", "src": 0, "dst": 1}}
        )
    bad = as_sent_nerts({"type": "work", "src": "waste", "dst": 1, "count": 2})
    room, players = nerts_room()
    reply = room.act(players[0], "b1", bad, T0 + 5).reply
    assert reply is not None and reply["code"] == "illegal"


@pytest.mark.parametrize("house", ALL_HOUSE_RULES, ids=lambda h: "-".join(f"{k}={v}" for k, v in h.items()))
def test_rounds_played_through_the_room_end_and_score_n14(house):
    rng = random.Random(str(house))
    reasons = set()
    for seed in range(6):
        room, players = nerts_room(rng.choice([2, 3, 4]), house, seed=seed)
        events = play_out(room, players, rng)
        if room.phase is Phase.PLAYING:
            room.vote(players[0], True)
            for p in players[1:]:
                room.vote(p, True)
        assert room.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER)
        rnd = room.round
        assert isinstance(rnd, NertsRound) and rnd.end is not None
        reasons.add(rnd.end.reason.value)
        home = rnd.foundation_counts()
        expected = {p.id: home[p.seat] - 2 * len(rnd.seats[p.seat].nerts) for p in players}
        assert room.result is not None and room.result["scores"] == expected
        assert room.result["reason"] == rnd.end.reason.value
        for e in events:
            if e["kind"] == "stall":  # N13: told to everyone, with the new stock sizes
                assert house["stall"], "no stall under H4 off"
                assert len(e["seats"]) == len(e["stock_counts"])
        # The record the room keeps replays to the same round.
        record = room.record.record()
        assert record is not None and record["game"] == "nerts"
        assert replay(record) == rnd
    assert reasons & {"nerts", "stuck"}


def test_a_stall_is_told_to_the_table_and_shown_in_the_round_view():
    rng = random.Random(7)
    for seed in range(200):
        room, players = nerts_room(2, {"stall": True}, seed=seed)
        events = play_out(room, players, rng, steps=3000)
        stalls = [e for e in events if e["kind"] == "stall"]
        if not stalls:
            continue
        stall = stalls[0]
        i = events.index(stall)
        assert events[i - 1]["kind"] in ("move", "absent")  # right after what caused it
        if room.phase is Phase.PLAYING:
            view = room.round_view()
            assert view is not None and view["stalled"] in (True, False)
        return
    pytest.fail("no stall in 200 random rounds")


def test_negative_scores_reach_the_match_totals():
    rng = random.Random(3)
    room, players = nerts_room(2, seed=11)
    play_out(room, players, rng, steps=30)
    for p in players:
        room.vote(p, True)
    assert room.result is not None and room.result["reason"] == "vote"
    assert min(room.result["scores"].values()) < 0
    assert room.result["totals"] == room.result["scores"]


def test_a_nerts_round_is_saved_and_restored_mid_round():
    rng = random.Random(5)
    room, players = nerts_room(3, {"draw": 1})
    play_out(room, players, rng, steps=60)
    assert room.phase is Phase.PLAYING
    meta = room_meta(room, T0 + 10)
    restored = restore_room(meta, room_initial(room), list(room.record.steps), list(room.record.step_ids), now=T0 + 20)
    assert restored.options == room.options
    assert restored.round == room.round
    p = restored.players[0]
    assert restored.legal_for(p) == room.legal_for(room.players[0])


def test_the_link_and_the_recent_games_name_the_game(tmp_path):
    from app.storage.store import Store

    room, players = nerts_room(2)
    assert room.to_public_summary()["game"] == "nerts"
    for p in players:
        room.vote(p, True)
    room.listed = True
    store = Store.open(tmp_path)
    try:
        store.record_match(room)
        demon = Room("ROOMDMN", Options(), countdown_s=3)
        demon.join("Ann", hash_token("d"))
        demon.listed = True
        store.record_match(demon)
        games = store.recent_matches()
        assert [g.get("game") for g in games] == [None, "nerts"]  # newest first; Demon's as before
    finally:
        store.close()


def test_a_race_to_a_foundation_names_the_winner_and_the_margin():
    """N10 as Demon's rule 14: the later play is refused, names who was first, and both
    players hear the margin on the server's receive clock."""
    room, players = nerts_room(2)
    seat = {"work": [["KH"], ["KD"], ["KC"], ["QS"]], "stock": ["9C"], "waste": []}
    room.round = NertsRound.from_layout(
        [{"nerts": ["5H", "2S"], **seat}, {"nerts": ["6H", "2S"], **seat}], [[("AS", 0)]]
    )
    room.record.begin(room.round, started_at=T0 + 3)
    first = room.act(players[0], "w", as_sent_nerts({"type": "foundation", "src": "nerts", "pile": 0}), T0 + 5.0)
    assert first.reply is not None and first.reply["type"] == "ack"
    late = room.act(players[1], "l", as_sent_nerts({"type": "foundation", "src": "nerts", "pile": None}), T0 + 5.25)
    reply = late.reply
    assert reply is not None and reply["code"] == "race_lost"
    assert reply["by_seat"] == 0 and reply["pile"] == 0 and reply["margin_ms"] == 250
    ((to, told),) = late.direct
    assert to == players[0].id and told["margin_ms"] == 250
