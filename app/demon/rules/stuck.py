"""Exact "stuck" detection for Demon (rule 16), kept apart from the rules module.

A seat is *stuck* when no sequence of its own actions (draws, recycles, tableau-to-tableau
moves) can reach a position where it can make *progress*: a foundation play, a card leaving
the waste for the tableau, or a face-down card being turned up. The foundations are taken
as they are (other players are not assumed to move).

The search exploits the structure of the game:

* Draws and recycles touch only the stock and the waste; tableau moves touch only the
  tableau. Until progress is made, the two halves evolve independently, so the set of
  reachable positions is the product (reachable waste states) x (reachable tableaus).
* The waste half is a deterministic cycle with one branch point (the recycle, only when the
  stock is empty). What matters is the set R of cards that can ever be the waste top: the
  tops seen while finishing the current pass, then the tops of one full pass after a
  recycle (every later pass repeats that one).
* The tableau half is searched exhaustively, but only over what matters for progress:
  face-down cards stay down (we stop as soon as one could be turned up), so a pile is
  represented as (has face-down cards?, face-up run), and a position as the *sorted*
  tuple of its piles (which pile is which never matters for progress).

Progress exists iff some card of R is playable to a foundation, or some reachable tableau
has a top card playable to a foundation, a top (or an empty pile, for a king) that accepts
a card of R, or a face-up run resting on face-down cards that can move away whole.

Cards are handled here as small ints, `rank * 4 + suit` with suits S H D C = 0 1 2 3, so
that the search does plain integer and tuple work.

Before the search, `visible_progress` looks for progress one move away, on the cards
themselves: the seat that just moved is asked after every move and usually has some.
`RoundAnalysis.is_stuck` asks these in turn and keeps the answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.common.cards import SUITS, Card
from app.demon.rules.layout import Pile, SeatState
from app.demon.rules.legal import pile_targets

# A tableau as the search sees it: per pile (has face-down cards, face-up ids bottom..top)
EncodedPiles = tuple[tuple[bool, tuple[int, ...]], ...]

_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_RED = (False, True, True, False)  # S H D C
KING = 13


def card_id(card: Card) -> int:
    return card.rank * 4 + _SUIT_INDEX[card.suit]


def _parents_of(cid: int) -> tuple[int, ...]:
    """Ids of the two cards a card may be built on in the tableau (none for a king)."""
    rank, suit = divmod(cid, 4)
    if rank >= KING:
        return ()
    red = _RED[suit]
    return tuple((rank + 1) * 4 + s for s in range(4) if _RED[s] != red)


def _children_of(cid: int) -> tuple[int, ...]:
    """Ids of the two cards that may be built on this card in the tableau (none on an ace)."""
    rank, suit = divmod(cid, 4)
    if rank <= 1:
        return ()
    red = _RED[suit]
    return tuple((rank - 1) * 4 + s for s in range(4) if _RED[s] != red)


# Indexed by card id; ids run from 4 (AS) to 55 (KC).
_PARENTS: tuple[tuple[int, ...], ...] = tuple(_parents_of(i) if i >= 4 else () for i in range(56))
_CHILDREN: tuple[tuple[int, ...], ...] = tuple(_children_of(i) if i >= 4 else () for i in range(56))
_KINGS: tuple[int, ...] = tuple(KING * 4 + s for s in range(4))


def ids(cards: Iterable[Card]) -> tuple[int, ...]:
    si = _SUIT_INDEX
    return tuple([c.rank * 4 + si[c.suit] for c in cards])


def encode_piles(tableau: Iterable[Pile]) -> EncodedPiles:
    """Tableau piles as ints: each (has face-down cards, face-up ids). Hashable, so it
    also serves as a memo key."""
    si = _SUIT_INDEX
    return tuple([(bool(p.down), tuple([c.rank * 4 + si[c.suit] for c in p.up])) for p in tableau])


def foundation_wants(tops: Iterable[Card]) -> frozenset[int]:
    """Ids of the cards the foundations accept now: every ace, and the successor of each
    pile top (a pile topped by a king accepts nothing)."""
    wants = {1 * 4 + s for s in range(4)}
    for top in tops:
        if top.rank < KING:
            wants.add((top.rank + 1) * 4 + _SUIT_INDEX[top.suit])
    return frozenset(wants)


def reachable_waste_tops(stock: Sequence[int], waste: Sequence[int]) -> set[int]:
    """Every card that draws and recycles (draw three, unlimited recycles) can put on top
    of the waste, starting from this stock (last = next drawn) and waste (last = top)."""
    order = list(waste)
    order.extend(reversed(stock))  # the waste after the current pass ends
    n = len(order)
    tops: set[int] = set()
    if n == 0:
        return tops
    w = len(waste)
    i = w - 1
    if w:
        tops.add(order[i])
    while i < n - 1:  # finish the current pass
        i = min(i + 3, n - 1)
        tops.add(order[i])
    i = -1
    while i < n - 1:  # one full pass after a recycle; later passes repeat it
        i = min(i + 3, n - 1)
        tops.add(order[i])
    return tops


# What `progress_witness` returns when the progress it found does not use the foundations
# (a waste card onto the tableau, or a turn-up): such an answer holds whatever they accept.
ANY_FOUNDATIONS = -1


def progress_witness(
    piles: Sequence[tuple[bool, tuple[int, ...]]],
    stock: Sequence[int],
    waste: Sequence[int],
    wants: frozenset[int],
) -> int | None:
    """None when the seat is stuck; otherwise why it is not: ANY_FOUNDATIONS, or the id of
    the wanted card whose foundation play the search reached.

    The witness lets a caller keep the answer while the foundations change: it stays true
    as long as that card is still wanted (the seat's own layout being unchanged).
    `piles` are (has face-down cards, face-up ids bottom..top); `stock`/`waste` are ids
    with the last element on top; `wants` is `foundation_wants(...)`.
    """
    found, takers, king_in_r = waste_witness(stock, waste, wants)
    if found is not None:
        return found
    return tableau_witness(piles, wants, takers, king_in_r)


def waste_witness(
    stock: Sequence[int], waste: Sequence[int], wants: frozenset[int]
) -> tuple[int | None, frozenset[int], bool]:
    """The stock-and-waste half of `progress_witness`: (a wanted card that draws can bring
    to the top of the waste, or None; the tableau tops that would take a card the waste
    can show; whether the waste can show a king). The other half, `tableau_witness`,
    depends on the stock only through the last two, so a seat that only draws can keep
    its tableau answer (`RoundAnalysis.search` does)."""
    rtops = reachable_waste_tops(stock, waste)
    # A waste card that can reach the top and go to a foundation.
    for c in rtops:
        if c in wants:
            return c, frozenset(), False
    # Tableau tops that would take a card of R, and whether R holds a king.
    takers: set[int] = set()
    king_in_r = False
    for c in rtops:
        if c >= KING * 4:
            king_in_r = True
        else:
            takers.update(_PARENTS[c])
    return None, frozenset(takers), king_in_r


def tableau_witness(
    piles: Sequence[tuple[bool, tuple[int, ...]]],
    wants: frozenset[int],
    takers: frozenset[int],
    king_in_r: bool,
) -> int | None:
    """Depth-first search over tableau rearrangements, stopping at the first progress:
    ANY_FOUNDATIONS, or the id of a wanted card that became a pile top; None if none.

    Moves are generated from the destinations: for each pile top, the (at most two) cards
    that may be built on it; for an empty pile, the kings. A card found at the bottom of
    the face-up part of a pile with face-down cards means a turn-up: progress.
    """
    start = tuple(sorted(piles))
    seen = {start}
    todo = [start]
    children = _CHILDREN
    kings = _KINGS
    while todo:
        state = todo.pop()
        where: dict[int, tuple[int, int]] = {}
        empty_at = -1
        for idx, (_down, up) in enumerate(state):
            if up:
                top = up[-1]
                if top in takers:
                    return ANY_FOUNDATIONS
                if top in wants:
                    return top
                for p, c in enumerate(up):
                    where[c] = (idx, p)
            else:
                empty_at = idx
        if empty_at >= 0:
            if king_in_r:
                return ANY_FOUNDATIONS
            for k in kings:
                at = where.get(k)
                if at is None or at[1]:
                    continue
                i = at[0]
                if state[i][0]:
                    return ANY_FOUNDATIONS  # a king-headed run leaves its face-down cards
                # a king already at the bottom of a pile would only swap two piles
        for j, (down_j, up_j) in enumerate(state):
            if not up_j:
                continue
            for c in children[up_j[-1]]:
                at = where.get(c)
                if at is None:
                    continue
                i, p = at
                down_i, up_i = state[i]
                if p == 0 and down_i:
                    return ANY_FOUNDATIONS  # the whole face-up part moves: a card turns up
                nxt = list(state)
                nxt[i] = (down_i, up_i[:p])
                nxt[j] = (down_j, up_j + up_i[p:])
                nxt.sort()
                key = tuple(nxt)
                if key not in seen:
                    seen.add(key)
                    todo.append(key)
    return None


def visible_progress(layout: SeatState, wants: frozenset[int]) -> int | None:
    """Progress the seat can make with one move now: a witness of the kind
    `progress_witness` gives (ANY_FOUNDATIONS for a waste card that goes to the tableau or
    a whole run that moves off a face-down card, else the card id of the first foundation
    play, waste first), or None when there is none and the search must run. It reads the
    layout directly, in a few comparisons per pile, rather than building the seat's legal
    actions: it runs before the move is sent to anyone, the legal actions only after."""
    # The piles' targets as a set of the (rank, is red) that fit somewhere, and whether
    # some pile is empty (it takes a king). A card never fits on its own pile's top
    # (that top is never higher than any face-up card under it), so which pile offers
    # the place does not matter.
    targets = pile_targets(layout.tableau)
    fits = {(wanted, not black) for _j, wanted, black in targets if black is not None}
    empty_pile = any(black is None for _j, _wanted, black in targets)
    waste_top = layout.waste[-1] if layout.waste else None
    if waste_top is not None and (empty_pile if waste_top.rank == KING else (waste_top.rank, waste_top.is_red) in fits):
        return ANY_FOUNDATIONS  # the waste card goes to the tableau
    for pile in layout.tableau:
        if pile.down and pile.up:
            base = pile.up[0]
            if empty_pile if base.rank == KING else (base.rank, base.is_red) in fits:
                return ANY_FOUNDATIONS  # the whole run moves: a turn-up
    if waste_top is not None and card_id(waste_top) in wants:
        return card_id(waste_top)  # a foundation play
    for pile in layout.tableau:
        if pile.up and card_id(pile.up[-1]) in wants:
            return card_id(pile.up[-1])
    return None
