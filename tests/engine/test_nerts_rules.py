"""One or more tests per numbered Nerts rule in docs/numbered-rules.md (N1-N14, H2-H4),
plus the JSON of actions and rounds and the seat view's secrecy."""

from __future__ import annotations

import json

import pytest
from nerts_support import ALIVE, brute_force_stuck, check_invariants, seat

from app.common.cards import parse_cards, standard_deck
from app.common.errors import GameOver, IllegalAction, NotStarted, RaceLost
from app.common.rng import SplitMix64, derive_seed
from app.nerts.rules.actions import (
    Draw,
    MalformedAction,
    Recycle,
    ToFoundation,
    ToWork,
    action_from_json,
    action_to_json,
)
from app.nerts.rules.ending import Termination
from app.nerts.rules.events import Filled, Moved, NertsCalled, Played, RoundEnded, Stalled, TurnedUp
from app.nerts.rules.layout import LayoutError, NertsSeat
from app.nerts.rules.options import NertsOptions, OptionsError
from app.nerts.rules.round import NertsRound


def two(s0: NertsSeat, s1: NertsSeat = ALIVE, foundations=(), **kw) -> NertsRound:
    return NertsRound.from_layout([s0, s1], foundations, **kw)


def suit_pile(suit: str, top: int, owner: int = 1):
    return [(f"{'A23456789TJQK'[r - 1]}{suit}", owner) for r in range(1, top + 1)]


# --------------------------------------------------------------------------- the deal


def test_rule_n01_nerts_pile_of_thirteen_top_face_up():
    r = NertsRound.deal(1, 2)
    for s, st in enumerate(r.seats):
        assert len(st.nerts) == 13
        view = r.seat_view(s)
        assert view["nerts_top"] == str(st.nerts[-1]) and view["nerts_count"] == 13
        assert not {str(c) for c in st.nerts[:-1]} & set(json.dumps(view).replace('"', " ").split())


def test_rule_n02_four_work_piles_one_face_up_card_each():
    r = NertsRound.deal(1, 3)
    for s, st in enumerate(r.seats):
        assert [len(p) for p in st.work] == [1, 1, 1, 1]
        assert r.seat_view(s)["work"] == [[str(p[0])] for p in st.work]


def test_rule_n03_stock_of_35_waste_empty_deal_order_exactly_as_documented():
    for seed in (0, 1, 2**40 + 7):
        r = NertsRound.deal(seed, 2)
        for s, st in enumerate(r.seats):
            deck = standard_deck()
            SplitMix64(derive_seed(seed, s)).shuffle(deck)
            assert st.nerts == tuple(deck[:13])  # deck[12], dealt last, on top
            assert st.work == tuple((deck[13 + k],) for k in range(4))
            assert st.stock == tuple(reversed(deck[17:])) and len(st.stock) == 35
            assert st.waste == ()
            assert sorted(st.cards()) == sorted(standard_deck())
    assert NertsRound.deal(5, 2) == NertsRound.deal(5, 2)
    assert NertsRound.deal(5, 2).seats[0] != NertsRound.deal(5, 2).seats[1]


def test_rule_n03_pinned_deal_1():
    st = NertsRound.deal(1, 2).seats[0]
    assert str(st.nerts[-1]) == "QD"
    assert [str(p[0]) for p in st.work] == ["5D", "7D", "6D", "TS"]
    assert str(st.stock[-1]) == "QC"


def test_deal_checks_its_arguments():
    with pytest.raises(ValueError):
        NertsRound.deal(1, 1)
    with pytest.raises(ValueError):
        NertsRound.deal(True, 2)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- own layout


def test_rule_n04_draw_three_and_recycle_in_the_same_order_unlimited():
    r = two(seat("2C 9H", ["KC", "KS", "KH", "KD"], stock="5C 4C 3C 2S 3S"))
    r, ev = r.apply(Draw(0))
    assert r.seats[0].waste == parse_cards("3S 2S 3C") and r.seats[0].stock == parse_cards("5C 4C")
    assert ev[0].to_json()["waste"] == ["3S", "2S", "3C"]
    r, _ = r.apply(Draw(0))
    assert r.seats[0].waste == parse_cards("3S 2S 3C 4C 5C") and not r.seats[0].stock
    with pytest.raises(IllegalAction):
        r.apply(Draw(0))
    for _ in range(3):  # unlimited
        r, _ = r.apply(Recycle(0))
        assert r.seats[0].stock == parse_cards("5C 4C 3C 2S 3S")
        r, _ = r.apply(Draw(0))
        r, _ = r.apply(Draw(0))
    with pytest.raises(IllegalAction):
        two(seat("9H", ["KC"], stock="5C")).apply(Recycle(0))


