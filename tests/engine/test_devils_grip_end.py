"""Devil's Grip rule 10: `is_over` checked against brute-force searches.

The searches below do not use the engine's end detection: they re-implement the few rules
they need on plain tuples and explore every reachable position.

* `brute_deal_only`: the positions reachable by deals and redeals alone (respecting the
  pass limit); the deal goes on if at any of them a talon card fits a pile or a whole pile
  can be built onto another.
* `brute_with_part_moves`: the same, but part-pile moves may also be made in between (a
  stronger check of the claim that they never let a card in).
"""

from __future__ import annotations

from collections import deque

from grip_support import follow_hint_until_a_card_enters
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.common.cards import Card
from app.grip.rules import GripState

INERT = ["2S 5S 8S JS", "3H 6H 9H QH", "4D 7D TD KD", "2C 5C 8C JC", "3S 6S 9S QS", "4H 7H TH KH"]


def ok(card, onto) -> bool:
    return card[1] == onto[1] and card[0] == onto[0] + 3


def entering_possible(grid, talon) -> bool:
    tops = [(i, p[-1]) for i, p in enumerate(grid) if p]
    if talon and any(ok(talon[-1], t) for _, t in tops):
        return True
    return any(p and any(j != i and ok(p[0], t) for j, t in tops) for i, p in enumerate(grid))


def step_cycle(stock, talon, used, allowed):
    """Successor positions by one deal or one redeal."""
    out = []
    if stock:
        n = min(3, len(stock))
        out.append((stock[:-n], talon + tuple(reversed(stock[-n:])), used))
    elif talon and (allowed is None or used < allowed):
        out.append((tuple(reversed(talon)), (), used + 1))
    return out


def brute_deal_only(grid, stock, talon, allowed, used) -> bool:
    """True when no card can ever enter (the deal is over)."""
    if not stock and not talon:
        return True
    seen = set()
    queue = deque([(stock, talon, used)])
    while queue:
        st_, ta, us = queue.popleft()
        key = (st_, ta, us if allowed is not None else 0)
        if key in seen:
            continue
        seen.add(key)
        if entering_possible(grid, ta):
            return False
        queue.extend(step_cycle(st_, ta, us, allowed))
    return True


def brute_with_part_moves(grid, stock, talon, allowed, used, limit=200_000) -> bool:
    if not stock and not talon:
        return True
    seen = set()
    queue = deque([(grid, stock, talon, used)])
    while queue:
        g, st_, ta, us = queue.popleft()
        key = (g, st_, ta, us if allowed is not None else 0)
        if key in seen:
            continue
        seen.add(key)
        assert len(seen) < limit
        if entering_possible(g, ta):
            return False
        for s2, t2, u2 in step_cycle(st_, ta, us, allowed):
            queue.append((g, s2, t2, u2))
        for i, p in enumerate(g):
            for k in range(1, len(p)):  # part of the pile only
                run = p[len(p) - k :]
                for j, q in enumerate(g):
                    if j != i and q and ok(run[0], q[-1]):
                        g2 = list(g)
                        g2[i] = p[: len(p) - k]
                        g2[j] = q + run
                        queue.append((tuple(g2), st_, ta, us))
    return True


def to_plain(cards) -> tuple:
    return tuple((c.rank, c.suit) for c in cards)


def plain_state(s: GripState):
    return tuple(to_plain(p) for p in s.grid), to_plain(s.stock), to_plain(s.talon)


def check(s: GripState) -> bool:
    grid, stock, talon = plain_state(s)
    expected = brute_deal_only(grid, stock, talon, s.passes_allowed, s.passes_used)
    assert s.is_over() == expected, (s.to_json(), expected)
    stronger = brute_with_part_moves(grid, stock, talon, s.passes_allowed, s.passes_used)
    assert stronger == expected
    return expected


def make(piles: dict[int, str], stock: str = "", talon: str = "", passes=None, used=1) -> GripState:
    grid = [piles.get(i, INERT[i % len(INERT)]) for i in range(24)]
    stock_cards = [Card.parse(c) for c in stock.split()][::-1]  # given in turning order
    talon_cards = [Card.parse(c) for c in talon.split()]
    return GripState.from_layout(grid, stock_cards, talon_cards, passes, used)


