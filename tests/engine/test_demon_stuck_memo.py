"""The rule-16 memo reuses answers across moves (only seats whose situation changed are
searched again). Its answers must always equal a fresh search; so must the legal actions
`RoundAnalysis` keeps, which are the same tuple while another seat's move leaves them
as they were (the room keys its JSON of them by that tuple)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.demon.rules import stuck as demon_stuck
from app.demon.rules.round import WASTE, DemonRound, ToFoundation, ToTableau
from app.support import native


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


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8))
def test_kept_legal_actions_equal_fresh_ones_and_stay_the_same_tuple(seed, players):
    rng = random.Random(seed)
    r = DemonRound.deal(seed, players).start()
    for _ in range(250):
        if r.end is not None:
            break
        before = [r.legal_actions(s) for s in range(players)]
        layouts = r.seats
        action = pick(r, rng.randrange(players), rng)
        if action is None:
            continue
        r, _ = r.apply(action)
        fresh = DemonRound.from_json(r.to_json())
        for s in range(players):
            kept = r.legal_actions(s)
            assert kept == fresh.legal_actions(s)
            assert r.foundation_plays(s) == fresh.foundation_plays(s)
            if r.seats[s] is layouts[s] and kept == before[s]:
                assert kept is before[s]  # another seat moved, this answer stayed: the same tuple


def test_a_move_answers_afresh_only_the_seat_that_moved():
    # Observed through the entries themselves, not by replacing `RoundAnalysis.store`:
    # compiled (app/support/native.py), the analysis calls its own method directly and
    # a replacement would never see a call. `store` makes a new entry every time.
    r = DemonRound.deal(3, 8).start()
    r.stuck_seats()
    before = dict(r.analysis.entries)
    draw = next(a for a in r.legal_actions(0) if type(a).__name__ == "Draw")
    r, _ = r.apply(draw)
    r.stuck_seats()
    fresh = [s for s, entry in r.analysis.entries.items() if entry is not before.get(s)]
    assert len(before) == 8 and fresh == [0]  # the drawing seat; the other seven kept their answers


@pytest.mark.skipif(
    "app.demon.rules.analysis" in native.compiled_modules(),
    reason="counts calls by replacing a module function, which compiled callers never see "
    "(app/support/native.py); runs in the pure Python variant",
)
def test_a_progress_move_in_view_spares_the_search():
    """Waste 5D onto 6S is a move right now: no search is needed to know the seat is not
    stuck, and the answer holds whatever the foundations accept."""
    r = DemonRound.from_layout(
        [
            {"tableau": [{"up": ["6S"]}] + [{"up": []}] * 6, "stock": ["2C"], "waste": ["5D"]},
            {"tableau": [{"up": []}] * 7},
        ]
    )
    calls = []
    real = demon_stuck.waste_witness  # where every search starts
    demon_stuck.waste_witness = lambda *args: calls.append(1) or real(*args)
    try:
        assert not r.is_stuck(0)
    finally:
        demon_stuck.waste_witness = real
    assert calls == []
    assert r.analysis.entries[0][2] == demon_stuck.ANY_FOUNDATIONS


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8))
def test_progress_in_view_is_progress_the_search_finds(seed, players):
    """Whenever a seat's layout moves show progress, the full search finds progress too."""
    rng = random.Random(seed)
    r = DemonRound.deal(seed, players).start()
    seen = 0
    for _ in range(200):
        if r.end is not None:
            break
        for s in range(players):
            wants = r.foundation_wants()
            witness = demon_stuck.visible_progress(r.seats[s], wants)
            if witness is not None:
                seen += 1
                layout = r.seats[s]
                piles = demon_stuck.encode_piles(layout.tableau)
                stock, waste = demon_stuck.ids(layout.stock), demon_stuck.ids(layout.waste)
                assert demon_stuck.progress_witness(piles, stock, waste, wants) is not None
                if witness != demon_stuck.ANY_FOUNDATIONS:
                    assert witness in wants
        action = pick(r, rng.randrange(players), rng)
        if action is not None:
            r, _ = r.apply(action)
    assert seen


def progress_in_legal_actions(r: DemonRound, seat: int, wants: frozenset[int]) -> int | None:
    """What `demon_stuck.visible_progress` must answer, read off the seat's legal actions."""
    layout = r.seats[seat]
    for a in r.legal_actions(seat):
        if isinstance(a, ToTableau):
            if a.src == WASTE:
                return demon_stuck.ANY_FOUNDATIONS
            assert isinstance(a.src, int)
            pile = layout.tableau[a.src]
            if pile.down and a.count == len(pile.up):
                return demon_stuck.ANY_FOUNDATIONS
    tops = ([layout.waste[-1]] if layout.waste else []) + [p.up[-1] for p in layout.tableau if p.up]
    return next((demon_stuck.card_id(c) for c in tops if demon_stuck.card_id(c) in wants), None)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 8))
def test_progress_in_view_is_read_off_the_layout_as_the_legal_actions_show_it(seed, players):
    """The shortcut reads the layout itself; it must see exactly the progress moves the
    legal actions contain."""
    rng = random.Random(seed)
    r = DemonRound.deal(seed, players).start()
    kinds = set()
    for _ in range(300):
        if r.end is not None:
            break
        wants = r.foundation_wants()
        for s in range(players):
            expected = progress_in_legal_actions(r, s, wants)
            assert demon_stuck.visible_progress(r.seats[s], wants) == expected
            kinds.add(expected == demon_stuck.ANY_FOUNDATIONS)
        action = pick(r, rng.randrange(players), rng)
        if action is not None:
            r, _ = r.apply(action)
    assert True in kinds


def test_a_seat_drawing_through_its_stock_searches_its_tableau_once():
    """Draws change only the stock and the waste: the tableau half of the search keeps its
    answer (same tableau, same foundations, same cards the waste can show)."""
    r = DemonRound.from_layout(
        [
            {"tableau": [{"up": ["KS"]}] + [{"up": []}] * 6, "stock": "2D 9H 5H 7C 8C 4S"},
            {"tableau": [{"up": ["AS"]}] + [{"up": []}] * 6},
        ]
    )  # not stuck: play goes on
    # Observed through the analysis's kept searches, not by replacing
    # `demon_stuck.tableau_witness` (a compiled caller would not see the replacement): a
    # tableau search runs only for a key missing from its tableau's entry, so one entry,
    # kept through every draw, with one answer, is one search.
    answers, entries = [], []
    for _ in range(5):
        answers.append(r.is_stuck(0))
        entries.append(r.analysis.searches[0])
        draw = next(a for a in r.legal_actions(0) if type(a).__name__ in ("Draw", "Recycle"))
        r, _ = r.apply(draw)
    assert answers == [True] * 5
    assert all(entry is entries[0] for entry in entries) and len(entries[0][2]) == 1
    assert r.is_stuck(0) == DemonRound.from_json(r.to_json()).is_stuck(0)
