"""Devil's Grip: one test per numbered rule of docs/numbered-rules.md (Devil's Grip), plus the
pinned deal 1 and the pass-limit options."""

from __future__ import annotations

from collections import Counter

import pytest

from app.common.cards import Card, parse_cards
from app.common.errors import GameOver, IllegalAction
from app.grip.rules import (
    DealThree,
    EndDeal,
    GridToGrid,
    GripGame,
    GripState,
    Redeal,
    Swap,
    TalonToGrid,
    fits,
    grip_deck,
    rating,
)

# Filler piles for small positions: a complete chain accepts nothing, and a chain's bottom
# 2/3/4 never goes on anything, so these cells never interact with the cards under test.
FILLER = ["2S 5S 8S JS", "3S 6S 9S QS", "4S 7S TS KS", "2H 5H 8H JH", "3H 6H 9H QH", "4H 7H TH KH"]


def layout(piles: dict[int, str], stock: str = "", talon: str = "", passes=None, passes_used=1) -> GripState:
    """Cells given in `piles`; every other cell gets a filler chain (used at most twice)."""
    grid = []
    fill = iter(FILLER * 4)
    for i in range(24):
        grid.append(piles[i] if i in piles else next(fill))
    return GripState.from_layout(grid, parse_cards(stock)[::-1], parse_cards(talon), passes, passes_used)


def wire(events) -> list[dict]:
    """The events as the wire carries them."""
    return [e.to_json() for e in events]


def cards(s: str) -> tuple[Card, ...]:
    return parse_cards(s)


# --------------------------------------------------------------------------- pinned deal


DEAL_1_GRID = [
    "JH",
    "3D",
    "KH",
    "4C",
    "TH",
    "8C",
    "9C",
    "5H",
    "9D",
    "5S",
    "JS",
    "2S",
    "5D",
    "3H",
    "QH",
    "3D",
    "KC",
    "9H",
    "JC",
    "8S",
    "JC",
    "2C",
    "TD",
    "JD",
]
DEAL_1_FIRST_STOCK = ["8H", "4S", "9C", "6D", "3S", "JD", "TC", "9H", "4C"]  # in turning order


def test_deal_1_is_pinned():
    s = GripState.deal(1)
    assert [[str(c) for c in p] for p in s.grid] == [[c] for c in DEAL_1_GRID]
    assert [str(c) for c in reversed(s.stock)][:9] == DEAL_1_FIRST_STOCK
    s2, ev = s.apply(DealThree())
    assert wire(ev)[0]["cards"] == ["8H", "4S", "9C"]
    assert str(s2.talon[-1]) == "9C"


@pytest.mark.parametrize("passes", [1, 3, None])
def test_every_pass_option_deals_the_same_cards(passes):
    s = GripState.deal(1, passes)
    base = GripState.deal(1)
    assert (s.grid, s.stock, s.talon) == (base.grid, base.stock, base.talon)
    assert s.passes_allowed == passes and s.passes_used == 1
    assert s.view()["passes_allowed"] == passes


@pytest.mark.parametrize("passes,redeals", [(1, 0), (3, 2), (None, 10)])
def test_pass_limit_options(passes, redeals):
    s = GripState.deal(1, passes)
    done = 0
    for _ in range(10 * 30):
        if s.stock:
            s, _ = s.apply(DealThree())
        elif s.can_redeal:
            s, _ = s.apply(Redeal())
            done += 1
            if done == redeals:
                break
        else:
            break
    assert done == redeals
    if passes is not None:
        # The last pass: after dealing it out no redeal is offered or accepted.
        while s.stock:
            s, _ = s.apply(DealThree())
        assert s.passes_used == passes
        assert Redeal() not in s.legal_actions()
        with pytest.raises(IllegalAction):
            s.apply(Redeal())


# --------------------------------------------------------------------------- rules


def test_rule_01_two_decks_without_aces_seeded():
    deck = grip_deck()
    assert len(deck) == 96
    counts = Counter(deck)
    assert len(counts) == 48 and set(counts.values()) == {2}
    assert all(c.rank != 1 for c in deck)
    a, b = GripState.deal(12345), GripState.deal(12345)
    assert a == b and a.to_json() == b.to_json()
    assert GripState.deal(12346).to_json() != a.to_json()
    everything = [c for p in a.grid for c in p] + list(a.stock)
    assert Counter(everything) == counts


def test_rule_02_grid_of_24_stock_of_72_empty_talon():
    s = GripState.deal(7)
    assert len(s.grid) == 24 and all(len(p) == 1 for p in s.grid)
    assert len(s.stock) == 72 and s.talon == ()
    v = s.view()
    assert v["stock"] == 72 and v["talon"] == [] and v["talon_count"] == 0
    assert len(v["grid"]) == 24


