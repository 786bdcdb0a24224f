"""Demon bots: the seat view hides what a seat may not see, decisions are reproducible
from a seed, seeded bot rounds keep every invariant to the end, and the levels behave as
docs/bots.md says (what they prefer, when they recycle, when they vote)."""

from __future__ import annotations

import dataclasses
import heapq
import json
import random

import pytest
from bot_support import check_a_seed_replays, check_levels, check_memory_json, check_think_times
from test_demon_support import check_invariants, seat, suit_pile

from app.common.cards import Card
from app.common.errors import RaceLost
from app.common.rng import SplitMix64, derive_seed
from app.demon.rules.bot import LEVELS, BotLevel, BotMemory, Decision, decide, level, think_time
from app.demon.rules.describe import describe
from app.demon.rules.round import DemonAction, DemonRound, Draw, Pile, Recycle, SeatState, ToFoundation, ToTableau
from app.demon.rules.view import PileView, SeatView, seat_view

# --------------------------------------------------------------------------- a bot table


def bot_round(seed: int, names: list[str], *, max_steps: int = 20000, check=None, on_decision=None):
    """Play one round among bots on the engine alone, in simulated time: a priority queue
    of each bot's next decision time; a foundation play wakes the bots that were idle.
    Ends by the engine (Demon!, all stuck) or when every present bot votes to end.
    Returns (final round, log of (time, seat, action or "vote"))."""
    players = len(names)
    r = DemonRound.deal(seed, players).start()
    rngs = [SplitMix64(derive_seed(seed, s, 7)) for s in range(players)]
    mems = [BotMemory() for _ in range(players)]
    lvls = [LEVELS[n] for n in names]
    queue = [(think_time(lvls[s], rngs[s]), s) for s in range(players)]
    heapq.heapify(queue)
    pending = set(range(players))
    votes: set[int] = set()
    log: list[tuple[float, int, DemonAction | str]] = []
    steps = 0
    while r.end is None and queue and steps < max_steps:
        now, s = heapq.heappop(queue)
        pending.discard(s)
        steps += 1
        d = decide(seat_view(r, s), lvls[s], mems[s], rngs[s])
        assert d.action is None or not d.vote_end  # a bot with a play is not stuck
        if on_decision is not None:
            on_decision(r, s, d)
        if d.vote_end:
            votes.add(s)
        else:
            votes.discard(s)
        if d.action is None:
            if d.vote_end:
                log.append((now, s, "vote"))
            if votes >= set(range(players)) - r.absent:
                r, _ = r.finish("vote")
            continue
        try:
            before = r.foundations
            r, _events = r.apply(d.action)
        except RaceLost:
            before = r.foundations
        log.append((now, s, d.action))
        if check is not None:
            check(r)
        heapq.heappush(queue, (now + think_time(lvls[s], rngs[s]), s))
        pending.add(s)
        if r.foundations is not before:
            for t in range(players):
                if t not in pending:
                    heapq.heappush(queue, (now + think_time(lvls[t], rngs[t]), t))
                    pending.add(t)
    return r, log


# --------------------------------------------------------------------------- the view


def _hidden_shuffled(r: DemonRound, rng: random.Random) -> DemonRound:
    """The same round with every seat's hidden cards (face-down cards and the stock) dealt
    out again in another order: same counts per pile, same visible cards."""
    seats = []
    for st in r.seats:
        hidden = [c for p in st.tableau for c in p.down] + list(st.stock)
        rng.shuffle(hidden)
        piles = []
        for p in st.tableau:
            piles.append(Pile(tuple(hidden[: len(p.down)]), p.up))
            del hidden[: len(p.down)]
        seats.append(SeatState(tuple(piles), tuple(hidden), st.waste))
    return DemonRound.from_layout(seats, r.foundations, started=r.started, absent=r.absent, end=r.end, seed=r.seed)


def _cards_in(view: SeatView) -> list:
    """Every card a view holds, with the seat whose layout shows it (None: a foundation)."""
    out: list[tuple[int | None, Card]] = []
    out += [(view.seat, c) for p in view.tableau for c in p.up] + [(view.seat, c) for c in view.waste]
    out += [(None, f.top) for f in view.foundations]
    for o in view.others:
        out += [(o.seat, c) for p in o.tableau for c in p.up] + [(o.seat, c) for c in o.waste]
    return out


