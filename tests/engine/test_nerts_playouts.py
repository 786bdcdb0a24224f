"""Seeded random Nerts rounds at 2-8 seats under every house rule, with the invariants
checked after every action; N12 against a brute-force search on small positions (stalls
included); and fuzzing of actions and states.

How the playouts are checked, and why it is complete though it is cheap enough for
thousands of rounds: rounds are immutable values, so a seat layout or a foundation pile
that an action did not touch is the very same value as before, already checked. After
each step the test asserts exactly which seats and which foundation pile changed (only
the acting seat, one card of it on one pile; every present seat in a stall, as N13 says),
checks those in full (52 cards each, runs, the seat view against the full state), and
checks every event against the position it reports. At every round's end, and every 200
steps, everything is checked again from scratch.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nerts_support import (
    HOUSE_RULES,
    brute_force_stuck,
    card_names,
    check_invariants,
    check_seat_cards,
    check_seat_view,
    expected_seat_view,
    face_up,
    house_rule_id,
    owned_foundation_cards,
    random_action,
    small_round,
)

from app.common.cards import Card
from app.common.errors import EngineError, IllegalAction
from app.nerts.rules.actions import (
    Draw,
    MalformedAction,
    NertsAction,
    Recycle,
    Source,
    ToFoundation,
    ToWork,
    action_from_json,
    action_to_json,
)
from app.nerts.rules.ending import Termination
from app.nerts.rules.events import Drew, NertsCalled, NertsEvent, RoundEnded, Stalled
from app.nerts.rules.layout import NertsSeat
from app.nerts.rules.round import NertsRound

# Rounds per house rule: 8 x 250 = 2,000 random rounds, each played to its end, per run.
ROUNDS_PER_HOUSE_RULE = 250
# Far above any round seen (a few hundred actions at 8 seats); a round that reaches it
# does not end, which is a failure.
MAX_STEPS = 6000
ABSENCE_RATE = 1 / 400  # a seat leaves (or comes back) now and then, as at a real table
FULL_CHECK_EVERY = 200

# Small rounds per house rule whose every position is checked against brute force.
SMALL_ROUNDS_PER_HOUSE_RULE = 50
SMALL_STEPS = 40

PLAYOUTS = settings(max_examples=ROUNDS_PER_HOUSE_RULE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SMALL = settings(max_examples=SMALL_ROUNDS_PER_HOUSE_RULE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Step = Callable[[NertsRound], tuple[NertsRound, list[NertsEvent]]]


def without_stall(prev: NertsRound, step: Step) -> NertsRound:
    """The position a step reached before any stall: the same step on the same round with
    the stall off (H4), which ends the round where the stall would have been played."""
    return step(replace(prev, options=replace(prev.options, stall=False)))[0]


def stalled_seat(st: NertsSeat) -> NertsSeat:
    """N13 for one seat, spelt out: the waste under the stock in a recycle's order, then
    the stock's top card (the last) to its bottom (the first)."""
    stock = tuple(reversed(st.waste)) + st.stock
    return NertsSeat(st.nerts, st.work, stock[-1:] + stock[:-1], ())


