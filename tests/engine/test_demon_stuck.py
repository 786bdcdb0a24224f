"""Rule 16: exact stuck detection, on hand-made positions and against a brute-force search
over the whole seat state (stock order, waste, real face-down cards)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_demon_support import (
    brute_force_stuck,
    check_invariants,
    random_small_position,
    seat,
    suit_pile,
    visibly_playable,
)

from app.common.cards import parse_cards
from app.demon.rules.round import DemonRound, Draw, Pile, Recycle, SeatState, ToFoundation, ToTableau
from app.demon.rules.stuck import ids, reachable_waste_tops

ALIVE = SeatState.parse([], stock="AC")


def one(st: SeatState, foundations) -> DemonRound:
    return DemonRound.from_layout([st, ALIVE], foundations)


def agree(r: DemonRound, s: int = 0) -> bool:
    """The engine's answer, after checking it against the brute force."""
    tops = [p[-1][0] for p in r.foundations]
    fast = r.is_stuck(s)
    assert fast == brute_force_stuck(r.seats[s], tops)
    return fast


# Foundations with every ace down (aces are always playable): spades to 4, hearts to 2,
# clubs to 3 from seat 0's deck, and a complete diamond pile from seat 1's deck, so seat 0's
# own diamonds (other than its ace) can never be played. Wanted: 5S, 3H, 4C.
BASE = [suit_pile("S", 4), suit_pile("H", 2), suit_pile("D", 13, 1), suit_pile("C", 3)]


def test_only_a_rearrangement_exposes_a_playable_card():
    # 5S is buried under 4H; moving 4H onto 5C exposes it
    st = seat(("3H", "6H 5S 4H"), ("4C", "5C"))
    r = one(st, BASE)
    assert not visibly_playable(r)
    assert agree(r) is False
    # without the 5C to take the 4H, nothing can ever happen
    st = seat(("3H", "6H 5S 4H"), ("4C", "8C"))
    assert agree(one(st, BASE)) is True


def test_two_step_rearrangement_to_a_turn_up():
    # 7S (on a face-down card) needs a red 8: 8D is under 7C, which can go onto 8H
    st = seat(("3H", "7S"), ("", "9C 8D 7C"), ("4C", "8H"))
    r = one(st, BASE)
    assert not visibly_playable(r)
    assert agree(r) is False
    st = seat(("3H", "7S"), ("", "9C 8D 7C"), ("4C", "8S"))  # 7C has nowhere to go
    assert agree(one(st, BASE)) is True


def test_a_playable_card_only_after_a_recycle():
    # waste 9D 7C 5S 8H (8H on top), stock drawn QC, JD, TC: this pass shows 8H then TC;
    # after a recycle the first draw shows 5S (9D 7C 5S), which the spade pile wants
    st = seat(stock="TC JD QC", waste="9D 7C 5S 8H")
    r = one(st, BASE)
    assert not visibly_playable(r)
    assert agree(r) is False
    # 5S one place deeper is never the top of a draw: stuck for good
    st = seat(stock="TC JD QC", waste="9D 5S 7C 8H")
    assert agree(one(st, BASE)) is True
    # and playing it out: draw to the end, recycle, draw once
    r, _ = r.apply(Draw(0))
    r, _ = r.apply(Recycle(0))
    r, _ = r.apply(Draw(0))
    assert r.seats[0].waste[-1] == parse_cards("5S")[0]
    r, events = r.apply(ToFoundation(0, "waste"))
    assert events[0].card == parse_cards("5S")[0]


def test_reachable_waste_tops_follow_draw_three():
    stock = parse_cards("TC JD QC")  # QC drawn first
    waste = parse_cards("9D 7C 5S 8H")
    tops = reachable_waste_tops(ids(stock), ids(waste))
    assert tops == set(ids(parse_cards("8H TC 5S JD")))
    assert reachable_waste_tops([], []) == set()
    # nothing in the waste yet: a first draw of three shows the third card
    assert reachable_waste_tops(ids(parse_cards("2S 3S 4S 5S")), []) == set(ids(parse_cards("3S 2S")))


def test_empty_stock_and_waste_give_nothing_to_draw():
    st = seat(("3H", "8C"))
    r = one(st, BASE)
    assert agree(r) is True
    assert Draw(0) not in r.legal_actions(0)


def test_kings_and_empty_piles():
    # a king-headed run resting on a face-down card moves to an empty pile: a turn-up
    assert agree(one(seat(("3H", "KH QC")), BASE)) is False
    # ... but not when no pile is empty
    full = [("", x) for x in ("7H", "7D", "9H", "9D", "5H", "5D")]
    assert agree(one(seat(("3H", "KH QC"), *full), BASE)) is True
    # a king that can reach the waste top goes to an empty pile: a card leaves the waste
    assert agree(one(seat(stock="KS", waste="9H"), BASE)) is False
    assert agree(one(seat(*full, ("", "TH"), stock="KS", waste="QS"), BASE)) is True
    # a king-run already on an empty base only moves sideways: no progress
    assert agree(one(seat(("", "KH QC")), BASE)) is True


def test_stuck_seats_ignore_nothing_but_the_layout():
    r = one(seat(("3H", "8C")), BASE)
    assert r.stuck_seats() == {0}
    assert r.is_stuck(0) and not r.is_stuck(1)
    # a fresh copy without the memo answers the same
    assert DemonRound.from_json(r.to_json()).stuck_seats() == {0}
    # another seat's foundation play can free a stuck seat
    s1 = SeatState.parse([("", "5S")], stock="AC")
    r = DemonRound.from_layout([seat(("3H", "6S")), s1], BASE)
    assert r.stuck_seats() == {0}
    r, _ = r.apply(ToFoundation(1, 0))
    assert r.stuck_seats() == frozenset()


def test_stuck_answer_is_the_same_after_non_progress_moves():
    # a seat that is stuck stays stuck whatever it shuffles around
    st = seat(("3H", "9C 8D"), ("", "9S"), stock="5C 6D JH", waste="QH")
    r = one(st, BASE)
    assert agree(r) is True
    r2, _ = r.apply(ToTableau(0, 0, 1, 1))
    assert agree(r2) is True
    r3, _ = r.apply(Draw(0))
    assert agree(r3) is True


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**48))
def test_stuck_matches_brute_force_on_small_positions(seed):
    r = random_small_position(random.Random(seed))
    check_invariants(r, full_decks=False)
    agree(r)


def test_small_positions_cover_both_answers():
    """The generator above produces stuck and non-stuck positions alike."""
    answers = {agree(random_small_position(random.Random(i))) for i in range(60)}
    assert answers == {True, False}


def test_a_seat_with_no_cards_left_is_stuck():
    empty = SeatState(tuple(Pile() for _ in range(7)))
    r = DemonRound.from_layout([empty, ALIVE], BASE)
    assert r.is_stuck(0)
