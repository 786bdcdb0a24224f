"""The short way of reading an `action` message (app/protocol/fast_action.py) answers
exactly as pydantic's validation does: it accepts what pydantic accepts and nothing
else, and builds an equal message; what it does not accept goes to pydantic, so a
refusal is pydantic's own error.

Checked on hand-picked edge cases and on generated messages (hypothesis) for both games:
well-formed actions and their mutations (wrong types, bools and floats for integers,
huge integers, extra, missing and duplicate keys, unicode ids, nested junk, JSON
spellings such as `1e0`, `-0`, `NaN` and escaped surrogates), written as raw JSON text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, example, find, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from app.protocol import messages as m
from app.protocol.fast_action import fast_action, read_client_message

ADAPTERS = {"demon": m.client_message, "nerts": m.nerts_client_message}


def pydantic_answer(adapter: TypeAdapter[Any], text: str) -> tuple[str, Any]:
    try:
        return "ok", adapter.validate_json(text)
    except ValidationError as err:
        return "refused", repr(err.errors(include_url=False))  # repr: NaN != NaN


def assert_same_answer(adapter: TypeAdapter[Any], text: str) -> Any:
    """The property: the short way accepts exactly the `action` messages pydantic
    accepts, with an equal object, and `read_client_message` answers as pydantic."""
    expected = pydantic_answer(adapter, text)
    fast = fast_action(adapter, text)
    pydantic_action = expected[0] == "ok" and isinstance(expected[1], m.Action)
    assert (fast is not None) == pydantic_action, (text, expected, fast)
    if fast is not None:
        msg = expected[1]
        assert type(fast) is type(msg) and fast == msg, (text, fast, msg)
        assert type(fast.action) is type(msg.action)
        assert fast.model_fields_set == msg.model_fields_set
    try:
        answer = "ok", read_client_message(adapter, text)
    except ValidationError as err:
        answer = "refused", repr(err.errors(include_url=False))
    assert answer == expected, text
    return expected


WELL_FORMED = [
    ("demon", '{"type":"action","id":"a1","action":{"type":"draw"}}'),
    ("demon", '{"type":"action","id":"a1","action":{"type":"recycle"}}'),
    ("demon", '{"type":"action","id":"a1","action":{"type":"tableau","src":3,"dst":5}}'),
    ("demon", '{"type":"action","id":"a1","action":{"type":"tableau","src":"waste","dst":0,"count":1}}'),
    ("demon", '{"action":{"count":13,"dst":6,"src":0,"type":"tableau"},"id":"x","type":"action"}'),
    ("demon", '{"type":"action","id":"a1","action":{"type":"foundation","src":"waste"}}'),
    ("demon", '{"type":"action","id":"a1","action":{"type":"foundation","src":6,"pile":63}}'),
    ("demon", '{"type":"action","id":"a1","action":{"type":"foundation","src":6,"pile":null}}'),
    ("nerts", '{"type":"action","id":"a1","action":{"type":"work","src":"nerts","dst":3}}'),
    ("nerts", '{"type":"action","id":"a1","action":{"type":"foundation","src":"waste","pile":0}}'),
    ("nerts", '{"type":"action","id":"a1","action":{"type":"draw"}}'),
    # Well formed, refused by the engine: the same `MalformedMove` both ways.
    ("demon", '{"type":"action","id":"a1","action":{"type":"tableau","src":2,"dst":2}}'),
    ("demon", '{"type":"action","id":"a1","action":{"type":"tableau","src":"waste","dst":1,"count":2}}'),
    ("nerts", '{"type":"action","id":"a1","action":{"type":"work","src":"nerts","dst":1,"count":2}}'),
    # JSON spellings the parser reads as the same value, and a duplicate key's last value.
    ("demon", ' \n{"type":"action","id":"\\u0061","action":{"type":"tableau","src":-0,"dst":1}}\t'),
    ("demon", '{"type":"action","id":"","id":"a","action":{"type":"draw"}}'),
    ("demon", '{"type":"hello","type":"action","id":"a","action":{"type":"draw"}}'),
    ("demon", '{"type":"action","id":"\\ud83d\\ude00' + "x" * 39 + '","action":{"type":"draw"}}'),
]

REFUSED = [
    ("demon", '{"type":"action","id":"a1","action":{"type":"work","src":1,"dst":2}}'),  # Nerts' shape
    ("nerts", '{"type":"action","id":"a1","action":{"type":"tableau","src":1,"dst":2}}'),  # Demon's
    ("nerts", '{"type":"action","id":"a1","action":{"type":"work","src":1,"dst":4}}'),
    ("demon", '{"type":"action","id":"a1","action":{"type":"tableau","src":1.0,"dst":2}}'),
    ("demon", '{"type":"action","id":"a1","action":{"type":"tableau","src":1e0,"dst":2}}'),
    ("demon", '{"type":"action","id":"a1","action":{"type":"tableau","src":NaN,"dst":2}}'),
    ("demon", '{"type":"action","id":"a1","action":{"type":"tableau","src":true,"dst":2}}'),
    ("demon", '{"type":"action","id":"a1","action":{"type":"tableau","src":1,"dst":2,"count":0}}'),
    ("demon", '{"type":"action","id":"a1","action":{"type":"tableau","src":1,"dst":2,"count":null}}'),
    ("demon", '{"type":"action","id":"a1","action":{"type":"tableau","src":1,"dst":2,"count":' + "9" * 40 + "}}"),
    ("demon", '{"type":"action","id":"a1","action":{"type":"tableau","src":1,"dst":2,"seat":3}}'),
    ("demon", '{"type":"action","id":"a1","action":{"type":"draw","src":1}}'),
    ("demon", '{"type":"action","id":"a1","action":{"type":"foundation"}}'),
    ("demon", '{"type":"action","id":"a1","action":{"type":"foundation","src":1,"pile":64}}'),
    ("demon", '{"type":"action","id":"","action":{"type":"draw"}}'),
    ("demon", '{"type":"action","id":"' + "x" * 41 + '","action":{"type":"draw"}}'),
    ("demon", '{"type":"action","id":"\\ud800","action":{"type":"draw"}}'),
    ("demon", '{"type":"action","id":7,"action":{"type":"draw"}}'),
    ("demon", '{"type":"action","id":"a1","action":{"type":"draw"},"seat":0}'),
    ("demon", '{"type":"action","id":"a1"}'),
    ("demon", '{"type":"action","id":"a1","action":[]}'),
    ("demon", '{"type":"action","type":"hello","id":"a","action":{"type":"draw"}}'),
    ("demon", '{"type":"action","id":"a1","action":{"type":"draw"}} x'),
    ("demon", '[{"type":"action","id":"a1","action":{"type":"draw"}}]'),
    ("demon", '"action"'),
    ("demon", ""),
]


@pytest.mark.parametrize(("game", "text"), WELL_FORMED)
def test_well_formed_actions_are_read_the_short_way_as_pydantic_reads_them(game, text):
    assert fast_action(ADAPTERS[game], text) is not None
    assert assert_same_answer(ADAPTERS[game], text)[0] == "ok"


@pytest.mark.parametrize(("game", "text"), REFUSED)
def test_bad_actions_get_pydantics_own_error(game, text):
    assert fast_action(ADAPTERS[game], text) is None
    assert assert_same_answer(ADAPTERS[game], text)[0] == "refused"


def test_other_messages_and_other_readers_go_to_pydantic():
    assert fast_action(m.client_message, '{"type":"ping"}') is None
    assert read_client_message(m.client_message, '{"type":"ping"}') == m.Ping(type="ping")
    other = TypeAdapter(m.Action)
    assert fast_action(other, '{"type":"action","id":"a","action":{"type":"draw"}}') is None


# --- generated messages ----------------------------------------------------------------


@dataclass(frozen=True)
class Raw:
    """A JSON token written as it is (a spelling json.dumps would not choose)."""

    text: str


@dataclass(frozen=True)
class Obj:
    """A JSON object as its pairs, in order, duplicates allowed."""

    pairs: tuple[tuple[str, Any], ...]


def render(value: Any, ascii_only: bool) -> str:
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, Obj):
        return "{" + ",".join(f"{json.dumps(k)}:{render(v, ascii_only)}" for k, v in value.pairs) + "}"
    if isinstance(value, list):
        return "[" + ",".join(render(v, ascii_only) for v in value) + "]"
    return json.dumps(value, ensure_ascii=ascii_only)


WORDS = ["action", "hello", "draw", "recycle", "tableau", "work", "foundation", "waste", "nerts", "", "Waste", "ping"]
RAW = [
    "1e0",
    "-0",
    "0e5",
    "1.0",
    "2E0",
    "NaN",
    "Infinity",
    "-Infinity",
    "01",
    "+1",
    '"\\ud800"',
    '"\\u0077aste"',
    '"waste\\u0000"',
    "tru",
    "nul",
]
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 70),
    st.integers(-(2**80), 2**80),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(WORDS),
    st.text(max_size=42),
    st.sampled_from(RAW).map(Raw),
    st.lists(st.integers(0, 7), max_size=2),
    st.builds(lambda n: Obj((("type", "draw"),) * n), st.integers(0, 2)),
)


def near(good: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly a valid value (7 in 8), at times junk (hypothesis' `one_of` would weigh
    each of JUNK's branches as much as `good`)."""
    return often().flatmap(lambda valid: good if valid else JUNK)


