"""Seeded random playouts with invariants checked after every action, and fuzzing with
random (mostly illegal) actions and JSON."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_demon_support import brute_force_stuck, check_invariants, random_playout

from app.common.errors import IllegalAction
from app.demon.rules.round import (
    DemonRound,
    Draw,
    Drew,
    Recycle,
    ToFoundation,
    ToTableau,
    action_from_json,
    action_to_json,
)

PLAYOUT = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _visible_cards(view_seat: dict) -> set[str]:
    out = set(view_seat["waste"])
    for p in view_seat["tableau"]:
        out.update(p["up"])
    return out


def check_view(r: DemonRound) -> None:
    """The public view shows no face-down card and no stock order, and is JSON."""
    for s, state in enumerate(r.seats):
        sv = r.seat_view(s)
        json.dumps(sv)
        assert isinstance(sv["stock"], int) and sv["stock"] == len(state.stock)
        assert sv["waste"] == [str(c) for c in state.waste[-3:]] and len(sv["waste"]) <= 3
        for p, vp in zip(state.tableau, sv["tableau"]):
            assert vp["down"] == len(p.down) and vp["up"] == [str(c) for c in p.up]
        hidden = {str(c) for p in state.tableau for c in p.down} | {str(c) for c in state.stock}
        hidden |= {str(c) for c in state.waste[:-3]}
        assert not (_visible_cards(sv) & hidden)


@PLAYOUT
@given(seed=st.integers(0, 2**40), players=st.integers(2, 4))
def test_random_playouts_keep_every_invariant(seed, players):
    prev = DemonRound.deal(seed, players).start()
    check_invariants(prev)
    for n, (r, action, events) in enumerate(random_playout(seed, players, 400), start=1):
        check_invariants(r)
        assert events, "every action reports what happened"
        for e in events:
            j = e.to_json()
            assert j["type"] and "seat" in j
            json.dumps(j)
            if isinstance(e, Drew):  # a draw names only what is now visible on the waste
                assert e.visible == r.seats[e.seat].waste[-3:]
        # the state changed only for the acting seat (and the shared foundations)
        for s in range(players):
            if s != action.seat:
                assert r.seats[s] == prev.seats[s]
        if r.end is not None and r.end.reason == "stuck":
            assert all(r.is_stuck(s) for s in range(players) if s not in r.absent)
        elif r.end is None:
            assert not all(r.is_stuck(s) for s in range(players))
        if n % 25 == 0:
            assert DemonRound.from_json(json.loads(json.dumps(r.to_json()))) == r
            check_view(r)
        prev = r
    check_view(prev)
    assert DemonRound.from_json(prev.to_json()) == prev


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40))
def test_stuck_matches_brute_force_on_mid_round_positions(seed):
    """Exact rule 16 on real positions: the fast search against an exhaustive one."""
    checked = 0
    for i, (r, _a, _e) in enumerate(random_playout(seed, 3, 300)):
        if i % 9:
            continue
        tops = [p[-1][0] for p in r.foundations]
        for s in range(3):
            assert r.is_stuck(s) == brute_force_stuck(r.seats[s], tops), (seed, i, s)
            checked += 1
    assert checked


def _normalised_legal(r: DemonRound, seat: int) -> set:
    return set(r.legal_actions(seat))


def _expected_legal(r: DemonRound, a) -> bool:
    """Whether `a` should be accepted, judged from legal_actions (which lists foundation
    plays with explicit piles and aces with pile = len(foundations))."""
    legal = _normalised_legal(r, a.seat)
    if isinstance(a, ToFoundation):
        mine = [x for x in legal if isinstance(x, ToFoundation) and x.src == a.src]
        if a.pile is None:
            return bool(mine)
        nf = len(r.foundations)
        return any(x.pile == a.pile or x.pile == nf for x in mine)
    return a in legal


def _random_action(rng: random.Random, players: int):
    seat = rng.randrange(players + 1)  # sometimes a seat that does not exist
    kind = rng.randrange(4)
    src = rng.choice(["waste"] + list(range(7)))
    if kind == 0:
        return Draw(seat)
    if kind == 1:
        return Recycle(seat)
    if kind == 2:
        dst = rng.randrange(7)
        if dst == src:
            dst = (dst + 1) % 7
        count = 1 if src == "waste" else rng.randint(1, 5)
        return ToTableau(seat, src, dst, count)
    return ToFoundation(seat, src, rng.choice([None, 0, 1, 2, 3, 5, 9]))


@FUZZ
@given(seed=st.integers(0, 2**40), steps=st.integers(20, 200))
def test_random_actions_are_accepted_exactly_when_legal(seed, steps):
    rng = random.Random(seed)
    players = rng.randint(2, 4)
    r = DemonRound.deal(seed, players).start()
    for _ in range(steps):
        if r.end is not None:
            break
        a = _random_action(rng, players)
        if a.seat >= players:
            with pytest.raises(IllegalAction):
                r.apply(a)
            continue
        expected = _expected_legal(r, a)
        before = r.to_json()
        try:
            r2, _ = r.apply(a)
        except IllegalAction:
            assert not expected, a
            assert r.to_json() == before  # a rejection changes nothing
            continue
        assert expected, a
        check_invariants(r2)
        r = r2


@FUZZ
@given(seed=st.integers(0, 2**40))
def test_every_listed_legal_action_applies(seed):
    for r, _a, _e in random_playout(seed, 2, 60):  # noqa: B007 (the last round is the one checked)
        pass
    for s in range(2):
        for a in r.legal_actions(s):
            r2, events = r.apply(a)
            check_invariants(r2)
            assert action_from_json(action_to_json(a)) == a


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10) | st.sampled_from(["waste", "draw", "x", ""]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
action_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["draw", "recycle", "tableau", "foundation", "undo", 3, None])},
    optional={
        "seat": json_values,
        "src": json_values,
        "dst": json_values,
        "count": json_values,
        "pile": json_values,
        "extra": json_values,
    },
)


@settings(max_examples=400, deadline=None)
@given(data=st.one_of(action_like, json_values))
def test_malformed_json_is_rejected_with_illegal_action(data):
    r = DemonRound.deal(2, 2).start()
    before = r.to_json()
    try:
        a = action_from_json(data)
    except IllegalAction as exc:
        assert str(exc)
        return
    # whatever parsed is a well-formed action; applying it either works or is refused
    assert action_from_json(action_to_json(a)) == a
    try:
        r.apply(a)
    except IllegalAction:
        assert r.to_json() == before


def test_full_seeded_playouts_thousands_of_actions():
    """Whole rounds to their end (no action cap in practice): thousands of actions."""
    total = 0
    for seed in range(4):
        last = None
        for r, _a, _e in random_playout(seed, 3, 5000):
            check_invariants(r)
            total += 1
            last = r
        assert last is not None and last.end is not None
        assert last.end.reason in ("stuck", "demon")
    assert total >= 2000
