"""Nerts' game records (docs/records.md): made from a round and its entries, replayed to
the same round, and refused with the entry's index when they do not replay."""

from __future__ import annotations

import copy
import io
import json

import pytest

from app.common.errors import InvalidRecord
from app.nerts.rules.options import NertsOptions
from app.nerts.rules.record import make_nerts_record, nerts_initial, replay_nerts
from app.nerts.rules.round import NertsRound
from app.records.__main__ import main
from app.records.records import replay


def played(seed: int = 21, players: int = 3, steps: int = 60, **house) -> tuple[NertsRound, NertsRound, list]:
    dealt = NertsRound.deal(seed, players, NertsOptions(**house))
    rnd, entries = dealt.start(), []
    for i in range(steps):
        legal = rnd.legal_actions(i % players)
        if legal:
            rnd, _ = rnd.apply(legal[i % len(legal)])
            entries.append(legal[i % len(legal)])
    return dealt, rnd, entries


def test_a_record_replays_to_the_round_it_was_made_from():
    dealt, rnd, entries = played(draw=1, stall=False)
    rnd, _ = rnd.finish("vote")
    record = make_nerts_record(dealt, [*entries, {"type": "finish", "reason": "vote"}], times=None)
    assert record["game"] == "nerts" and record["seed"] == 21
    assert record["options"] == {"players": 3, "draw": 1, "racing_spaces": False, "stall": False}
    assert replay_nerts(record) == rnd == replay(record)


def test_times_are_kept_one_per_entry():
    dealt, _, entries = played(steps=3)
    record = make_nerts_record(dealt, entries, times=[0.5, None, 2.0][: len(entries)])
    assert record["times"] == [0.5, None, 2.0][: len(entries)]
    with pytest.raises(ValueError):
        make_nerts_record(dealt, entries, times=[1.0] * (len(entries) + 1))


def test_cards_that_are_not_the_seeds_deal_are_refused():
    dealt, _, _ = played(steps=0)
    record = make_nerts_record(dealt, [])
    record["seed"] = 22
    with pytest.raises(InvalidRecord, match="not those of deal 22"):
        nerts_initial(record)


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda r: r["options"].update(draw=2), "bad options"),
        (lambda r: r["options"].update(jokers=True), "bad options"),
        (lambda r: r.update(extra=1), "unknown key"),
        (lambda r: r["options"].update(players=4), "options.players"),
        (lambda r: r["initial"].update(seats=r["initial"]["seats"][:1]), "2 to 8 seats"),
        (lambda r: r.update(game="demon"), "not 'nerts'"),
    ],
)
def test_a_damaged_header_is_refused_saying_what(damage, message):
    dealt, _, entries = played(steps=5)
    record = copy.deepcopy(make_nerts_record(dealt, entries))
    damage(record)
    with pytest.raises(InvalidRecord, match=message):
        nerts_initial(record) if record["game"] == "nerts" else replay_nerts(record)


def test_an_illegal_entry_is_refused_with_its_index():
    dealt, _, entries = played(steps=8)
    record = make_nerts_record(dealt, entries)
    record["actions"].insert(3, {"type": "work", "seat": 0, "src": "nerts", "dst": 0, "count": 1})
    record["actions"].insert(3, {"type": "finish", "reason": "demon"})
    with pytest.raises(InvalidRecord) as err:
        replay_nerts(record)
    assert err.value.index == 3


def test_the_command_line_replays_and_deals_nerts(tmp_path):
    dealt, rnd, entries = played()
    path = tmp_path / "round.json"

    path.write_text(json.dumps(make_nerts_record(dealt, entries)))
    out, err = io.StringIO(), io.StringIO()
    assert main(["replay", str(path)], out=out, err=err) == 0
    assert out.getvalue().startswith("Nerts round, 3 players, draw 3") and err.getvalue() == ""
    assert f"{len(entries)} actions replayed" in out.getvalue()
    out = io.StringIO()
    assert main(["deal", "--game", "nerts", "5", "2"], out=out, err=err) == 0
    assert "nerts 13: (" in out.getvalue()