def often(times: int = 7) -> st.SearchStrategy[bool]:
    """True `times` in `times + 1` (`integers` would lean to its bounds)."""
    return st.sampled_from([True] * times + [False])


SHAPES = {  # each action type with the keys it needs, and one it may have
    "draw": ["type"],
    "recycle": ["type"],
    "tableau": ["type", "src", "dst", "count"],
    "work": ["type", "src", "dst", "count"],
    "foundation": ["type", "src", "pile"],
}
VALUES = {
    "src": near(st.one_of(st.sampled_from(["waste", "nerts"]), st.integers(-1, 7))),
    "dst": near(st.integers(-1, 7)),
    "count": near(st.integers(0, 14)),
    "pile": near(st.one_of(st.none(), st.integers(-1, 64))),
    "id": near(st.text(min_size=1, max_size=41)),
}
OTHER_KEYS = ["type", "src", "dst", "count", "pile", "seat", "id", "action", "token", "Type"]


@st.composite
def objects(draw: Any, pairs: list[tuple[str, st.SearchStrategy[Any]]]) -> Obj:
    """An object of these keys, mostly all of them, at times one fewer, one more (or
    one twice), in any order."""
    chosen = [(k, v) for k, v in pairs if draw(often(15))]
    if not draw(often(5)):
        chosen.append((draw(st.sampled_from(OTHER_KEYS)), JUNK))
    chosen = draw(st.permutations(chosen))
    return Obj(tuple((k, draw(v)) for k, v in chosen))


