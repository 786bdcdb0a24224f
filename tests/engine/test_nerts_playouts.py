"""Seeded random Nerts playouts with invariants checked after every action, and fuzzing
of actions and states with random JSON (the style of test_demon_playouts.py)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nerts_support import brute_force_stuck, check_invariants, random_playout

from app.common.cards import Card, standard_deck
from app.common.errors import EngineError, IllegalAction
from app.nerts.rules.actions import MalformedAction, ToFoundation, action_from_json, action_to_json
from app.nerts.rules.ending import Termination
from app.nerts.rules.events import Drew, NertsCalled, Stalled
from app.nerts.rules.layout import NertsSeat
from app.nerts.rules.options import NertsOptions
from app.nerts.rules.round import NertsRound
from app.nerts.rules.stuck import foundation_wants, is_stuck

PLAYOUT = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

OPTIONS = st.builds(NertsOptions, draw=st.sampled_from([1, 3]), racing_spaces=st.booleans(), stall=st.booleans())


def check_stuck_exactly(r: NertsRound) -> None:
    """The engine's N12 answer agrees with the brute-force search, seat by seat."""
    for s, seat_state in enumerate(r.seats):
        brute = brute_force_stuck(seat_state, r.foundations, r.options)
        if brute is not None:
            assert r.is_stuck(s) is brute, (s, seat_state)


@PLAYOUT
@given(seed=st.integers(0, 2**40), players=st.integers(2, 4), options=OPTIONS)
def test_random_playouts_keep_every_invariant(seed, players, options):
    r = NertsRound.deal(seed, players, options).start()
    check_invariants(r)
    for n, (prev, r, action, events) in enumerate(random_playout(seed, players, 600, options), start=1):
        check_invariants(r)
        assert events, "every action reports what happened"
        for e in events:
            assert "seat" in e.to_json()
            json.dumps(e.to_json())
            if isinstance(e, Drew):  # a draw names only what the waste now shows
                assert e.visible == r.seats[e.seat].waste[-options.draw :]
        stalled = any(isinstance(e, Stalled) for e in events)
        # only the acting seat's layout changes, except the wastes and stocks a stall turns
        for s in range(players):
            if s != action.seat:
                if stalled:
                    assert r.seats[s].nerts == prev.seats[s].nerts and r.seats[s].work == prev.seats[s].work
                    assert sorted(r.seats[s].stock) == sorted(prev.seats[s].stock + prev.seats[s].waste)
                else:
                    assert r.seats[s] == prev.seats[s]
        if not isinstance(action, ToFoundation):
            assert r.foundations == prev.foundations
        # the round ends exactly when N11 or N13 says
        if r.end is None:
            assert all(st_.nerts for st_ in r.seats)
            assert r.stuck_seats() != frozenset(range(players))
        elif r.end.reason == Termination.NERTS:
            assert r.end.winner == action.seat and not r.seats[action.seat].nerts
            assert NertsCalled(action.seat) in events
        else:
            assert r.end.reason == Termination.STUCK
            assert r.stuck_seats() == frozenset(range(players))
            assert stalled or not options.stall or prev.stalled
        for s in r.stuck_seats():  # a stuck seat has no progress reachable, at every step
            assert brute_force_stuck(r.seats[s], r.foundations, r.options) is not False
        if n % 20 == 0 or r.end is not None:
            check_stuck_exactly(r)
            assert NertsRound.from_json(json.loads(json.dumps(r.to_json()))) == r


@FUZZ
@given(
    data=st.dictionaries(
        st.sampled_from(["type", "seat", "src", "dst", "count", "pile", "x"]),
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-2, 6),
            st.sampled_from(["draw", "recycle", "work", "foundation", "nerts", "waste", "1"]),
        ),
    )
)
def test_fuzzed_action_json_parses_or_is_refused_clearly(data):
    try:
        a = action_from_json(data)
    except MalformedAction as exc:
        assert str(exc)
        return
    assert action_from_json(action_to_json(a)) == a
    r = NertsRound.deal(4, 2).start()
    try:
        r.apply(a)
    except IllegalAction as exc:
        assert str(exc)


@FUZZ
@given(
    key=st.sampled_from(["seats", "foundations", "end", "absent", "seed", "options", "stalled", "players"]),
    value=st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=3), st.lists(st.integers(), max_size=2)),
)
def test_fuzzed_state_json_loads_or_is_refused_clearly(key, value):
    data = NertsRound.deal(2, 2).start().to_json()
    data[key] = value
    try:
        NertsRound.from_json(data)
    except EngineError as exc:
        assert str(exc)


def _random_layout(rng_seed: int, draw: int):
    """A small random position: a few Nerts cards, work piles built as runs (some
    empty), a short stock and waste, and foundations of random heights."""
    rng = random.Random(rng_seed)
    deck = standard_deck()
    rng.shuffle(deck)
    heights = {s: rng.choice([0, 0, 1, 2, 4, 6]) for s in "SHDC"}
    # most cards the foundations want are left out, so that stuck positions are common
    pool = [c for c in deck if c.rank > heights[c.suit] + (c.rank == heights[c.suit] + 1 and rng.random() < 0.85)]
    nerts = tuple(pool.pop() for _ in range(rng.randint(1, 3)))
    work = []
    for _ in range(4):
        pile: list[Card] = []
        for _ in range(rng.choice([0, 1, 1, 2, 3])):
            fit = [c for c in pool if not pile or (c.rank == pile[-1].rank - 1 and c.is_red != pile[-1].is_red)]
            if fit:
                pile.append(fit[0])
                pool.remove(fit[0])
        work.append(tuple(pile))
    stock = tuple(pool.pop() for _ in range(rng.randint(0, 9)))
    waste = tuple(pool.pop() for _ in range(rng.randint(0, 4)))
    foundations = tuple(tuple((Card(r, s), 1) for r in range(1, h + 1)) for s, h in heights.items() if h)
    return NertsSeat(nerts, tuple(work), stock, waste), foundations, NertsOptions(draw=draw)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), draw=st.sampled_from([1, 3]))
def test_stuck_search_agrees_with_brute_force_on_random_positions(seed, draw):
    layout, foundations, options = _random_layout(seed, draw)
    brute = brute_force_stuck(layout, foundations, options)
    wants = foundation_wants(p[-1][0] for p in foundations)
    assert brute is None or is_stuck(layout, wants, draw) is brute


def test_legal_actions_name_every_foundation_pile_that_takes_the_card():
    """N10: with two heart piles topped by an ace, 2H may go on either; both plays are
    legal (`apply` takes either), so both are listed, as in Demon."""
    s0 = NertsSeat.parse(nerts="KS", work=["KH", "KD", "KC", "QH"], waste="2H")
    s1 = NertsSeat.parse(nerts="5H AC", work=["KS", "KH", "KC", "KD"])
    r = NertsRound.from_layout([s0, s1], [[("AH", 0)], [("AS", 1)], [("AH", 1)]])
    plays = {a.pile for a in r.legal_actions(0) if isinstance(a, ToFoundation)}
    assert plays == {0, 2}
    for pile in plays:
        r.apply(ToFoundation(0, "waste", pile))