def test_rule_03_building_chains():
    assert fits(Card.parse("8S"), Card.parse("5S"))
    assert fits(Card.parse("JH"), Card.parse("8H"))
    assert not fits(Card.parse("8H"), Card.parse("5S"))  # suit
    assert not fits(Card.parse("7S"), Card.parse("5S"))  # rank
    for top in ("JS", "QS", "KS"):  # nothing goes on J, Q, K
        assert not any(fits(c, Card.parse(top)) for c in grip_deck())
    for low in ("2S", "3D", "4C"):  # 2, 3, 4 never go on anything
        assert not any(fits(Card.parse(low), c) for c in grip_deck())
    # The three chains.
    for chain in ("2S 5S 8S JS", "3D 6D 9D QD", "4C 7C TC KC"):
        cs = cards(chain)
        assert all(fits(cs[i + 1], cs[i]) for i in range(3))
    with pytest.raises(ValueError):
        layout({0: "2S 8S"})
    with pytest.raises(ValueError):
        layout({0: "5S 8H"})
    # The talon card must fit by suit and rank.
    s = layout({0: "5S"}, stock="8S", talon="8H")
    assert not s.is_over()
    with pytest.raises(IllegalAction):
        s.apply(TalonToGrid(0))


def test_rule_04_talon_top_or_a_run_moves_as_a_unit():
    s = layout({0: "5S 8S", 1: "2S", 2: "5S", 3: "2H"}, stock="3C 3C", talon="5H 8D")
    # Only the talon top is available: 8D fits nothing; 5H underneath is not playable.
    assert not [a for a in s.legal_actions() if isinstance(a, TalonToGrid)]
    with pytest.raises(IllegalAction):
        s.apply(TalonToGrid(3))
    # The run 5S-8S moves as one unit onto 2S (decision), refilling cell 0 from the stock.
    s2, ev = s.apply(GridToGrid(0, 1, 2))
    assert [str(c) for c in s2.grid[1]] == ["2S", "5S", "8S"]
    assert wire(ev)[0] == {"type": "move", "src": 0, "dst": 1, "count": 2, "cards": ["5S", "8S"]}
    # 8S alone may go onto a lone 5S (the 5 need not be on a 2).
    s3, _ = s.apply(GridToGrid(0, 2, 1))
    assert [str(c) for c in s3.grid[2]] == ["5S", "8S"] and [str(c) for c in s3.grid[0]] == ["5S"]
    # A run must start at a card that fits: 5S-8S does not go onto 5S.
    with pytest.raises(IllegalAction):
        s.apply(GridToGrid(0, 2, 2))
    # A count larger than the pile is rejected.
    with pytest.raises(IllegalAction):
        s.apply(GridToGrid(0, 1, 3))


def test_rule_05_free_swaps_whole_piles():
    s = layout({0: "5S 8S", 23: "3C", 1: "9D"}, stock="QD")
    assert not s.is_over()
    s2, ev = s.apply(Swap(0, 23))
    assert s2.grid[23] == cards("5S 8S") and s2.grid[0] == cards("3C")
    assert wire(ev) == [{"type": "swap", "a": 0, "b": 23}]
    s3, _ = s.apply(Swap(23, 0))  # either order
    assert s3 == s2
    with pytest.raises(IllegalAction):
        s.apply(Swap(4, 4))
    # Every unordered pair is offered once.
    assert sum(isinstance(a, Swap) for a in s.legal_actions()) == 24 * 23 // 2
    # A swap with an empty cell moves the pile there. In play an empty cell exists only when
    # stock and talon are both empty, and then the deal is already over (nothing can enter),
    # so this is checked on a hand-made (unvalidated) state.
    empty = GripState.from_layout([["5S", "8S"]] + [[] for _ in range(23)], [], [])
    assert empty.ended
    with pytest.raises(GameOver):
        empty.apply(Swap(0, 9))
    raw = GripState(empty.grid, (), (), None, 1, False)
    moved, _ = raw.apply(Swap(0, 9))
    assert moved.grid[9] == cards("5S 8S") and moved.grid[0] == ()
    with pytest.raises(IllegalAction):
        raw.apply(Swap(3, 4))  # two empty cells