@st.composite
def action_texts(draw: Any) -> str:
    kind = draw(st.sampled_from(sorted(SHAPES)))
    fields = [("type", near(st.just(kind)))] + [(k, VALUES[k]) for k in SHAPES[kind][1:]]
    action = draw(near(objects(fields)))
    message = draw(objects([("type", near(st.just("action"))), ("id", VALUES["id"]), ("action", st.just(action))]))
    text = render(message, ascii_only=draw(st.booleans()))
    return draw(st.sampled_from(["", "", " ", "\n\t"])) + text + draw(st.sampled_from(["", "", " ", "\r\n", "x", "}"]))


@settings(max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=action_texts())
@example(text='{"type":"action","id":"a","action":{"type":"tableau","src":1,"dst":2,"count":true}}')
def test_demon_short_way_answers_as_pydantic(text):
    assert_same_answer(m.client_message, text)


@settings(max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=action_texts())
@example(text='{"type":"action","id":"a","action":{"type":"work","src":"nerts","dst":false}}')
def test_nerts_short_way_answers_as_pydantic(text):
    assert_same_answer(m.nerts_client_message, text)


def test_the_generator_reaches_both_answers():
    """The property is not vacuous: of the generated messages, many are accepted the
    short way and many refused, for each game (`find` only draws them here: its
    condition records each and is met after 800)."""
    for adapter in ADAPTERS.values():
        seen: list[bool] = []

        def record(text: str, adapter: TypeAdapter[Any] = adapter, seen: list[bool] = seen) -> bool:
            seen.append(fast_action(adapter, text) is not None)
            return len(seen) >= 800

        find(action_texts(), record, settings=settings(max_examples=2000, database=None, deadline=None))
        accepted = sum(seen)
        assert accepted >= 80 and len(seen) - accepted >= 80, (accepted, len(seen))