def test_view_holds_counts_not_hidden_cards():
    r, _ = bot_round(11, ["hard", "medium", "easy"], max_steps=150)
    assert any(st.stock and any(p.down for p in st.tableau) for st in r.seats)  # still hidden cards
    shown = {s: {c for p in st.tableau for c in p.up} | set(st.waste[-3:]) for s, st in enumerate(r.seats)}
    for s in range(3):
        v = seat_view(r, s)
        assert all(isinstance(p, PileView) and isinstance(p.down, int) for p in v.tableau)
        assert [p.down for p in v.tableau] == [len(p.down) for p in r.seats[s].tableau]
        assert isinstance(v.stock, int) and v.stock == len(r.seats[s].stock)
        assert len(v.waste) <= 3 and v.waste == r.seats[s].waste[-3:]
        for o in v.others:
            assert isinstance(o.stock, int) and len(o.waste) <= 3
        # every card in the view is one the table shows in that seat's layout
        for owner, card in _cards_in(v):
            if owner is not None:
                assert card in shown[owner], (owner, card)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_hidden_cards_never_change_the_view_or_the_decision(seed):
    """Over a whole seeded bot round: at each position, every seat's face-down cards and
    stock order dealt again differently give an equal view and the same decision (and
    the same memory afterwards), for every level."""
    rng = random.Random(seed)
    positions = []
    bot_round(seed, ["hard", "easy", "medium"], check=positions.append)
    assert len(positions) > 30
    compared = 0
    for r in positions[::7]:
        if r.end is not None:
            continue
        other = _hidden_shuffled(r, rng)
        assert other != r or all(not st.stock and not any(p.down for p in st.tableau) for st in r.seats)
        for s in range(len(r.seats)):
            v1, v2 = seat_view(r, s), seat_view(other, s)
            assert v1 == v2
            for name, lv in LEVELS.items():
                m1, m2 = BotMemory(seen=["5H"]), BotMemory(seen=["5H"])
                k = derive_seed(seed, s, compared)
                d1 = decide(v1, lv, m1, SplitMix64(k))
                d2 = decide(v2, lv, m2, SplitMix64(k))
                assert d1 == d2 and m1 == m2, (name, s)
                compared += 1
    assert compared > 50


def test_the_view_differs_when_a_visible_card_does():
    """The comparison above can fail: a visible change shows."""
    r = DemonRound.from_layout([seat(("2C", "3D"), stock="4S 5S"), seat(("", "KS"))])
    r2 = DemonRound.from_layout([seat(("2C", "3H"), stock="4S 5S"), seat(("", "KS"))])
    assert seat_view(r, 0) != seat_view(r2, 0)
    assert seat_view(r, 1) != seat_view(r2, 1)  # seat 0's face-up card is public


def test_seat_view_rejects_a_bad_seat():
    r = DemonRound.deal(1, 2).start()
    for bad in (-1, 2, True, "0"):
        with pytest.raises(ValueError):
            seat_view(r, bad)


# --------------------------------------------------------------------------- seeded rounds


@pytest.mark.parametrize(
    "seed,names",
    [
        (1, ["hard", "easy"]),
        (2, ["medium", "hard"]),
        (3, ["easy", "medium", "hard"]),
        (4, ["hard"] * 8),
        (5, ["easy"] * 4),
    ],
)
def test_seeded_bot_rounds_play_to_the_end_keeping_invariants(seed, names):
    r, log = bot_round(seed, names, check=check_invariants)
    assert r.end is not None and r.end.reason in ("demon", "stuck", "vote")
    check_invariants(r)
    assert any(isinstance(a, ToFoundation) for _t, _s, a in log)
    if r.end.reason == "demon":
        assert r.scores()[r.end.winner] == 62
    if r.end.reason == "vote":  # every bot voted because it could do nothing useful
        assert {s for _t, s, a in log if a == "vote"} == set(range(len(names)))


def test_a_seed_replays_the_same_round():
    check_a_seed_replays(bot_round)


def test_think_time_stays_in_the_level_range_and_is_never_zero():
    check_think_times(LEVELS, think_time)
    assert LEVELS["easy"].reaction_s[0] >= 4.0 and LEVELS["easy"].reaction_s[1] <= 8.0  # slower than a beginner
    assert LEVELS["hard"].reaction_s[0] >= 0.4 and LEVELS["hard"].reaction_s[1] <= 0.8


# --------------------------------------------------------------------------- choices


def _view(*seats_, foundations=(), stuck=False, seat_=0) -> SeatView:
    r = DemonRound.from_layout(list(seats_), foundations)
    return seat_view(r, seat_, stuck=stuck)


def _decide(view, name, seed=1, memory=None):
    return decide(view, LEVELS[name], memory or BotMemory(), SplitMix64(seed))