def test_rule_06_rows_arranged_when_won():
    # A won deal with its piles scrambled: rows are not enforced during play.
    piles = []
    for suit in "SHDC":
        for base in (2, 3, 4):
            chain = " ".join(str(Card(base + 3 * k, suit)) for k in range(4))
            piles += [chain, chain]
    scrambled = piles[5:] + piles[:5]
    s = GripState.from_layout(scrambled, [], [])
    assert s.won and s.score() == 0 and s.is_over()
    a = s.arranged()
    assert [p[0].rank for p in a.grid[0:8]] == [2] * 8
    assert [p[0].rank for p in a.grid[8:16]] == [3] * 8
    assert [p[0].rank for p in a.grid[16:24]] == [4] * 8
    assert [p[-1].rank for p in a.grid] == [11] * 8 + [12] * 8 + [13] * 8
    assert sorted(a.grid) == sorted(s.grid)
    with pytest.raises(IllegalAction):
        GripState.deal(3).arranged()
    # Winning by play arranges the rows at once.
    last = scrambled[0].split()
    grid = [last[:3]] + [p.split() for p in scrambled[1:]]
    nearly = GripState.from_layout(grid, [], [last[3]])
    assert not nearly.is_over() and nearly.hint() == TalonToGrid(0)
    done, ev = nearly.apply(TalonToGrid(0))
    assert done.won and done.ended and done.grid == a.grid
    assert wire(ev)[-1] == {"type": "arrange", "grid": [[str(c) for c in p] for p in a.grid]}
    assert done.arranged() == done


def test_rule_07_emptied_cell_refilled_from_stock_then_talon():
    # From the stock.
    s = layout({0: "5S", 1: "2S"}, stock="3C 4D", talon="QH")
    s2, ev = s.apply(GridToGrid(0, 1, 1))
    assert s2.grid[0] == cards("3C") and s2.stock == cards("4D")
    assert wire(ev)[1] == {"type": "fill", "cell": 0, "card": "3C", "from": "stock"}
    # Stock empty: the talon's top fills it (decision).
    s = layout({0: "5S", 1: "2S"}, stock="", talon="4D QH")
    s2, ev = s.apply(GridToGrid(0, 1, 1))
    assert s2.grid[0] == cards("QH") and s2.talon == cards("4D")
    assert wire(ev)[1] == {"type": "fill", "cell": 0, "card": "QH", "from": "talon"}
    # Both empty: the cell stays empty (and then no card can enter: the deal is over).
    grid = [["5S"], ["2S"]] + [FILLER[i % 6].split() for i in range(22)]
    s = GripState.from_layout(grid, [], [])
    assert s.is_over()  # nothing left to enter
    # from_layout applies rule 7 to empty cells at once.
    grid = [[], ["2S"]] + [FILLER[i % 6].split() for i in range(22)]
    s = GripState.from_layout(grid, cards("4D 3C"), [])
    assert s.grid[0] == cards("3C") and s.stock == cards("4D")


def test_rule_08_deal_three_from_the_stock():
    s = layout({0: "9S"}, stock="3C 4C 6D 9H QS")  # turning order; QS fits 9S
    s2, ev = s.apply(DealThree())
    assert s2.talon == cards("3C 4C 6D") and str(s2.talon[-1]) == "6D"
    assert wire(ev)[0]["cards"] == ["3C", "4C", "6D"]
    assert s2.view()["talon"] == ["3C", "4C", "6D"] and s2.view()["stock"] == 2
    s3, ev = s2.apply(DealThree())  # only two left
    assert s3.talon == cards("3C 4C 6D 9H QS") and s3.stock == ()
    assert wire(ev)[0]["cards"] == ["9H", "QS"]
    with pytest.raises(IllegalAction):
        GripState.from_layout(s3.grid, (), s3.talon, 1).apply(DealThree())
    # Only the talon's top card plays, and only onto a pile it fits (6D does not fit 9S).
    with pytest.raises(IllegalAction):
        s2.apply(TalonToGrid(0))
    s5, _ = layout({0: "3D"}, stock="6D").apply(DealThree())
    s6, ev = s5.apply(TalonToGrid(0))
    assert s6.grid[0] == cards("3D 6D") and wire(ev)[0] == {"type": "talon", "card": "6D", "dst": 0}
    # Never into an empty cell by hand (checked on a hand-made state: in play an empty cell
    # only exists when the talon is empty too).
    grid = ((),) + s5.grid[1:]
    raw = GripState(grid, (), s5.talon, None, 1, False)
    with pytest.raises(IllegalAction, match="empty cell"):
        raw.apply(TalonToGrid(0))