def test_rule_n05_available_cards_nerts_top_waste_top_any_work_card_with_those_on_it():
    r = two(seat("JD 5S", ["7H 6S 5H", "6C", "KC", ""], waste="4C 4S"))
    acts = r.legal_actions(0)
    assert ToWork(0, "nerts", 3) in acts and ToWork(0, "waste", 3) in acts
    assert ToWork(0, 0, 3, 3) in acts and ToWork(0, 0, 3, 2) in acts and ToWork(0, 0, 3, 1) in acts
    assert all(not (isinstance(a, ToWork) and isinstance(a.src, str) and a.count != 1) for a in acts)
    with pytest.raises(MalformedAction):
        ToWork(0, "nerts", 3, 2)  # only the Nerts pile's top card is available
    with pytest.raises(MalformedAction):
        ToWork(0, "waste", 3, 2)
    with pytest.raises(IllegalAction):
        r.apply(ToWork(0, 1, 3, 2))  # the pile holds one card


def test_rule_n06_build_down_in_alternating_colours_a_run_moves_whole():
    r = two(seat("2D 9D", ["JH", "TS 9H", "TC", "KC"]))
    r2, ev = r.apply(ToWork(0, 1, 0, 2))  # a black 10 (and its 9) on a red J
    assert r2.seats[0].work[0] == parse_cards("JH TS 9H") and r2.seats[0].work[1] == ()
    assert ev[0] == Moved(0, 1, 0, parse_cards("TS 9H"))
    with pytest.raises(IllegalAction):
        r.apply(ToWork(0, 2, 1, 1))  # TC on 9H: wrong rank
    with pytest.raises(IllegalAction):
        two(seat("2D 9D", ["JS", "TC", "", "KC"])).apply(ToWork(0, 1, 0))  # same colour
    r3, _ = r.apply(ToWork(0, 1, 2, 1))  # 9H from the middle moves with what is on it
    assert r3.seats[0].work[2] == parse_cards("TC 9H")


def test_rule_n07_an_empty_work_pile_takes_any_card_or_run():
    base = seat("2D 7C", ["QH JS", "", "KC", "KD"], waste="3S 8H")
    r, _ = two(base).apply(ToWork(0, "nerts", 1))
    assert r.seats[0].work[1] == parse_cards("7C") and r.seats[0].nerts == parse_cards("2D")
    r, _ = two(base).apply(ToWork(0, "waste", 1))
    assert r.seats[0].work[1] == parse_cards("8H")
    r, _ = two(base).apply(ToWork(0, 0, 1, 2))  # a whole run, not headed by a king
    assert r.seats[0].work[1] == parse_cards("QH JS") and r.seats[0].work[0] == ()


def test_rule_n08_the_next_nerts_card_turns_up_by_itself():
    r = two(seat("4C 3D 8S", ["9H", "KC", "KD", "KS"]))
    r, ev = r.apply(ToWork(0, "nerts", 0))
    assert r.seats[0].nerts[-1] == parse_cards("3D")[0]
    assert ev == [Moved(0, "nerts", 0, parse_cards("8S")), TurnedUp(0, parse_cards("3D")[0], 2)]
    assert r.seat_view(0)["nerts_top"] == "3D"


def test_rule_n09_foundation_cards_never_leave_and_only_the_own_layout_changes():
    with pytest.raises(MalformedAction):
        action_from_json({"type": "work", "seat": 0, "src": "foundation", "dst": 0})
    r = two(seat("9H AS", ["KC", "KS", "KH", "KD"]), seat("5D 2S", ["KC", "KS", "KH", "KD"]))
    r, _ = r.apply(ToFoundation(0, "nerts"))
    r2, _ = r.apply(ToFoundation(1, "nerts"))
    assert r2.seats[0] == r.seats[0]  # seat 1's play touched only seat 1 (and the middle)
    assert [[str(c) for c, _ in p] for p in r2.foundations] == [["AS", "2S"]]
    assert all(not isinstance(a, ToWork) or isinstance(a.src, (int, str)) for a in r2.legal_actions(0))