# --------------------------------------------------------------------------- explicit


def test_playable_card_appears_only_after_a_redeal():
    # Pass 1 shows KH then (from the stock) QD; after a redeal the groups shift and 8D shows.
    s = make({0: "5D"}, stock="QD", talon="QH QH 8D KH", passes=None)
    assert not check(s)
    s = make({0: "5D"}, stock="QD", talon="QH QH 8D KH", passes=3, used=3)
    assert check(s)  # pass limit exhausted
    s = make({0: "5D"}, stock="QD", talon="QH QH 8D KH", passes=3, used=2)
    assert not check(s)


def test_stock_groups_of_three():
    # Only every third stock card (and the last) shows in this pass.
    assert check(make({0: "5D"}, stock="8D KH QH", passes=1))
    assert not check(make({0: "5D"}, stock="KH QH 8D", passes=1))
    assert not check(make({0: "5D"}, stock="KH 8D", passes=1))  # short last group
    # After the pass, a redeal reorders the groups: talon + rest of stock.
    assert not check(make({0: "5D"}, stock="8D KH QH", talon="QC QC", passes=None))
    assert check(make({0: "5D"}, stock="8D KH QH", talon="QC", passes=None))  # 8D stays hidden


def test_whole_pile_and_talon_top():
    assert not check(make({0: "5D 8D", 1: "2D"}, stock="KH"))  # whole pile onto 2D
    assert check(make({0: "5D 8D", 1: "5D"}, stock="KH"))  # only a part-pile move
    assert not check(make({0: "5D"}, talon="8D", passes=1))  # the talon top itself
    assert check(make({0: "JD"}, talon="8D", passes=1))
    assert check(make({}, stock="", talon=""))  # nothing left: over (won)


def test_part_move_uncovers_nothing_new():
    # 8S can go from (5S 8S) onto the other 5S, uncovering a 5S; only an 8S could use that
    # new top, and an 8S would already fit on the lone 5S.
    assert check(make({0: "5S 8S", 1: "5S"}, stock="KC QC", passes=1))
    assert not check(make({0: "5S 8S", 1: "5S"}, stock="KC 8S", passes=1))


def test_pass_limit_one_with_nothing_left_in_stock():
    assert check(make({0: "5D"}, talon="QH QH 8D KH", passes=1))


# --------------------------------------------------------------------------- random

RANKS_SMALL = [2, 3, 5, 6, 8, 9, 11, 12]


@st.composite
def small_positions(draw):
    suits = draw(st.sampled_from(["S", "SH", "SD"]))
    card = st.builds(Card, st.sampled_from(list(range(2, 14))), st.sampled_from(list(suits)))

    def chain_from(c: Card, length: int) -> list[Card]:
        out = [c]
        while len(out) < length and out[-1].rank + 3 <= 13:
            out.append(Card(out[-1].rank + 3, c.suit))
        return out

    live = draw(st.integers(1, 5))
    piles = {}
    for i in range(live):
        piles[i * 4] = chain_from(draw(card), draw(st.integers(1, 3)))
    # Half of the supply cards are ones that fit a live top, so both outcomes are common.
    wanted = [Card(p[-1].rank + 3, p[-1].suit) for p in piles.values() if p[-1].rank <= 10]
    supply = st.one_of(card, st.sampled_from(wanted)) if wanted else card
    stock = draw(st.lists(supply, max_size=9))
    talon = draw(st.lists(supply, max_size=7))
    passes = draw(st.sampled_from([1, 2, 3, None]))
    used = draw(st.integers(1, passes or 4))
    text = {i: " ".join(map(str, p)) for i, p in piles.items()}
    return make(text, " ".join(map(str, stock)), " ".join(map(str, talon)), passes, used)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(small_positions())
def test_is_over_matches_brute_force_on_random_positions(s):
    over = check(s)
    if not over:
        # The hint, followed, brings a card in.
        follow_hint_until_a_card_enters(s, 200)