def test_hard_turns_a_card_up_before_taking_the_waste():
    # 9H can go on TS from the waste; the run 5D on pile 2 can go on 6S and uncover a card.
    v = _view(seat(("", "TS"), ("2C 3C", "5D"), ("", "6S"), stock="AS", waste="9H"))
    picks = [_decide(v, "hard", seed).action for seed in range(100)]
    assert picks.count(ToTableau(0, 1, 2, 1)) >= 90  # the rest: the move was overlooked


def test_hard_races_for_a_card_another_seat_can_play():
    # Both 2H (ours, pile 0) and 2S (ours, pile 1) go home; seat 1 shows a 2H, nobody a 2S.
    foundations = [suit_pile("H", 1, 1), suit_pile("S", 1, 1)]
    v = _view(seat(("", "2H"), ("", "2S"), stock="KD"), seat(("", "2H"), stock="KS"), foundations=foundations)
    picks = [_decide(v, "hard", seed).action for seed in range(100)]
    assert picks.count(ToFoundation(0, 0, 0)) >= 90


def test_easy_sometimes_overlooks_and_hard_almost_never():
    v = _view(seat(("", "TS"), ("", "KD"), stock="AS 2S 3S", waste="9H"))  # 9H on TS, or draw

    def share(name):
        return sum(isinstance(_decide(v, name, seed).action, Draw) for seed in range(400)) / 400

    easy, hard = share("easy"), share("hard")
    assert 0.55 < easy < 0.85 and hard < 0.08


def test_easy_misses_a_move_between_piles_more_often_than_the_waste():
    from_pile = _view(seat(("2C", "5D"), ("", "6S"), stock="AS 2S 3S"))  # 5D onto 6S turns 2C up
    from_waste = _view(seat(("", "KC"), ("", "6S"), stock="AS 2S 3S", waste="5D"))  # 5D onto 6S

    def missed(view, name):
        return sum(isinstance(_decide(view, name, seed).action, Draw) for seed in range(400)) / 400

    assert missed(from_pile, "easy") > missed(from_waste, "easy") + 0.15
    assert missed(from_pile, "hard") < 0.08 and missed(from_waste, "hard") < 0.08


def test_pointless_moves_are_never_chosen():
    # A lone king may move to the empty pile 2: that changes nothing, so a bot draws.
    v = _view(seat(("", "KS"), ("", "2D"), (), stock="3C 4C"))
    assert ToTableau(0, 0, 2, 1) in v.legal
    for name in LEVELS:
        assert all(_decide(v, name, seed).action == Draw(0) for seed in range(30))


def test_hard_moves_part_of_a_run_to_free_a_card_for_the_foundations():
    # 3H sits under 2S; moving 2S onto 3D frees 3H for the heart pile at 2.
    v = _view(seat(("", "3H 2S"), ("", "3D"), stock="KC"), seat(("", "KS")), foundations=[suit_pile("H", 2, 1)])
    assert _decide(v, "hard").action == ToTableau(0, 0, 1, 1)
    assert _decide(v, "easy").action == Draw(0)  # easy does not look two steps ahead


def test_recycles_only_when_a_pass_can_help_then_votes():
    hard = LEVELS["hard"]
    # The first look at an empty stock: it has not seen a pass yet, so it turns the waste over.
    v = _view(seat(("", "KS"), stock="", waste="4C 5C"), seat(("", "KD")))
    assert decide(v, hard, BotMemory(), SplitMix64(1)) == Decision(Recycle(0), False)
    # A pass: 7D shows on the waste, then 5C is drawn on it; nothing fits or goes home.
    mem = BotMemory()
    a = DemonRound.from_layout([seat(("", "KS"), stock="5C", waste="7D"), seat(("", "KD"))])
    assert decide(seat_view(a, 0), hard, mem, SplitMix64(2)) == Decision(Draw(0), False)
    b = DemonRound.from_layout([seat(("", "KS"), stock="", waste="7D 5C"), seat(("", "KD"))])
    assert decide(seat_view(b, 0), hard, mem, SplitMix64(3)) == Decision(None, True)
    assert mem.seen == ["7D", "5C"]
    # Seat 1 builds diamonds up to 6: the 7D it saw go by is wanted now, so another pass helps.
    c = DemonRound.from_layout([seat(("", "KS"), stock="", waste="7D 5C"), seat(("", "KD"))], [suit_pile("D", 6, 1)])
    assert decide(seat_view(c, 0), hard, mem, SplitMix64(4)) == Decision(Recycle(0), False)
    # Had nothing changed, it would have kept its vote.
    assert decide(
        seat_view(b, 0), hard, BotMemory.from_json({**mem.to_json(), "seen": ["5C"]}), SplitMix64(5)
    ) == Decision(None, True)