def test_rule_n10_shared_foundations_first_come_first_served():
    s0 = seat("9H 2C", ["KD", "KH", "KS", "3C"], waste="AC")
    s1 = seat("9D 2C", ["KD", "KH", "KS", "KC"])
    r = two(s0, s1)
    r, ev = r.apply(ToFoundation(0, "waste"))  # any ace starts a pile
    assert ev[0] == Played(0, "waste", parse_cards("AC")[0], 0, True)
    winner, _ = r.apply(ToFoundation(1, "nerts", 0))  # anyone's card builds on it
    with pytest.raises(RaceLost) as lost:
        winner.apply(ToFoundation(0, "nerts", 0))
    assert lost.value.by_seat == 1 and lost.value.pile == 0
    with pytest.raises(RaceLost):
        winner.apply(ToFoundation(0, "nerts"))
    r, _ = r.apply(ToFoundation(0, "nerts", 0))
    r, ev = r.apply(ToFoundation(0, 3))  # a work pile's top card
    assert [str(c) for c, _ in r.foundations[0]] == ["AC", "2C", "3C"]
    with pytest.raises(IllegalAction):
        r.apply(ToFoundation(0, 0))  # KD wants a QD on top


# --------------------------------------------------------------------------- the end


def test_rule_n11_the_round_ends_when_a_nerts_pile_empties():
    r = two(seat("AD", ["KC", "KS", "KH", "KD"]), seat("AH 5C", ["KC", "KS", "KH", "KD"]))
    r, ev = r.apply(ToFoundation(0, "nerts"))
    assert r.end is not None and r.end.reason == Termination.NERTS and r.end.winner == 0
    assert NertsCalled(0) in ev and isinstance(ev[-1], RoundEnded)
    assert ev[-1].to_json()["reason"] == "nerts"
    with pytest.raises(GameOver):
        r.apply(Draw(1))
    assert r.legal_actions(1) == ()
    r, _ = two(seat("9H", ["TS", "KS", "KH", "KD"])).apply(ToWork(0, "nerts", 0))  # to a work pile too
    assert r.end is not None and r.end.winner == 0


def test_rule_n12_stuck_is_exact():
    kings = ["KC", "KS", "KH", "KD"]
    fnd = [suit_pile("D", 8)]
    cases = [
        # (layout, stuck?): the ace is drawn first, and draw three never shows it
        (seat("5C 9H", kings, stock="2C 3C 4C 6C 7C AS"), True),
        (seat("5C 9H", kings, stock="2C 3C 4C AS 6C 7C"), False),  # drawn third: reachable
        (seat("5C 9H", kings, stock="2C 3C 4C", waste="AS"), False),  # on the waste now
        # a work move (8S onto 9H) uncovers the 9D the foundations want
        (seat("2H 5C", ["KC", "9D 8S", "9H", "KD"]), False),
        # moving the QD onto the KC empties a pile: the Nerts top can go there
        (seat("2H 5C", ["KC", "QD", "KH", "KS"]), False),
        # a waste card reachable only after a recycle fits on a work pile
        (seat("2H 5C", ["KC", "KS", "KH", "9S"], stock="2C 8D", waste="3C 4C"), False),
        (seat("2H 5C", ["KC", "KS", "KH", "9S"], stock="2C 6D", waste="3C 4C"), True),
    ]
    for st, stuck in cases:
        r = two(st, foundations=fnd)
        assert r.is_stuck(0) is stuck, st
        assert brute_force_stuck(st, r.foundations, r.options) is stuck


def _stall_table(**kw) -> NertsRound:
    kings = ["KC", "KS", "KH", "KD"]
    a = seat("5C 9H", kings, stock="2C 3C 4C 6C 7C AS")  # the ace is out of draw three's reach
    b = seat("5D 9S", kings)  # nothing at all
    return two(a, b, started=False, **kw)


