"""The numbers that explain the end of a Devil's Grip deal (app/grip/rules/explain.py)."""

from __future__ import annotations

import random

import pytest

from app.grip.rules import EndDeal, GripState
from app.grip.rules.explain import explain_end

KINGS = ["KH"] * 23


def showable_by_playing(stock: list[str], talon: list[str], passes_left: int) -> set[str]:
    """Every card seen on the talon's top by dealing threes and redealing, played out
    (distinct cards, so a card's name is the card)."""
    stock, talon = list(stock), list(talon)
    seen = {talon[-1]} if talon else set()
    for _ in range(passes_left + 1):
        while stock:
            for _ in range(min(3, len(stock))):
                talon.append(stock.pop())
            seen.add(talon[-1])
        if passes_left == 0:
            break
        passes_left -= 1
        stock, talon = list(reversed(talon)), []
    return seen


def test_not_over_has_no_explanation():
    assert explain_end(GripState.deal(7)) is None


def test_stuck_by_rule_counts_the_cards_the_talon_can_still_show():
    stock = ["9D", "8D", "7D", "6D", "5D", "4D", "3D"]  # 3D on top; none goes on 2S
    s = GripState.from_layout(["2S"] + KINGS, stock, [], passes=1)
    assert s.is_over()
    why = explain_end(s)
    assert why == {
        "by": "rule",
        "open_piles": 1,
        "whole_moves": 0,
        "showable": 3,
        "showable_fit": 0,
        "stock": 7,
        "talon": 0,
        "redeal": False,
    }


@pytest.mark.parametrize("seed", range(40))
def test_showable_matches_playing_the_talon_out(seed):
    rng = random.Random(seed)
    pool = [f"{r}{s}" for s in "HDC" for r in "23456789TJQK"]
    rng.shuffle(pool)
    n_stock, n_talon = rng.randrange(0, 15), rng.randrange(0, 8)
    if n_stock + n_talon == 0:
        n_stock = 1
    stock, talon = pool[:n_stock], pool[n_stock : n_stock + n_talon]
    passes = rng.choice([1, 3, None])
    s = GripState.from_layout(["KS"] * 24, stock, talon, passes=passes, passes_used=1)
    why = explain_end(s)
    assert why["by"] == "rule" and why["open_piles"] == 0
    expected = showable_by_playing(stock, talon, 0 if passes == 1 else 1)
    assert why["showable"] == len(expected)


def test_ended_by_the_player_says_what_was_still_possible():
    s = GripState.from_layout(["2S", "5S"] + ["KH"] * 22, ["8S", "9D", "7D"], [], passes=1)
    assert not s.is_over()
    ended, _ = s.apply(EndDeal())
    why = explain_end(ended)
    # 2S (whole) onto... nothing; 5S (whole) onto 2S: one whole move; 8S shows and fits 5S
    assert why["by"] == "player"
    assert why["whole_moves"] == 1
    assert why["showable_fit"] == 1


@pytest.mark.parametrize("number", [1, 2, 3, 7, 11])
def test_a_deal_played_to_its_end_by_rule_is_explained_as_such(number):
    s = GripState.deal(number, passes=3)
    while not s.is_over():
        s, _ = s.apply(s.hint())
    why = explain_end(s)
    assert why["by"] in ("rule", "won")
    assert why["whole_moves"] == 0 and why["showable_fit"] == 0
    assert why["stock"] + why["talon"] == s.score()
