"""Exact "stuck" for Nerts (N12), in the manner of Demon's rule-16 search.

A seat is stuck when no sequence of its own draws, recycles and work-pile moves can reach
*progress*: a foundation play, a card leaving the Nerts pile, or a waste card entering a
work pile, the foundations being as they are (nobody else is assumed to move).

Why it can be decided exactly and cheaply:

* Until progress, draws and recycles touch only the stock and waste, and work-pile moves
  only the work piles, so the reachable positions are the product of the two halves.
* The waste half is a deterministic cycle: what matters is R, the set of cards that can
  ever be the waste's top (the rest of the current pass, then one full pass after a
  recycle; later passes repeat it). With draw one (H2) R is every card of stock and waste.
* The Nerts pile cannot change before progress, so only its top card matters.
* The work half is searched exhaustively over arrangements, a position being the
  *sorted* tuple of its piles (which pile is which never matters), with a seen-set: the
  arrangements of the finite set of work cards are finitely many, so the search ends,
  and it stops at the first progress.

Progress exists iff the Nerts top or a card of R is wanted by a foundation; or some
reachable arrangement has a top wanted by a foundation, a top that takes the Nerts top
or a card of R, or an empty pile while the Nerts pile or R holds a card (N7: an empty
pile takes any card; under H3 it is refilled from the Nerts pile at once, which is
progress too, so the house rule does not change the answer). Only the first clause and
"a top wanted" depend on the foundations: so the layout's part is computed once per
layout (`SeatOffer`: local progress, or every card it can ever offer) and the
foundations' part is a set intersection (`StuckMemo`).

Cards are small ints here, `rank * 4 + suit` (S H D C = 0 1 2 3). The work search is
memoised on its whole input (`functools.lru_cache`), which is pure, and each seat's
answer is kept with its layout (`StuckMemo`): the round asks every seat after every
move, and most seats' layouts have not changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from app.common.cards import SUITS, Card
from app.nerts.rules.layout import NertsSeat

__all__ = ["SeatOffer", "StuckMemo", "card_id", "foundation_wants", "is_stuck", "reachable_waste_tops", "seat_offer"]

_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_RED = (False, True, True, False)  # S H D C
KING = 13


def card_id(card: Card) -> int:
    return card.rank * 4 + _SUIT_INDEX[card.suit]


def _parents_of(cid: int) -> tuple[int, ...]:
    """Ids of the two cards this card may be built on (none for a king)."""
    rank, suit = divmod(cid, 4)
    if rank >= KING:
        return ()
    return tuple((rank + 1) * 4 + s for s in range(4) if _RED[s] != _RED[suit])


_PARENTS: tuple[tuple[int, ...], ...] = tuple(_parents_of(i) if i >= 4 else () for i in range(56))

# For each card id, the ids that may be built on it: a run headed by `head` goes on a
# pile topped by `t` when head is in _CHILDREN[t].
_CHILDREN: tuple[frozenset[int], ...] = tuple(frozenset(c for c in range(4, 56) if t in _PARENTS[c]) for t in range(56))


def foundation_wants(tops: Iterable[Card]) -> frozenset[int]:
    """Ids of the cards the foundations accept now: every ace, and each pile top's
    successor in suit (a king-topped pile accepts nothing)."""
    wants = {4 + s for s in range(4)}
    wants.update(card_id(t) + 4 for t in tops if t.rank < KING)
    return frozenset(wants)


def reachable_waste_tops(stock: Sequence[int], waste: Sequence[int], step: int) -> frozenset[int]:
    """Every card that draws of `step` cards and unlimited recycles can bring to the top
    of the waste, from this stock (last = next drawn) and waste (last = top)."""
    order = list(waste)
    order.extend(reversed(stock))  # the waste once the current pass ends
    n = len(order)
    tops: set[int] = set()
    if n == 0:
        return frozenset()
    i = len(waste) - 1
    if waste:
        tops.add(order[i])
    while i < n - 1:  # finish the current pass
        i = min(i + step, n - 1)
        tops.add(order[i])
    i = -1
    while i < n - 1:  # one full pass after a recycle; every later pass repeats it
        i = min(i + step, n - 1)
        tops.add(order[i])
    return frozenset(tops)


@dataclass(frozen=True, slots=True)
class SeatOffer:
    """What a seat's layout can ever do, the foundations aside: `local` when some
    sequence of its own draws and work moves reaches progress that needs no foundation
    (a card leaving the Nerts pile or the waste for a work pile, N7's empty pile); else
    `offered`, every card it can ever bring within reach of a foundation (the Nerts top,
    every reachable waste top, every top of every reachable work arrangement). Neither
    depends on the foundations, so a seat is stuck exactly when it is not `local` and the
    foundations want none of `offered` -- a set intersection per foundation change."""

    local: bool
    offered: frozenset[int]


def seat_offer(st: NertsSeat, draw: int) -> SeatOffer:
    """The layout's `SeatOffer` under draw size `draw` (H2)."""
    nerts_top = card_id(st.nerts[-1]) if st.nerts else None
    rtops = reachable_waste_tops([card_id(c) for c in st.stock], [card_id(c) for c in st.waste], draw)
    takers: set[int] = set()
    for c in rtops:
        takers.update(_PARENTS[c])
    if nerts_top is not None:
        takers.update(_PARENTS[nerts_top])
    fillable = nerts_top is not None or bool(rtops)
    work = tuple(sorted(tuple(card_id(c) for c in p) for p in st.work))
    tops = _work_tops(work, frozenset(takers), fillable)
    if tops is None:
        return SeatOffer(True, frozenset())
    offered = set(rtops) | tops
    if nerts_top is not None:
        offered.add(nerts_top)
    return SeatOffer(False, frozenset(offered))


def is_stuck(st: NertsSeat, wants: frozenset[int], draw: int) -> bool:
    """N12, exact. `wants` is `foundation_wants(...)`; `draw` is the H2 draw size."""
    offer = seat_offer(st, draw)
    return not offer.local and not (offer.offered & wants)


class StuckMemo:
    """Each seat's last `SeatOffer`, kept with the layout it was made from: a round and
    every round made from it share one (`NertsRound.memo`), so after a move only the
    mover's layout (the one that changed) is searched again, and a foundation play costs
    the other seats a set intersection each. Pure: it only saves recomputing a function
    of values it keeps beside its answers."""

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        self._kept: dict[int, tuple[NertsSeat, int, SeatOffer]] = {}

    def is_stuck(self, seat: int, st: NertsSeat, wants: frozenset[int], draw: int) -> bool:
        kept = self._kept.get(seat)
        if kept is not None and kept[0] is st and kept[1] == draw:
            offer = kept[2]
        else:
            offer = seat_offer(st, draw)
            self._kept[seat] = (st, draw, offer)
        return not offer.local and not (offer.offered & wants)


@lru_cache(maxsize=8192)
def _work_tops(start: tuple[tuple[int, ...], ...], takers: frozenset[int], fillable: bool) -> frozenset[int] | None:
    """Depth-first search over every work-pile rearrangement: None at the first one with
    local progress (a top that takes the Nerts top or a waste card, or an empty pile
    something can fill), else every card that is a top in some arrangement."""
    seen = {start}
    todo = [start]
    tops: set[int] = set()
    while todo:
        state = todo.pop()
        for pile in state:
            if not pile:
                if fillable:
                    return None
            elif pile[-1] in takers:
                return None
            else:
                tops.add(pile[-1])
        for i, src in enumerate(state):
            for p in range(len(src)):
                head = src[p]
                for j, dst in enumerate(state):
                    if j == i or (dst and head not in _CHILDREN[dst[-1]]):
                        continue
                    if not dst and p == 0:
                        continue  # a whole pile onto an empty one only swaps two piles
                    nxt = list(state)
                    nxt[i] = src[:p]
                    nxt[j] = dst + src[p:]
                    nxt.sort()
                    key = tuple(nxt)
                    if key not in seen:
                        seen.add(key)
                        todo.append(key)
    return frozenset(tops)