def test_rule_n13_the_stall_turns_each_waste_under_and_moves_the_top_card_down():
    r = _stall_table()
    assert r.is_stuck(0) and r.is_stuck(1)
    r, ev = r.begin()
    assert r.end is None and r.stalled
    stalled = [e for e in ev if isinstance(e, Stalled)]
    assert stalled == [Stalled((0, 1), (6, 0))] and stalled[0].to_json()["seat"] is None
    assert r.seats[0].stock == parse_cards("AS 2C 3C 4C 6C 7C")  # the top (AS) went to the bottom
    assert not r.is_stuck(0)
    r, _ = r.apply(Draw(0))
    r, _ = r.apply(Draw(0))
    r, ev = r.apply(ToFoundation(0, "waste"))
    # a foundation play since the stall: the next all-stuck stalls again (and here, with
    # nothing left to find, ends the round)
    assert [type(e).__name__ for e in ev] == ["Played", "Stalled", "RoundEnded"]
    # the waste goes under the stock, as a recycle would order it
    st = seat("5C 9H", ["KC", "KS", "KH", "KD"], stock="2H 3H", waste="4H 5H 6H")
    r = two(st, seat("5D 9S", ["KC", "KS", "KH", "KD"]), started=False)
    r, ev = r.begin()
    assert r.seats[0].stock == parse_cards("3H 6H 5H 4H 2H") and r.seats[0].waste == ()


def test_rule_n13_stuck_again_without_a_foundation_play_ends_the_round():
    dead = seat("5D 9S", ["KC", "KS", "KH", "KD"])
    r, ev = two(dead, seat("5C 9H", ["KC", "KS", "KH", "KD"], waste="2C 3C"), started=False).begin()
    assert [type(e).__name__ for e in ev] == ["Started", "Stalled", "RoundEnded"]
    assert r.end is not None and r.end.reason == Termination.STUCK and r.end.winner is None
    # absent seats neither hold the round up nor take part in the stall
    r = _stall_table()
    r, ev = r.with_absent(0)
    r2, ev = r.begin()
    assert r2.end is not None and r2.seats[0] == r.seats[0]


def test_rule_n14_scoring_plus_one_per_foundation_card_minus_two_per_nerts_card():
    fnd = [suit_pile("S", 3, 0), [("AH", 1)]]
    r = two(seat("5C 9H", ["KC"]), seat("5D", ["KC"]), foundations=fnd)
    assert r.scores() == (3 - 4, 1 - 2)
    r, ev = r.finish("vote")
    assert ev[-1].to_json()["scores"] == [-1, -1]
    r, ev = two(seat("AD", ["KC"]), seat("9D 8S", ["KC"]), foundations=fnd).apply(ToFoundation(0, "nerts"))
    assert r.scores() == (4, 1 - 4)  # no bonus for going out; negatives allowed


# --------------------------------------------------------------------------- house rules


def test_house_rule_h2_draw_one():
    opts = NertsOptions(draw=1)
    r = two(seat("5C 9H", ["KC", "KS", "KH", "KD"], stock="2C 3C 4C 6C 7C AS"), options=opts)
    assert not r.is_stuck(0)  # every card comes to the top with draw one
    r, ev = r.apply(Draw(0))
    assert r.seats[0].waste == parse_cards("AS") and ev[0].to_json()["waste"] == ["AS"]
    assert r.seat_view(0)["waste"] == ["AS"]
    with pytest.raises(OptionsError):
        NertsOptions(draw=2)


def test_house_rule_h3_racing_demon_spaces_fill_from_the_nerts_pile():
    opts = NertsOptions(racing_spaces=True)
    r = two(seat("4C 3D 8S", ["9H", "TS", "KC", "KD"]), options=opts)
    r, ev = r.apply(ToWork(0, 0, 1))  # the 9H leaves pile 0 empty: the 8S fills it
    assert r.seats[0].work[0] == parse_cards("8S") and r.seats[0].nerts == parse_cards("4C 3D")
    assert ev[1:] == [Filled(0, 0, parse_cards("8S")[0]), TurnedUp(0, parse_cards("3D")[0], 2)]
    r, ev = two(seat("7S", ["AH", "TD", "KC", "KD"]), options=opts).apply(ToFoundation(0, 0))
    assert r.end is not None and r.end.winner == 0  # the fill emptied the Nerts pile (N11)
    r, _ = two(seat("7S 5H", ["AH", "TD", "KC", "KD"])).apply(ToFoundation(0, 0))
    assert r.seats[0].work[0] == ()  # without the house rule the space stays open


def test_house_rule_h4_stall_off_ends_at_the_first_all_stuck():
    r, ev = _stall_table(options=NertsOptions(stall=False)).begin()
    assert not any(isinstance(e, Stalled) for e in ev)
    assert r.end is not None and r.end.reason == Termination.STUCK


# --------------------------------------------------------------------------- JSON, views