def test_only_levels_that_remember_recycle_for_a_card_they_saw_go_by():
    seen_7d = {"pass_sig": None, "seen": ["7D", "5C"], "missed": False, "idle_passes": 1}
    c = DemonRound.from_layout([seat(("", "KS"), stock="", waste="7D 5C"), seat(("", "KD"))], [suit_pile("D", 6, 1)])
    v = seat_view(c, 0)
    for name, recycles in (("hard", True), ("medium", True), ("easy", False)):
        mem = BotMemory.from_json(seen_7d)
        decide(v, LEVELS[name], mem, SplitMix64(1))  # the first look starts its pass here
        mem.seen, mem.idle_passes = ["7D", "5C"], LEVELS[name].patience
        d = decide(v, LEVELS[name], mem, SplitMix64(2))
        assert d == (Decision(Recycle(0), False) if recycles else Decision(None, True)), name


def test_patience_buys_idle_passes_before_voting():
    r = DemonRound.from_layout([seat(("", "KS"), stock="", waste="4C 5C"), seat(("", "KD"))])
    patient = dataclasses.replace(LEVELS["hard"], patience=1)
    mem = BotMemory()
    answers = [decide(seat_view(r, 0), patient, mem, SplitMix64(i)) for i in range(4)]
    assert [d.action for d in answers[:2]] == [Recycle(0), Recycle(0)]
    assert answers[2] == Decision(None, True)


def test_only_a_level_that_rechecks_goes_round_again_for_a_play_it_overlooked():
    # The pass changed nothing, but a play was overlooked in it (memory.missed).
    r = DemonRound.from_layout([seat(("", "KS"), stock="", waste="4C 5C"), seat(("", "KD"))])
    v = seat_view(r, 0)
    for name, again in (("medium", True), ("hard", True), ("easy", False)):
        mem = BotMemory()
        decide(v, LEVELS[name], mem, SplitMix64(1))  # the first look starts its pass here
        mem.missed = True
        d = decide(v, LEVELS[name], mem, SplitMix64(2))
        assert d == (Decision(Recycle(0), False) if again else Decision(None, True)), name


def test_a_stuck_seat_votes_and_does_nothing():
    v = _view(seat(("", "KS"), stock="4C 5C"), seat(("", "KD")), stuck=True)
    for name in LEVELS:
        assert _decide(v, name) == Decision(None, True)
    # nothing legal at all (no stock, no waste, no move): stuck for good
    v = _view(seat(("", "KS")), seat(("", "KD")))
    assert _decide(v, "hard") == Decision(None, True)


def test_a_missed_play_is_not_a_reason_to_vote_for_a_level_that_rechecks():
    # No stock, no waste; 9D goes home. Medium, overlooking it, waits and looks again;
    # Easy, which does not know it may have missed something, gives up (a beginner's way).
    v = _view(seat(("", "9D")), seat(("", "KD")), foundations=[suit_pile("D", 8, 1)])
    medium = [_decide(v, "medium", seed) for seed in range(100)]
    assert any(d.action is None for d in medium)  # medium overlooks it now and then
    assert all(d == Decision(None, False) for d in medium if d.action is None)
    easy = [_decide(v, "easy", seed) for seed in range(100)]
    assert any(d.action is None for d in easy)
    assert all(d == Decision(None, True) for d in easy if d.action is None)


@pytest.mark.parametrize("seed", range(6))
def test_a_hard_bot_votes_only_when_exactly_stuck(seed):
    """A Hard bot's "stuck" is the engine's exact rule-16 answer, from the view alone."""

    def check(r, s, d):
        if d.vote_end:
            assert r.is_stuck(s), describe(r)

    r, _log = bot_round(seed, ["hard", "hard"], on_decision=check)
    assert r.end is not None


def test_no_decision_before_the_start_after_the_end_or_when_absent():
    r = DemonRound.deal(3, 2)
    assert _decide(seat_view(r, 0), "hard") == Decision(None, False)
    r = r.start()
    done, _ = r.finish("vote")
    assert _decide(seat_view(done, 0), "hard") == Decision(None, False)
    gone, _ = r.with_absent(1)
    assert _decide(seat_view(gone, 1), "hard") == Decision(None, False)


# --------------------------------------------------------------------------- memory, levels


def test_memory_round_trips_through_json_and_rejects_bad_input():
    mem = BotMemory(pass_sig=[24, 0, [[0, 1]] * 7], seen=["5H", "KD"], missed=True, idle_passes=1, decisions=12)
    check_memory_json(BotMemory, mem)


def test_levels_are_named_and_checked():
    check_levels(LEVELS, level, BotLevel)