def test_rule_09_redeal_unshuffled_within_pass_limit():
    s = layout({0: "9S"}, stock="3C 4C 6D 9H QS", passes=3)
    for _ in range(2):
        s, _ = s.apply(DealThree())
    before = s.talon
    with pytest.raises(IllegalAction):
        layout({0: "9S"}, stock="QS 3C", passes=3).apply(Redeal())  # stock not empty
    s2, ev = s.apply(Redeal())
    assert wire(ev)[0]["type"] == "redeal" and s2.passes_used == 2 and s2.talon == ()
    # Klondike order: the cards come out again in the same order.
    s3, ev = s2.apply(DealThree())
    assert wire(ev)[0]["cards"] == [str(c) for c in before[:3]]
    assert s2.stock == tuple(reversed(before))
    # Third pass is the last one.
    s4 = s3
    while s4.stock:
        s4, _ = s4.apply(DealThree())
    s5, _ = s4.apply(Redeal())
    while s5.stock:
        s5, _ = s5.apply(DealThree())
    assert s5.passes_used == 3 and not s5.can_redeal
    with pytest.raises(IllegalAction):
        s5.apply(Redeal())
    # Unlimited.
    u = layout({0: "9S"}, stock="3C 4C 6D 9H QS")
    for _ in range(20):
        u, _ = u.apply(DealThree() if u.stock else Redeal())
    assert u.passes_used > 3


def test_rule_10_end_when_no_card_can_enter():
    # A whole-pile move onto another pile keeps the deal going (it draws a card in).
    s = layout({0: "5S", 1: "2S"}, stock="KH")
    assert not s.is_over() and s.hint() == GridToGrid(0, 1, 1)
    s2, ev = s.apply(GridToGrid(0, 1, 1))
    assert s2.grid[0] == cards("KH") and s2.ended and s2.is_over()
    assert wire(ev)[-1] == {"type": "end", "by": "rule", "score": 0, "rating": "win", "won": True}
    # Moving part of a pile never lets a card in: 8S could go from 5S onto the other 5S.
    s = layout({0: "5S 8S", 1: "5S"}, stock="KH")
    assert s.is_over() and s.ended and s.legal_actions() == []
    with pytest.raises(GameOver):
        s.apply(GridToGrid(0, 1, 1))
    # A fitting card that only shows after a redeal: 8D is third from the talon's bottom.
    talon = "QH QH 8D KH"
    unlimited = layout({0: "5D"}, talon=talon)
    assert not unlimited.is_over() and unlimited.hint() == Redeal()
    three = layout({0: "5D"}, talon=talon, passes=3, passes_used=2)
    assert not three.is_over()
    exhausted = layout({0: "5D"}, talon=talon, passes=3, passes_used=3)
    assert exhausted.is_over()
    assert layout({0: "5D"}, talon=talon, passes=1).is_over()
    # A card hidden inside a group of three never shows, however often it is redealt.
    hidden = layout({0: "5D"}, talon="QH 8D KH")
    assert hidden.is_over()
    # The player may end the deal at any time.
    g = GripGame.new(5)
    ev = g.end()
    assert wire(ev) == [{"type": "end", "by": "player", "score": 72, "rating": None, "won": False}]
    assert g.state.ended and g.state.is_over() and g.state.legal_actions() == []
    with pytest.raises(GameOver):
        g.apply(DealThree())
    with pytest.raises(GameOver):
        g.end()
    assert g.state.view()["ended"] and g.state.view()["over"] and not g.state.view()["won"]
    assert g.record()["actions"][-1] == {"type": "end"}
    assert isinstance(g.actions[-1], EndDeal)


def test_rule_11_score_and_rating():
    s = GripState.deal(9)
    assert s.score() == 72
    s2, _ = s.apply(DealThree())
    assert s2.score() == 72 and s2.view()["score"] == 72  # the talon counts too
    assert [rating(n) for n in (0, 1, 2, 3, 5, 6, 10, 11, 72)] == [
        "win",
        "brilliant",
        "brilliant",
        "excellent",
        "excellent",
        "good",
        "good",
        None,
        None,
    ]
    won = layout({0: "5S", 1: "2S"}, stock="KH").apply(GridToGrid(0, 1, 1))[0]
    assert won.score() == 0 and won.won and won.view()["rating"] == "win" and won.view()["won"]
    # In a won full deal every pile is complete (see test_rule_06).


def test_rule_12_undo_redo_marks_the_game():
    g = GripGame.new(1)
    assert not g.can_undo and not g.can_redo and not g.used_undo
    with pytest.raises(IllegalAction):
        g.undo()
    with pytest.raises(IllegalAction):
        g.redo()
    s0 = g.state
    g.apply(DealThree())
    s1 = g.state
    g.apply(DealThree())
    s2 = g.state
    assert g.record()["used_undo"] is False
    g.undo()
    assert g.state == s1 and g.used_undo and g.can_redo and g.can_undo
    g.undo()
    assert g.state == s0 and not g.can_undo
    g.redo()
    assert g.state == s1
    g.redo()
    assert g.state == s2 and not g.can_redo
    g.undo()
    g.apply(g.state.legal_actions()[-1])  # a new action clears the redo stack
    assert not g.can_redo
    assert g.used_undo and g.record()["used_undo"] is True
    # Undo also takes back the end of a deal.
    g.end()
    g.undo()
    assert not g.state.ended