def test_actions_round_trip_and_malformed_actions_are_refused():
    for a in (Draw(0), Recycle(3), ToWork(1, "nerts", 2), ToWork(0, 1, 2, 3), ToFoundation(0, "waste", None)):
        assert action_from_json(json.loads(json.dumps(action_to_json(a)))) == a
    bad = [
        [],
        {"type": "fly", "seat": 0},
        {"type": "draw"},
        {"type": "draw", "seat": True},
        {"type": "draw", "seat": 0, "x": 1},
        {"type": "work", "seat": 0, "src": "nerts"},
        {"type": "work", "seat": 0, "src": 4, "dst": 0},
        {"type": "work", "seat": 0, "src": 1, "dst": 1},
        {"type": "work", "seat": 0, "src": "waste", "dst": 1, "count": 2},
        {"type": "foundation", "seat": 0, "src": 0, "pile": -1},
    ]
    for data in bad:
        with pytest.raises(MalformedAction):
            action_from_json(data)


def test_round_json_round_trips_and_refuses_damage():
    r = NertsRound.deal(3, 3, NertsOptions(draw=1, racing_spaces=True)).start()
    r, _ = r.apply(r.legal_actions(0)[0])
    assert NertsRound.from_json(json.loads(json.dumps(r.to_json()))) == r
    data = r.to_json()
    for damage in ({"seats": "x"}, {"options": {"draw": 5}}, {"end": {"reason": "x"}}, {"game": "demon"}):
        with pytest.raises(LayoutError):
            NertsRound.from_json({**data, **damage})
    dup = json.loads(json.dumps(data))
    dup["seats"][0]["stock"][0] = dup["seats"][0]["stock"][1]
    with pytest.raises(LayoutError):
        NertsRound.from_json(dup)


def test_the_seat_view_hides_face_down_cards():
    r = NertsRound.deal(9, 2).start()
    r, _ = r.apply(Draw(0))
    r, _ = r.apply(Draw(0))
    st = r.seats[0]
    before = r.seat_view(0)
    json.dumps(before)
    # swap a face-down Nerts card with a stock card, and a covered waste card with another
    nerts, stock, waste = list(st.nerts), list(st.stock), list(st.waste)
    nerts[0], stock[0] = stock[0], nerts[0]
    waste[0], stock[1] = stock[1], waste[0]
    changed = NertsSeat(tuple(nerts), st.work, tuple(stock), tuple(waste))
    r2 = NertsRound.from_layout([changed, r.seats[1]], r.foundations)
    assert r2.seats[0] != st and r2.seat_view(0) == before
    shown = set(before["waste"]) | {before["nerts_top"]} | {c for p in before["work"] for c in p}
    hidden = {str(c) for c in st.nerts[:-1] + st.stock + st.waste[:-3]}
    assert not shown & hidden


def test_nothing_before_the_signal_and_absent_seats_do_not_act():
    r = NertsRound.deal(1, 2)
    with pytest.raises(NotStarted):
        r.apply(Draw(0))
    assert r.legal_actions(0) == ()
    r = r.start()
    r, _ = r.with_absent(1)
    with pytest.raises(IllegalAction):
        r.apply(Draw(1))
    r, ev = r.with_absent(0)
    assert r.end is not None and r.end.reason == Termination.ABANDONED
    check_invariants(r)


def test_the_legal_actions_kept_between_moves_equal_a_fresh_answer():
    """`NertsRound.legal_actions` keeps each seat's answer with its layout and the
    foundations (legal.LegalMemo); it must equal a fresh one at every position, and stay
    the same tuple while neither the layout nor the answer changes (a foundation play
    elsewhere keeps the other seats' tuples, which the room's JSON is kept with)."""
    import random

    from app.nerts.rules import legal

    rng = random.Random(4)
    for seed in range(8):
        r = NertsRound.deal(seed, 4).start()
        before: dict[int, tuple] = {}
        layouts: dict[int, object] = {}
        for _ in range(300):
            if r.end is not None:
                break
            for s in range(4):
                kept = r.legal_actions(s)
                assert kept == legal.legal_actions(s, r.seats[s], r.foundations)
                if s in before and before[s] == kept and layouts[s] is r.seats[s]:
                    assert before[s] is kept
                before[s], layouts[s] = kept, r.seats[s]
            mover = rng.randrange(4)
            options = r.legal_actions(mover)
            if options:
                r, _ = r.apply(rng.choice(options))