class Playout:
    """One round's checks, step by step. `own[s]` are seat s's cards on the foundations,
    kept from the checked foundation changes (and compared with a full scan at times)."""

    def __init__(self, r: NertsRound, events: list[NertsEvent]) -> None:
        self.own: list[list[Card]] = [[] for _ in r.seats]
        self.dealt_seats = r.seats  # keeps the dealt Card objects alive, so their ids stay theirs
        self.dealt = [frozenset(map(id, st_.cards())) for st_ in r.seats]
        self.own_names: list[set[str]] = [set() for _ in r.seats]
        self.steps = 0
        self.end: Termination | None = None
        for e in events:  # the signal, and any stall or end that followed it at once
            assert card_names(e.to_json()) == set(), e
        if r.end is not None:  # everyone was stuck from the start
            self.check_end(r, None, events)
        else:
            self.full_check(r)

    def full_check(self, r: NertsRound) -> None:
        """Everything from scratch: every seat's 52 cards, every foundation pile, every
        seat view against the full state, the kept foundation cards, and no missed end
        (N11, N13)."""
        check_invariants(r)
        assert [sorted(c) for c in owned_foundation_cards(r)] == [sorted(c) for c in self.own]
        for s in range(r.players):
            check_seat_view(r, s)
        if r.end is None:
            assert all(st_.nerts for st_ in r.seats)
            assert r.stuck_seats() | r.absent != frozenset(range(r.players))

    def step(self, prev: NertsRound, step: Step, seat: int, action: NertsAction | None) -> NertsRound:
        """Play one step (an action of `seat`, or `seat` leaving or coming back) and check it."""
        r, events = step(prev)
        self.steps += 1
        stalls = [e for e in events if isinstance(e, Stalled)]
        pre = without_stall(prev, step) if stalls else r
        self.check_foundations(prev, pre, action)
        assert r.foundations == pre.foundations
        if action is None:
            assert pre.seats == prev.seats
        else:  # only the acting seat's layout changed (tuples compare unchanged seats by identity first)
            assert pre.seats[:seat] == prev.seats[:seat] and pre.seats[seat + 1 :] == prev.seats[seat + 1 :]
            check_seat_cards(pre.seats[seat], self.own[seat], self.dealt[seat], prev.seats[seat].work)
        if stalls:
            self.check_events(pre, seat, events, face_up(pre.seats[seat], r.options))
            self.check_stall(pre, r, stalls)
            for s in range(r.players):
                check_seat_view(r, s)
        else:  # the seat's view, and its face-up cards (the view's) for its events
            view = expected_seat_view(r, seat, len(self.own[seat]))
            assert r.seat_view(seat) == view, (seat, view)
            self.check_events(r, seat, events, view)
        if stalls or r.end is not None or self.steps % 10 == 0:
            for e in events:
                json.dumps(e.to_json())
        if r.end is not None:
            self.check_end(r, seat if action is not None else None, events)
        elif self.steps % FULL_CHECK_EVERY == 0:
            self.full_check(r)
        return r

    def check_foundations(self, prev: NertsRound, pre: NertsRound, action: NertsAction | None) -> None:
        """Only a foundation play changes them: one card of the acting seat, on top of one
        pile one rank up in its suit, or an ace starting a new pile (N10)."""
        old, new = prev.foundations, pre.foundations
        if not isinstance(action, ToFoundation):
            assert new == old
            return
        if len(new) == len(old) + 1:
            assert new[:-1] == old and len(new[-1]) == 1
            card, owner = new[-1][0]
            assert card.rank == 1
        else:
            changed = [i for i in range(len(old)) if new[i] != old[i]]
            assert len(new) == len(old) and len(changed) == 1
            i = changed[0]
            assert new[i][:-1] == old[i]
            card, owner = new[i][-1]
            below = old[i][-1][0]
            assert card.suit == below.suit and card.rank == below.rank + 1
        assert owner == action.seat
        self.own[owner].append(card)
        self.own_names[owner].add(str(card))

    def check_stall(self, pre: NertsRound, r: NertsRound, stalls: list[Stalled]) -> None:
        """N13: the stall came because every present seat was stuck, with the stall on and
        no stall since the last foundation play; it turned each present seat's waste
        under its stock and the stock's top card to the bottom, and changed nothing else."""
        assert len(stalls) == 1 and r.options.stall and not pre.stalled
        assert pre.end is not None and pre.end.reason == Termination.STUCK  # everyone was stuck
        present = tuple(s for s in range(r.players) if s not in r.absent)
        assert stalls[0].seats == present
        assert stalls[0].stock_counts == tuple(len(r.seats[s].stock) for s in present)
        for s in range(r.players):
            if s in present:
                assert r.seats[s] == stalled_seat(pre.seats[s])
                check_seat_cards(r.seats[s], self.own[s], self.dealt[s])
            else:
                assert r.seats[s] == pre.seats[s]
        assert r.stalled

    def check_events(self, pre: NertsRound, seat: int, events: list[NertsEvent], shown: set[str] | dict) -> None:
        """Every event's JSON has a seat key; a round-level one names no card; the others
        are the step's seat's and name only cards face up in its layout (`shown`: those
        cards, or its expected seat view) or on the foundations, at the moment they
        report, before any stall turned the wastes over. (That each is JSON is checked
        at every tenth step, stall and end.)"""
        assert events, "every step reports what happened"
        for e in events:
            j = e.to_json()
            names = card_names(j, dump=False)
            if j["seat"] is None:
                assert not names, j
                continue
            assert j["seat"] == seat, j
            for n in names - self.own_names[seat]:
                if isinstance(shown, set):
                    assert n in shown, (j, pre.seats[seat])
                else:
                    assert n == shown["nerts_top"] or n in shown["waste"] or any(n in p for p in shown["work"]), j
            if isinstance(e, Drew):
                assert e.visible == pre.seats[seat].waste[-pre.options.draw :]

    def check_end(self, r: NertsRound, actor: int | None, events: list[NertsEvent]) -> None:
        """N11, N13, H4, and the scores of N14 counted here from the kept foundation cards
        and the Nerts piles."""
        assert r.end is not None
        self.full_check(r)
        self.end = r.end.reason
        scores = tuple(len(self.own[s]) - 2 * len(r.seats[s].nerts) for s in range(r.players))
        assert r.scores() == scores
        ended = [e for e in events if isinstance(e, RoundEnded)]
        assert len(ended) == 1 and ended[0] == RoundEnded(r.end.reason, r.end.winner, scores)
        if self.end == Termination.NERTS:
            assert actor is not None and r.end.winner == actor and not r.seats[actor].nerts
            assert NertsCalled(actor) in events
        elif self.end == Termination.STUCK:
            assert r.end.winner is None
            assert r.stuck_seats() | r.absent == frozenset(range(r.players))
            assert r.stalled or not r.options.stall  # H4 off, or stuck again after a stall
        else:
            assert self.end == Termination.ABANDONED and r.absent == frozenset(range(r.players))
        assert NertsRound.from_json(json.loads(json.dumps(r.to_json()))) == r


