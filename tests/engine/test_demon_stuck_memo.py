"""The rule-16 memo reuses answers across moves (only seats whose situation changed are
searched again). Its answers must always equal a fresh search."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import demon_stuck
from app.engine.demon import DemonRound, ToFoundation


def fresh_stuck(r: DemonRound) -> frozenset[int]:
    """A copy with its own empty memo: every seat searched from scratch."""
    return DemonRound.from_json(r.to_json()).stuck_seats()


def pick(r: DemonRound, seat: int, rng: random.Random):
    legal = r.legal_actions(seat)
    plays = [a for a in legal if isinstance(a, ToFoundation)]
    if plays and rng.random() < 0.7:
        return rng.choice(plays)
    return rng.choice(legal) if legal else None


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8))
def test_memoised_stuck_answers_equal_fresh_searches(seed, players):
    rng = random.Random(seed)
    r = DemonRound.deal(seed, players).start()
    for _ in range(250):
        if r.end is not None:
            break
        action = pick(r, rng.randrange(players), rng)
        if action is None:
            continue
        r, _ = r.apply(action)
        assert r.stuck_seats() == fresh_stuck(r)


def test_a_move_searches_only_seats_whose_situation_changed():
    calls = []
    real = demon_stuck.progress_witness

    def counting(*args):
        calls.append(1)
        return real(*args)

    r = DemonRound.deal(3, 8).start()
    r.stuck_seats()
    demon_stuck.progress_witness = counting
    try:
        draw = next(a for a in r.legal_actions(0) if type(a).__name__ == "Draw")
        r, _ = r.apply(draw)
        r.stuck_seats()
    finally:
        demon_stuck.progress_witness = real
    assert len(calls) == 1  # the drawing seat; the other seven kept their answers
