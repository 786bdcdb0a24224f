"""`python -m app.records replay` on hostile files: an `error: …` line and exit status 1,
never a traceback.

The named cases are the ones an outside prober found; the hypothesis tests mutate a
valid record of each game at random so the next such case is found by the suite, not by
a user. Every run goes through the command's own `main`, with real files on disk.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.demon.rules.record import make_demon_record
from app.demon.rules.round import DemonAction, DemonRound
from app.grip.rules.game import GripGame, make_grip_record
from app.nerts.rules.options import NertsOptions
from app.nerts.rules.record import make_nerts_record
from app.nerts.rules.round import NertsRound
from app.records.__main__ import main


def _run(path: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(["replay", str(path)], out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def _demon_record() -> dict:
    return make_demon_record(DemonRound.deal(7, 2), [])


def _grip_record() -> dict:
    return make_grip_record(GripGame.new(5))


def _write(tmp_path: Path, data: bytes | str | dict, name: str = "record.json") -> Path:
    """Bytes and str are written as they are; a dict is written as its JSON."""
    if isinstance(data, dict):
        data = json.dumps(data)
    return _write_bytes(tmp_path, data.encode("utf-8") if isinstance(data, str) else data, name)


def _write_bytes(tmp_path: Path, raw: bytes, name: str = "record.json") -> Path:
    path = tmp_path / name
    path.write_bytes(raw)
    return path


def _assert_refused(status: int, out: str, err: str) -> None:
    assert status == 1
    assert out == ""
    assert err.startswith("error: "), err
    assert "Traceback" not in err
    assert err.count("\n") == 1, err  # one line, not a dump


def test_valid_records_of_every_game_replay(tmp_path):
    for record in (_demon_record(), _grip_record(), make_nerts_record(NertsRound.deal(7, 2), [])):
        status, out, err = _run(_write(tmp_path, record))
        assert (status, err) == (0, "")
        assert "0 actions replayed" in out


def test_invalid_utf8_is_an_error_line(tmp_path):
    _assert_refused(*_run(_write(tmp_path, b'{"format": "\xff\xfe"}')))


def test_deep_nesting_is_an_error_line(tmp_path):
    _assert_refused(*_run(_write(tmp_path, "[" * 100_000 + "]" * 100_000)))


def test_deep_nesting_inside_an_action_is_an_error_line(tmp_path):
    text = json.dumps(_demon_record()).replace('"actions": []', '"actions": [' + "[" * 50_000 + "]" * 50_000 + "]")
    _assert_refused(*_run(_write(tmp_path, text)))


def test_a_5000_digit_number_is_an_error_line(tmp_path):
    _assert_refused(*_run(_write(tmp_path, '{"format": ' + "9" * 5000 + "}")))


def test_a_5000_digit_number_as_a_seed_is_an_error_line(tmp_path):
    text = json.dumps(_demon_record()).replace('"seed": 7', '"seed": ' + "9" * 5000)
    _assert_refused(*_run(_write(tmp_path, text)))


@pytest.mark.parametrize("kind", [["play"], {"a": 1}, 3, None, True])
def test_an_action_type_that_is_not_a_string_is_an_error_line(tmp_path, kind):
    for record in (_demon_record(), _grip_record()):
        record["actions"] = [{"type": kind}]
        status, out, err = _run(_write(tmp_path, record))
        _assert_refused(status, out, err)
        assert "action index 0" in err


def test_a_demon_record_with_one_seat_is_refused(tmp_path):
    """Rule 1: Demon is for 2 to 8 players, so a one-seat record is not a Demon round."""
    record = _demon_record()
    record["initial"]["seats"] = record["initial"]["seats"][:1]
    record["options"]["players"] = 1
    del record["seed"]
    status, out, err = _run(_write(tmp_path, record))
    _assert_refused(status, out, err)
    assert "2 to 8" in err


def test_a_missing_file_is_an_error_line(tmp_path):
    _assert_refused(*_run(tmp_path / "nowhere.json"))


# ---------------------------------------------------------------- fuzzing the loader

_json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.floats(allow_nan=False), st.text(max_size=6)
)
_json_value = st.recursive(
    _json_leaf,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=12,
)


def _paths(value, prefix=()):
    """Every place inside a JSON value, as a tuple of keys and indexes."""
    yield prefix
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, prefix + (key,))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from _paths(inner, prefix + (i,))


def _replace(value, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[head] = _replace(value[head], rest, new)
    return copy


def _played_demon_record() -> dict:
    rnd = DemonRound.deal(11, 3).start()
    actions: list[DemonAction] = []
    for _ in range(25):
        legal = rnd.legal_actions(len(actions) % 3)
        if not legal:
            break
        rnd, _ = rnd.apply(legal[0])
        actions.append(legal[0])
    return make_demon_record(DemonRound.deal(11, 3), actions)


def _played_grip_record() -> dict:
    game = GripGame.new(9)
    for _ in range(15):
        legal = game.state.legal_actions()
        if not legal:
            break
        game.apply(legal[0])
    return make_grip_record(game)


def _played_nerts_record() -> dict:
    dealt = NertsRound.deal(13, 3, NertsOptions(draw=1, racing_spaces=True))
    rnd, entries = dealt.start(), []
    for i in range(40):
        legal = rnd.legal_actions(i % 3)
        if not legal:
            continue
        rnd, _ = rnd.apply(legal[-1])
        entries.append(legal[-1])
    entries.append({"type": "absent", "seat": 2, "absent": True})
    return make_nerts_record(dealt, entries)


_SAMPLES = {"demon": _played_demon_record(), "grip": _played_grip_record(), "nerts": _played_nerts_record()}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(sorted(_SAMPLES)), data=st.data(), new=_json_value)
def test_fuzz_mutated_records_give_an_answer_or_an_error_line(tmp_path, game, data, new):
    record = _SAMPLES[game]
    where = data.draw(st.sampled_from(list(_paths(record))))
    mutated = _replace(record, where, new)
    status, out, err = _run(_write_bytes(tmp_path, json.dumps(mutated).encode("utf-8")))
    if status == 0:
        assert err == "" and "actions replayed" in out
    else:
        _assert_refused(status, out, err)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(sorted(_SAMPLES)), cut=st.integers(0, 10**6), junk=st.binary(max_size=8))
def test_fuzz_damaged_bytes_give_an_answer_or_an_error_line(tmp_path, game, cut, junk):
    raw = json.dumps(_SAMPLES[game]).encode("utf-8")
    cut %= len(raw) + 1
    status, out, err = _run(_write_bytes(tmp_path, raw[:cut] + junk + raw[cut + len(junk) :]))
    if status == 0:
        assert err == "" and "actions replayed" in out
    else:
        _assert_refused(status, out, err)