def play_round(seed: int, players: int, options) -> Playout:
    """Deal, start and play random legal actions of random present seats to the end."""
    rng = random.Random(seed)
    r, events = NertsRound.deal(seed, players, options).begin()
    p = Playout(r, events)
    while r.end is None:
        assert p.steps < MAX_STEPS, f"round {seed} at {players} seats did not end"
        if rng.random() < ABSENCE_RATE:
            s = rng.randrange(players)
            away = s not in r.absent
            r = p.step(r, lambda q: q.with_absent(s, away), s, None)
            continue
        s = rng.choice([s for s in range(players) if s not in r.absent])
        a = random_action(r, rng, s)
        if a is None:
            continue
        r = p.step(r, lambda q: q.apply(a), s, a)
    return p


@pytest.mark.slow  # 250 rounds each: 5-18 s on the loaded 2-core machine, about 55 s for the eight
@pytest.mark.parametrize("options", HOUSE_RULES, ids=house_rule_id)
def test_random_playouts_keep_every_invariant(options):
    """Random rounds at 2-8 seats under one house-rule combination, each to its end."""
    ended: dict[tuple[int, int], Termination] = {}  # (seed, seats): why the round ended

    @PLAYOUTS
    @given(seed=st.integers(0, 2**40), players=st.integers(2, 8))
    def one_round(seed, players):
        p = play_round(seed, players, options)
        assert p.end is not None
        ended[seed, players] = p.end

    one_round()
    print(f"{house_rule_id(options)}: {len(ended)} rounds ended", Counter(ended.values()))
    assert len(ended) >= ROUNDS_PER_HOUSE_RULE  # distinct rounds, each played to its end
    assert Termination.NERTS in ended.values()


# --------------------------------------------------------------------------- N12 and N13 against brute force


def small_round_checked_against_brute_force(seed: int, players: int, options, seen: Counter[str]) -> None:
    """A small random round (`small_round`), started and played by random steps; at every
    position every seat's N12 answer must be the brute-force search's, and the stall and
    the end (N13, H4) must follow from the brute-force answers of the position the step
    reached before any stall."""
    rng = random.Random(seed)
    prev = small_round(rng, players, options)
    step: Step = NertsRound.begin
    for _ in range(SMALL_STEPS):
        r, events = step(prev)
        pre = without_stall(prev, step)
        stalls = [e for e in events if isinstance(e, Stalled)]
        present = [s for s in range(players) if s not in pre.absent]
        if pre.end is not None and pre.end.reason != Termination.STUCK:  # "Nerts!", or nobody left
            assert not stalls and r.end == pre.end
        else:
            before = [brute_force_stuck(pre.seats[s], pre.foundations, options) for s in present]
            assert None not in before, "a small position is searched exhaustively"
            if not all(before):
                assert not stalls and r.end is None
            elif options.stall and not pre.stalled:
                assert len(stalls) == 1 and stalls[0].seats == tuple(present)
                assert [r.seats[s] for s in present] == [stalled_seat(pre.seats[s]) for s in present]
                seen["stall"] += 1
                seen["play goes on after a stall"] += r.end is None
            else:
                assert not stalls and r.end is not None and r.end.reason == Termination.STUCK
        brute = [brute_force_stuck(st_, r.foundations, options) for st_ in r.seats]
        assert None not in brute, "a small position is searched exhaustively"
        assert [r.is_stuck(s) for s in range(players)] == brute, (seed, players, r.to_json())
        seen["positions"] += 1
        if r.end is not None:
            if r.end.reason == Termination.STUCK:
                assert all(brute[s] for s in range(players) if s not in r.absent)
                seen["stuck end after a stall" if stalls or r.stalled else "stuck end"] += 1
            return
        prev = r
        step = random_step(r, rng)


