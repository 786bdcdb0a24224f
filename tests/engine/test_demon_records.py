"""Demon records: make, save, load, replay (and the `python -m app.records` tool)."""

from __future__ import annotations

import io
import json
import random

import pytest
from test_demon_support import choose_action, seat, suit_pile

from app.common.errors import InvalidRecord
from app.common.records import RECORD_FORMAT
from app.demon.rules.record import make_demon_record, replay_demon
from app.demon.rules.round import DemonAction, DemonRound, Draw, Recycle, ToFoundation
from app.records.__main__ import main
from app.records.records import load, replay, save


def played_round(seed: int, players: int = 3, limit: int = 10_000):
    rng = random.Random(seed)
    initial = DemonRound.deal(seed, players)
    r = initial.start()
    actions: list[DemonAction] = []
    idle = 0
    while r.end is None and len(actions) < limit and idle < 50:
        a = choose_action(r, rng, list(range(players)))
        if a is None:
            idle += 1
            continue
        r, _ = r.apply(a)
        actions.append(a)
    return initial, actions, r


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_played_round_saved_and_replayed_gives_the_same_state(seed, tmp_path):
    initial, actions, final = played_round(seed)
    record = make_demon_record(initial, actions)
    assert record["format"] == RECORD_FORMAT and record["version"] == 1
    assert record["game"] == "demon" and record["seed"] == seed
    assert record["options"] == {"players": 3, "draw": 3}
    assert record["initial"]["started"] is False
    path = tmp_path / "round.json"
    save(record, str(path))
    again = replay(load(str(path)))
    assert again.to_json() == final.to_json()
    assert again == final


def test_record_with_room_entries_and_a_started_layout():
    s0 = seat(("", "2S"), stock="3S 9H")
    s1 = seat(("", "5D"), stock="AC")
    initial = DemonRound.from_layout([s0, s1], [suit_pile("S", 1, 0)])
    entries = [
        ToFoundation(0, 0),
        Draw(1),
        {"type": "absent", "seat": 1, "absent": True},
        {"type": "absent", "seat": 1, "absent": False},
        {"type": "finish", "reason": "vote"},
    ]
    record = make_demon_record(initial, entries)
    assert "seed" not in record  # not a seed's deal
    final = replay(json.loads(json.dumps(record)))
    assert final.end.reason == "vote" and final.scores() == (2, 0)
    assert final.absent == frozenset()


def test_replay_names_the_first_illegal_action():
    initial, actions, _ = played_round(4, limit=40)
    record = make_demon_record(initial, actions)
    record["actions"].insert(7, {"type": "recycle", "seat": 0})  # the stock is not empty
    with pytest.raises(InvalidRecord) as info:
        replay(record)
    assert info.value.index == 7 and "action 7" in str(info.value)
    record["actions"][7] = {"type": "jump", "seat": 0}
    with pytest.raises(InvalidRecord) as info:
        replay(record)
    assert info.value.index == 7


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda r: r.update(format="chess"), "format"),
        (lambda r: r.update(version=2), "version"),
        (lambda r: r.update(game="poker"), "game"),
        (lambda r: r.update(actions={}), "actions"),
        (lambda r: r.update(seed=999), "deal 999"),
        (lambda r: r["options"].update(players=4), "players"),
        (lambda r: r["options"].update(draw=1), "draw"),
        (lambda r: r["initial"]["seats"][0]["stock"].append("AS"), "twice"),
        (lambda r: r["initial"].pop("seats"), "initial"),
        (lambda r: r.update(extra=1), "unknown"),
    ],
)
def test_bad_records_are_refused_with_a_clear_message(change, message):
    initial, actions, _ = played_round(5, players=2, limit=10)
    record = make_demon_record(initial, actions)
    change(record)
    with pytest.raises(InvalidRecord, match=message) as info:
        replay(record)
    assert info.value.index is None


def test_actions_after_the_end_are_invalid():
    initial, actions, final = played_round(6, players=2)
    assert final.end is not None
    record = make_demon_record(initial, actions + [Recycle(0)])
    with pytest.raises(InvalidRecord) as info:
        replay_demon(record)
    assert info.value.index == len(actions)


def test_devils_grip_records_are_dispatched():
    """`replay` reads the header and hands a Devil's Grip record to that game's replay:
    a real game of a few moves comes back in the same position."""
    from app.grip.rules import GripGame

    game = GripGame.new(7, passes=3)
    for _ in range(6):
        legal = game.state.legal_actions()
        if not legal:
            break
        game.apply(legal[0])
    assert replay(game.record()).to_json() == game.state.to_json()


def test_load_refuses_non_json(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("{not json")
    with pytest.raises(InvalidRecord, match="not valid JSON"):
        load(str(p))
    p.write_text("[1, 2]")
    with pytest.raises(InvalidRecord, match="object"):
        load(str(p))


# --------------------------------------------------------------------------- the CLI


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_cli_replay_prints_the_final_state_and_scores(tmp_path):
    initial, actions, final = played_round(7, players=2)
    path = tmp_path / "r.json"
    save(make_demon_record(initial, actions), str(path))
    code, out, err = run_cli("replay", str(path))
    assert code == 0 and err == ""
    assert "Seat 0" in out and "Seat 1" in out and "Foundations" in out
    s0, s1 = final.scores()
    assert f"Scores: seat 0: {s0}, seat 1: {s1}" in out
    assert f"{len(actions)} actions replayed" in out


def test_cli_replay_fails_with_the_action_index(tmp_path):
    initial, actions, _ = played_round(8, players=2, limit=20)
    record = make_demon_record(initial, actions)
    record["actions"].insert(3, {"type": "tableau", "seat": 0, "src": 0, "dst": 0})
    path = tmp_path / "bad.json"
    save(record, str(path))
    code, out, err = run_cli("replay", str(path))
    assert code == 1 and out == ""
    assert "action index 3" in err
    code, _out, err = run_cli("replay", str(tmp_path / "missing.json"))
    assert code == 1 and "cannot read" in err


def test_cli_deal_shows_every_card():
    code, out, _ = run_cli("deal", "1", "2")
    assert code == 0
    assert "pile 6: (JS QD QC 3H JH 6S) 9H" in out
    code, _, err = run_cli("deal", "1", "9")
    assert code == 1 and "players" in err
