"""Helpers shared by the Demon tests (no tests here): layout builders, invariants, a
random playout policy, and an independent brute-force "stuck" search."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable

from app.common.cards import Card, parse_cards, standard_deck
from app.demon.rules.round import (
    PILES,
    DemonRound,
    Pile,
    SeatState,
    ToFoundation,
)

C = Card.parse


def seat(*piles, stock: str = "", waste: str = "") -> SeatState:
    """seat(("2C", "3D"), ("", "KS QH")) -> a SeatState; missing piles are empty.
    `stock` is written bottom..top like every other sequence (last = next drawn)."""
    return SeatState.parse(list(piles), stock, waste)


def suit_pile(suit: str, height: int, owner: int = 0) -> list[tuple[Card, int]]:
    return [(Card(r, suit), owner) for r in range(1, height + 1)]


def full_foundations_except(cards: Iterable[Card], owner: int = 0) -> list[list[tuple[Card, int]]]:
    """Foundation piles holding every card of one deck below the lowest kept card of each
    suit (so the kept cards are exactly the ones left to play)."""
    kept = set(cards)
    piles = []
    for suit in "SHDC":
        low = min((c.rank for c in kept if c.suit == suit), default=14)
        if low > 1:
            piles.append(suit_pile(suit, low - 1, owner))
    return piles


# --------------------------------------------------------------------------- invariants


def check_invariants(r: DemonRound, full_decks: bool = True) -> None:
    """Every seat's cards appear exactly once; foundations are suits from the ace up;
    no pile shows a face-down card on top; face-up parts are runs."""
    deck = sorted(standard_deck())
    owned: list[list[Card]] = [[] for _ in r.seats]
    for i, pile in enumerate(r.foundations):
        assert pile, f"empty foundation pile {i}"
        suit = pile[0][0].suit
        for h, (card, owner) in enumerate(pile):
            assert card.suit == suit and card.rank == h + 1, (i, h, card)
            owned[owner].append(card)
    for s, st in enumerate(r.seats):
        assert len(st.tableau) == PILES
        for k, p in enumerate(st.tableau):
            assert p.up or not p.down, f"seat {s} pile {k}: face-down card on top"
            for lo, hi in zip(p.up, p.up[1:]):
                assert hi.rank == lo.rank - 1 and hi.is_red != lo.is_red, (s, k, p.up)
        owned[s].extend(st.cards())
        if full_decks:
            assert sorted(owned[s]) == deck, f"seat {s}: cards lost or duplicated"
        else:
            assert len(set(owned[s])) == len(owned[s]), f"seat {s}: duplicated card"
    counted = [0] * len(r.seats)  # by hand: the engine keeps these counts as it plays
    for fpile in r.foundations:
        for _card, owner in fpile:
            counted[owner] += 1
    assert [r.cards_on_foundations(s) for s in range(len(r.seats))] == counted
    assert r.scores() == tuple(
        62 if (r.end and r.end.reason == "demon" and r.end.winner == s) else counted[s] for s in range(len(r.seats))
    )
    for s in range(len(r.seats)):  # the cheap check the server uses agrees with legal_actions
        assert r.foundation_plays(s) == tuple(
            (a.src, a.pile) for a in r.legal_actions(s) if isinstance(a, ToFoundation)
        )


# --------------------------------------------------------------------------- playouts


def choose_action(r: DemonRound, rng: random.Random, seats: list[int]):
    """A playout policy: mostly foundation plays and useful moves, sometimes anything."""
    s = rng.choice(seats)
    acts = r.legal_actions(s)
    if not acts:
        return None
    plays = [a for a in acts if isinstance(a, ToFoundation)]
    if plays and rng.random() < 0.85:
        return rng.choice(plays)
    return rng.choice(acts)


def random_playout(seed: int, players: int, max_actions: int, check=None):
    """Deal `seed`, start, and play random actions; yields (round, action, events)."""
    rng = random.Random(seed)
    r = DemonRound.deal(seed, players).start()
    seats = list(range(players))
    n = 0
    idle = 0
    while r.end is None and n < max_actions and idle < 50:
        a = choose_action(r, rng, seats)
        if a is None:
            idle += 1
            continue
        idle = 0
        r, events = r.apply(a)
        n += 1
        yield r, a, events


# --------------------------------------------------------------------------- brute force


def _accepts_on_tableau(top: Card | None, card: Card) -> bool:
    if top is None:
        return card.rank == 13
    return top.rank == card.rank + 1 and top.is_red != card.is_red


def brute_force_stuck(st: SeatState, foundation_tops: Iterable[Card]) -> bool:
    """Independent exhaustive search over the full seat state (real face-down cards,
    stock order, waste): True when no sequence of draws, recycles and tableau moves
    reaches a foundation play, a waste-to-tableau move or a turn-up."""
    wanted = {(1, s) for s in "SHDC"}
    for top in foundation_tops:
        if top.rank < 13:
            wanted.add((top.rank + 1, top.suit))

    start = (tuple((p.down, p.up) for p in st.tableau), st.stock, st.waste)
    seen = {start}
    queue = deque([start])
    while queue:
        tab, stock, waste = queue.popleft()
        tops = [up[-1] if up else None for _down, up in tab]
        # progress: foundation plays
        if waste and (waste[-1].rank, waste[-1].suit) in wanted:
            return False
        if any(t is not None and (t.rank, t.suit) in wanted for t in tops):
            return False
        # progress: waste card to the tableau
        if waste:
            w = waste[-1]
            for (down, _up), t in zip(tab, tops):
                if (t is None and not down and w.rank == 13) or (t is not None and _accepts_on_tableau(t, w)):
                    return False
        nexts = []
        # draw / recycle
        if stock:
            n = min(3, len(stock))
            nexts.append((tab, stock[:-n], waste + tuple(reversed(stock[-n:]))))
        elif waste:
            nexts.append((tab, tuple(reversed(waste)), ()))
        # tableau moves
        for i, (down_i, up_i) in enumerate(tab):
            for cnt in range(1, len(up_i) + 1):
                run = up_i[-cnt:]
                for j, (down_j, up_j) in enumerate(tab):
                    if i == j:
                        continue
                    t = up_j[-1] if up_j else None
                    if t is None and down_j:
                        continue
                    if not _accepts_on_tableau(t, run[0]):
                        continue
                    if cnt == len(up_i) and down_i:
                        return False  # a turn-up
                    new = list(tab)
                    new[i] = (down_i, up_i[:-cnt])
                    new[j] = (down_j, up_j + run)
                    nexts.append((tuple(new), stock, waste))
        for nxt in nexts:
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return True


def _one_small_position(rng: random.Random) -> DemonRound:
    heights = {s: rng.choice([13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]) for s in "SHDC"}
    foundations = []
    wanted = set()
    for s in "SHDC":
        h = heights[s]
        if h:
            foundations.append(suit_pile(s, h, 0))
        if h < 13:
            wanted.add(Card(h + 1, s))
        if h < 4 and rng.random() < 0.3:
            # seat 1 has built this suit higher; seat 0 may play its cards there too
            h1 = rng.randint(h + 1, 9)
            foundations.append(suit_pile(s, h1, 1))
            wanted.add(Card(h1 + 1, s))
    left = [c for c in standard_deck() if c.rank > heights[c.suit]]
    rng.shuffle(left)
    del left[rng.randint(5, 16) :]  # keep a handful (the rest are simply not in play)
    hidden = [c for c in left if c in wanted]
    pool = [c for c in left if c not in wanted]
    rng.shuffle(pool)
    piles: list[Pile] = []
    for _k in range(PILES):
        if rng.random() < 0.25:
            piles.append(Pile())
            continue
        down = []
        for _ in range(rng.choice([0, 1, 1, 2])):
            if hidden and rng.random() < 0.8:
                down.append(hidden.pop())
            elif pool:
                down.append(pool.pop())
        cands = pool + hidden
        if not cands:
            if down:
                piles.append(Pile(tuple(down[:-1]), (down[-1],)))
            continue
        base = rng.choice(cands)
        (hidden if base in hidden else pool).remove(base)
        run = [base]
        while rng.random() < 0.7:
            nxt = [c for c in pool + hidden if c.rank == run[-1].rank - 1 and c.is_red != run[-1].is_red]
            if not nxt:
                break
            c = rng.choice(nxt)
            (hidden if c in hidden else pool).remove(c)
            run.append(c)
        piles.append(Pile(tuple(down), tuple(run)))
    while len(piles) < PILES:
        piles.append(Pile())
    rng.shuffle(piles)
    rest = pool + hidden
    rng.shuffle(rest)
    split = rng.randint(0, len(rest))
    st = SeatState(tuple(piles[:PILES]), tuple(rest[:split]), tuple(rest[split:]))
    empty = SeatState(tuple(Pile() for _ in range(PILES)))
    return DemonRound.from_layout([st, empty], foundations)


def visibly_playable(r: DemonRound, s: int = 0) -> bool:
    """Progress without any preparation: a wanted top, or the waste top fits a pile."""
    wanted = {(1, x) for x in "SHDC"} | {(p[-1][0].rank + 1, p[-1][0].suit) for p in r.foundations}
    st = r.seats[s]
    tops = [p.top for p in st.tableau]
    if any(t is not None and (t.rank, t.suit) in wanted for t in tops):
        return True
    if st.waste:
        w = st.waste[-1]
        if (w.rank, w.suit) in wanted:
            return True
        if any(_accepts_on_tableau(p.top, w) and not p.down for p in st.tableau if p.top is None) or any(
            p.top is not None and _accepts_on_tableau(p.top, w) for p in st.tableau
        ):
            return True
    return False


def random_small_position(rng: random.Random) -> DemonRound:
    """A position with few cards left and nothing visibly playable (so that the answer
    depends on draws, recycles or rearrangements): seat 0 is the seat to examine, seat 1
    is an empty seat that owns some foundation cards."""
    for _ in range(200):
        r = _one_small_position(rng)
        if not visibly_playable(r):
            return r
    return r


__all__ = [
    "C",
    "brute_force_stuck",
    "check_invariants",
    "choose_action",
    "full_foundations_except",
    "parse_cards",
    "random_playout",
    "random_small_position",
    "seat",
    "suit_pile",
    "visibly_playable",
]