def random_step(r: NertsRound, rng: random.Random) -> Step:
    """A random legal action of a random seat; now and then, or when that seat is away
    or has nothing to do, the seat leaves or comes back instead."""
    s = rng.randrange(r.players)
    a = None if s in r.absent or rng.random() < 0.05 else random_action(r, rng, s)
    if a is None:
        return partial(NertsRound.with_absent, seat=s, absent=s not in r.absent)
    return partial(NertsRound.apply, action=a)


@pytest.mark.parametrize("options", HOUSE_RULES, ids=house_rule_id)
def test_stuck_search_agrees_with_brute_force_on_random_positions(options):
    """N12 exactly, and N13's stall and end, on small positions of 2-8 seats."""
    seen: Counter[str] = Counter()

    @SMALL
    @given(seed=st.integers(0, 2**40), players=st.integers(2, 8))
    def one_round(seed, players):
        small_round_checked_against_brute_force(seed, players, options, seen)

    one_round()
    print(house_rule_id(options), dict(seen))
    assert seen["positions"] >= SMALL_ROUNDS_PER_HOUSE_RULE
    if options.stall:
        assert seen["stall"] and seen["stuck end after a stall"]
    else:
        assert seen["stuck end"] and not seen["stall"]


# --------------------------------------------------------------------------- fuzzing


SOURCES: tuple[Source, ...] = ("nerts", "waste", 0, 1, 2, 3)


def _any_action(rng: random.Random, players: int) -> NertsAction:
    """A well-formed action, legal or (mostly) not, sometimes of a seat that is not there."""
    seat = rng.randrange(players + 1)
    src: Source = rng.choice(SOURCES)
    kind = rng.randrange(4)
    if kind == 0:
        return Draw(seat)
    if kind == 1:
        return Recycle(seat)
    if kind == 2:
        dst = rng.choice([d for d in range(4) if d != src])
        return ToWork(seat, src, dst, 1 if isinstance(src, str) else rng.randint(1, 4))
    return ToFoundation(seat, src, rng.choice([None, 0, 1, 2, 3, 4, 7]))


def _listed(r: NertsRound, a: NertsAction) -> bool:
    """Whether `legal_actions` allows `a` (it names foundation piles, an ace's as a new one)."""
    legal = r.legal_actions(a.seat)
    if not isinstance(a, ToFoundation):
        return a in legal
    mine = [x for x in legal if isinstance(x, ToFoundation) and x.src == a.src]
    return any(a.pile is None or x.pile == a.pile or x.pile == len(r.foundations) for x in mine)


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


@FUZZ
@given(seed=st.integers(0, 2**40), players=st.integers(2, 8), options=st.sampled_from(HOUSE_RULES))
def test_random_actions_are_accepted_exactly_when_legal(seed, players, options):
    """`apply` takes exactly what `legal_actions` lists; a refusal says why and changes
    nothing (rounds are values: the one refused is compared with its JSON before)."""
    rng = random.Random(seed)
    r = NertsRound.deal(seed, players, options).start()
    for _ in range(100):
        if r.end is not None:
            break
        a = _any_action(rng, players) if rng.random() < 0.7 else random_action(r, rng, rng.randrange(players))
        if a is None:
            continue
        if a.seat >= players:
            with pytest.raises(IllegalAction):
                r.apply(a)
            continue
        before = r.to_json()
        try:
            r2, events = r.apply(a)
        except IllegalAction as exc:
            assert str(exc) and not _listed(r, a), a
            assert r.to_json() == before
            continue
        assert _listed(r, a) and events, a
        check_invariants(r2)
        r = r2


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
