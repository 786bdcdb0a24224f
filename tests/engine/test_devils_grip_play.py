"""Devil's Grip: seeded random playouts with invariants, illegal input, JSON round trips,
undo/redo, hints and game records."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

import pytest
from grip_support import follow_hint_until_a_card_enters
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.common.errors import IllegalAction, InvalidRecord
from app.grip.rules import (
    DealThree,
    EndDeal,
    GridToGrid,
    GripGame,
    GripState,
    Redeal,
    Swap,
    TalonToGrid,
    daily_deal_number,
    describe,
    game_from_record,
    grip_action_from_json,
    grip_action_to_json,
    grip_deck,
    is_chain,
    make_grip_record,
    replay_record,
)

FULL = Counter(grip_deck())
SETTINGS: dict[str, Any] = {"deadline": None, "derandomize": True, "suppress_health_check": [HealthCheck.too_slow]}


def check_invariants(s: GripState) -> None:
    everything = [c for p in s.grid for c in p] + list(s.stock) + list(s.talon)
    assert len(everything) == 96 and Counter(everything) == FULL
    assert len(s.grid) == 24
    for pile in s.grid:
        assert len(pile) <= 4 and is_chain(pile)
        assert pile or (not s.stock and not s.talon)  # rule 7
    v = s.view()
    assert v["stock"] == len(s.stock) and isinstance(v["stock"], int)
    assert v["talon_count"] == len(s.talon) and v["talon"] == [str(c) for c in s.talon[-3:]]
    assert v["score"] == s.score() == len(s.stock) + len(s.talon)
    assert v["over"] == s.is_over()
    json.dumps(v)
    assert GripState.from_json(json.loads(json.dumps(s.to_json()))) == s


def choose(rng: random.Random, s: GripState):
    """A random legal action, mostly plays that bring a card in, sometimes anything."""
    acts = s.legal_actions(swaps=rng.random() < 0.05)
    entering = [
        a for a in acts if isinstance(a, TalonToGrid) or (isinstance(a, GridToGrid) and a.count == len(s.grid[a.src]))
    ]
    if entering and rng.random() < 0.7:
        return rng.choice(entering)
    cycle = [a for a in acts if isinstance(a, (DealThree, Redeal))]
    if cycle and rng.random() < 0.6:
        return cycle[0]
    return rng.choice(acts)


def random_action(rng: random.Random):
    kind = rng.randrange(5)
    cell = lambda: rng.randrange(-2, 26)  # noqa: E731 - includes out-of-range cells
    if kind == 0:
        return DealThree()
    if kind == 1:
        return Redeal()
    if kind == 2:
        return TalonToGrid(cell())
    if kind == 3:
        return GridToGrid(cell(), cell(), rng.randrange(0, 6))
    return Swap(cell(), cell())


def normal(a):
    if isinstance(a, Swap) and a.a > a.b:
        return Swap(a.b, a.a)
    return a


@settings(max_examples=25, **SETTINGS)
@given(st.integers(0, 2**40), st.sampled_from([1, 3, None]), st.randoms(use_true_random=False))
def test_random_playouts_keep_the_invariants(number, passes, rng):
    s = GripState.deal(number, passes)
    check_invariants(s)
    for _ in range(160):
        if s.is_over():
            break
        legal = {normal(a) for a in s.legal_actions()}
        # Random (mostly illegal) actions: rejected without change, or accepted iff legal.
        for _ in range(3):
            a = random_action(rng)
            before = s.to_json()
            try:
                s.apply(a)
                accepted = True
            except IllegalAction:
                accepted = False
            assert accepted == (normal(a) in legal), a
            assert s.to_json() == before
        # A random JSON object, as a client might send it: parsed and applied, or rejected.
        data = {
            k: rng.choice([rng.randrange(-1, 26), "3", None, True])
            for k in rng.sample(["src", "dst", "count", "a", "b"], rng.randrange(0, 4))
        }
        data["type"] = rng.choice(["deal", "redeal", "talon", "move", "swap", "x", 1])
        before = s.to_json()
        try:
            parsed = grip_action_from_json(data)
        except IllegalAction:
            parsed = None
        if parsed is not None:
            try:
                s.apply(parsed)
                accepted = True
            except IllegalAction:
                accepted = False
            assert accepted == (normal(parsed) in legal), data
        assert s.to_json() == before
        a = choose(rng, s)
        prev_score = s.score()
        s, events = s.apply(a)
        json.dumps([e.to_json() for e in events])
        assert s.score() <= prev_score
        check_invariants(s)
    assert s.is_over() == (s.legal_actions() == [])


@settings(max_examples=200, **SETTINGS)
@given(
    st.one_of(
        st.dictionaries(
            st.sampled_from(["type", "dst", "src", "count", "a", "b", "x"]),
            st.one_of(
                st.integers(-3, 30),
                st.text(max_size=3),
                st.none(),
                st.booleans(),
                st.sampled_from(["deal", "redeal", "talon", "move", "swap", "end"]),
            ),
        ),
        st.lists(st.integers()),
        st.text(),
        st.none(),
        st.integers(),
    )
)
def test_malformed_action_json_is_rejected(data):
    try:
        a = grip_action_from_json(data)
    except IllegalAction:
        return
    # Whatever parses is well-formed and round-trips.
    j = grip_action_to_json(a)
    assert grip_action_from_json(j) == a
    assert set(j) <= set(data) | {"count"}


def test_action_json_round_trip():
    for a in [DealThree(), Redeal(), TalonToGrid(3), GridToGrid(1, 2, 3), Swap(0, 23), EndDeal()]:
        assert grip_action_from_json(json.loads(json.dumps(grip_action_to_json(a)))) == a
    assert grip_action_from_json({"type": "move", "src": 1, "dst": 2}) == GridToGrid(1, 2, 1)
    for bad in [
        {"type": "talon"},
        {"type": "talon", "dst": 24},
        {"type": "talon", "dst": True},
        {"type": "move", "src": 1, "dst": 2, "count": 5},
        {"type": "deal", "x": 1},
        {"type": "swap", "a": "1", "b": 2},
        {"type": "fly"},
        [],
        "deal",
    ]:
        with pytest.raises(IllegalAction):
            grip_action_from_json(bad)


def test_view_never_shows_the_stock_order():
    s = GripState.deal(4)
    s, _ = s.apply(DealThree())
    v = json.dumps(s.view())
    hidden = [str(c) for c in s.stock]
    assert '"stock": 69' in v
    # No key carries a list of stock cards; at most the top three talon cards are listed.
    assert set(s.view()) >= {
        "grid",
        "stock",
        "talon",
        "talon_count",
        "passes_allowed",
        "passes_used",
        "score",
        "rating",
        "ended",
        "over",
        "won",
    }
    assert all(not isinstance(x, list) or len(x) <= 24 for x in s.view().values())
    assert s.view()["talon"] == [str(c) for c in s.talon]
    assert len(hidden) == 69


def play_game(seed: int, steps: int, undo_rate: float = 0.1) -> tuple[GripGame, list]:
    rng = random.Random(seed)
    g = GripGame.new(rng.randrange(10**6), rng.choice([1, 3, None]))
    history = [g.state]  # history[i] = the state after i actions
    for _ in range(steps):
        r = rng.random()
        if r < undo_rate and g.can_undo:
            g.undo()
            history.pop()
        elif r < 2 * undo_rate and g.can_redo:
            g.redo()
            history.append(g.state)
        elif not g.state.is_over():
            g.apply(choose(rng, g.state))
            history.append(g.state)
        elif g.can_undo:
            g.undo()
            history.pop()
        assert g.state == history[-1] and len(g.actions) == len(history) - 1
    return g, history


@pytest.mark.parametrize("seed", range(6))
def test_undo_redo_restore_exact_states(seed):
    g, history = play_game(seed, 300)
    assert g.used_undo
    pending = len(g.redo_actions)  # actions undone and not replaced at the end of play
    # Undo everything, checking each state, then redo everything.
    states = list(history)
    while g.can_undo:
        g.undo()
        states.pop()
        assert g.state == states[-1]
    assert g.state == g.initial
    while g.can_redo:
        g.redo()
        states.append(g.state)
    assert len(states) == len(history) + pending and states[: len(history)] == history


@pytest.mark.parametrize("seed", range(6))
def test_game_json_round_trip_with_redo_stack(seed):
    g, _ = play_game(seed, 200, undo_rate=0.15)
    data = json.loads(json.dumps(g.to_json()))
    h = GripGame.from_json(data)
    assert h.to_json() == g.to_json()
    assert h.state == g.state and h.used_undo == g.used_undo and h.can_redo == g.can_redo
    if h.can_redo:
        h.redo()
        g.redo()
        assert h.state == g.state


@pytest.mark.parametrize("seed", range(8))
def test_record_round_trip(seed):
    g, _ = play_game(100 + seed, 250, undo_rate=0.05 if seed % 2 else 0.0)
    if seed % 3 == 0 and not g.state.ended:
        g.end()
    rec = json.loads(json.dumps(g.record()))
    assert rec == make_grip_record(g)
    assert rec["format"] == "demon-devils-grip-record" and rec["version"] == 1
    assert rec["game"] == "devils-grip" and rec["number"] == g.number
    assert rec["options"] == {"passes": g.initial.passes_allowed}
    assert rec["used_undo"] == g.used_undo
    final = replay_record(rec)
    assert final.to_json() == g.state.to_json()
    assert game_from_record(rec).state == g.state
    # The common header's "seed" names the deal number too.
    alias = {k: v for k, v in rec.items() if k != "number"} | {"seed": rec["number"]}
    assert replay_record(alias) == g.state


def test_bad_records_name_the_first_bad_action():
    g, _ = play_game(7, 80, undo_rate=0.0)
    rec = g.record()
    assert len(rec["actions"]) > 10
    bad = copy.deepcopy(rec)
    bad["actions"][5] = {"type": "talon", "dst": 99}
    with pytest.raises(InvalidRecord) as e:
        replay_record(bad)
    assert e.value.index == 5
    bad = copy.deepcopy(rec)
    # An action that parses but is illegal there: swap two cells, then a move from nowhere.
    bad["actions"].insert(3, {"type": "move", "src": 0, "dst": 0, "count": 1})
    with pytest.raises(InvalidRecord) as e:
        replay_record(bad)
    assert e.value.index == 3
    for field, value in [
        ("format", "x"),
        ("version", 2),
        ("game", "demon"),
        ("options", {}),
        ("number", "1"),
        ("used_undo", 1),
        ("actions", {}),
        ("seed", rec["number"] + 1),
        ("extra", 0),
    ]:
        bad = copy.deepcopy(rec)
        bad[field] = value
        with pytest.raises(InvalidRecord):
            replay_record(bad)
    bad = copy.deepcopy(rec)
    bad["initial"]["stock"][0], bad["initial"]["stock"][-1] = bad["initial"]["stock"][-1], bad["initial"]["stock"][0]
    if bad["initial"]["stock"] != rec["initial"]["stock"]:
        with pytest.raises(InvalidRecord) as e:
            replay_record(bad)
        assert e.value.index is None  # not the cards of that deal number
    bad = copy.deepcopy(rec)
    bad["initial"]["grid"][0] = ["AS"]
    with pytest.raises(InvalidRecord):
        replay_record(bad)


def test_record_of_a_made_up_position_replays():
    s = GripState.from_layout([["5S"], ["2S"]] + [["4H", "7H", "TH", "KH"]] * 22, ["8S", "QC"], [], passes=1)
    g = GripGame(s)
    g.apply(GridToGrid(0, 1, 1))
    rec = g.record()
    assert rec["number"] is None
    assert replay_record(json.loads(json.dumps(rec))) == g.state


@settings(max_examples=20, **SETTINGS)
@given(st.integers(0, 2**40), st.sampled_from([1, 3, None]), st.randoms(use_true_random=False))
def test_hint_is_legal_and_brings_a_card_in(number, passes, rng):
    s = GripState.deal(number, passes)
    for _ in range(40):  # walk to a random mid-game position
        if s.is_over():
            break
        s, _ = s.apply(choose(rng, s))
    for _ in range(10):
        if s.is_over():
            assert s.hint() is None
            return
        # at most two passes of 24 deals, plus a redeal and the play
        follow_hint_until_a_card_enters(s, 120)


def test_game_hint_and_playing_hints_to_the_end():
    g = GripGame.new(1)
    n = 0
    while not g.state.is_over():
        g.apply(g.hint())
        n += 1
        assert n < 2000
    assert g.hint() is None and g.state.ended
    assert replay_record(g.record()) == g.state


def test_daily_deal_number_and_describe():
    a = daily_deal_number(2025, 1, 14)
    assert a == daily_deal_number(2025, 1, 14)
    assert a != daily_deal_number(2025, 1, 15)
    assert 1 <= a <= 999_999_999
    nums = {daily_deal_number(2024, 1, 1 + d) for d in range(28)}
    assert len(nums) == 28
    with pytest.raises(ValueError):
        daily_deal_number(2025, 2, 30)
    text = describe(GripState.deal(1))
    assert "stock 72" in text and "JH" in text and "r3" in text
    assert len(text.splitlines()) == 6  # header, columns, 3 rows, score
