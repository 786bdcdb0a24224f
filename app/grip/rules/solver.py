"""Devil's Grip search on a compact position: depth-first search for a win, beam search
for the fewest cards left, and a quick greedy line for estimates.

Why a separate representation: Python is slow, and a search visits thousands of
positions per hint. Here a card is an int ``suit * 16 + rank`` (so a card fits on another
exactly when it is 3 greater: rule 3); the grid is two sorted byte strings, the piles'
bottom cards and their top cards (see `Pos` for why that is enough; the cells' places do
not matter either, swaps being free, rule 5); and the stock and talon are one byte string
``seq`` = talon bottom..top followed by the stock in turning order, with a pointer ``p`` =
the talon's length. A deal moves ``p`` on by three; a redeal sets it to 0 (rule 9: the
talon turned over is the same sequence again).

Moves of the search ("macro moves"): walk the talon cycle to a reachable pointer ``q``
(deals and at most one redeal: later passes repeat the same pointers), then either play
the talon top onto a pile, or move a whole pile onto another, which pulls the stock top
(or, with the stock empty, the talon top) into the emptied cell (rule 7). Every macro move
brings exactly one card in, so depth = cards brought in. Part-pile moves and swaps are
left out: they never bring a card in, and a part-pile move only trades the tops of two
piles, leaving the tops and the bottoms the same multisets (see `GripState.is_over`).
`to_actions` turns a macro move back into the real actions.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Union

from app.common.cards import SUITS, Card
from app.grip.rules.state import (
    DealThree,
    GridToGrid,
    GripAction,
    GripState,
    Redeal,
    TalonToGrid,
)

_SUIT = {s: i for i, s in enumerate(SUITS)}

# A macro move: (q, redeal, kind, card). kind 0: the talon top (= card) onto a top card-3;
# kind 1: a whole pile with bottom `card` onto a top card-3.
Move = tuple[int, bool, int, int]
# A beam line, newest move first: (move, the line before it), None at the root.
Link = Union[tuple[Move, "Link"], None]


def enc(card: Card) -> int:
    return _SUIT[card.suit] * 16 + card.rank


def dec(code: int) -> Card:
    return Card(code & 15, SUITS[code >> 4])


@dataclass(frozen=True)
class Pos:
    """A compact position. ``bottoms`` and ``tops`` are the sorted bytes of the piles'
    bottom and top cards, ``seq`` the bytes of talon + stock in turning order, ``p`` the
    talon's length, ``allowed`` the pass limit (None = unlimited).

    Why bottoms and tops apart, without pairing them into piles: a pile is a chain, and
    every play the search makes depends only on which cards are tops (a card goes on a
    top) and which are bottoms (a whole pile whose bottom is b goes on a top b-3, always
    another pile since a pile's top is never below its bottom). So positions that differ
    only in how tops pair with bottoms are the same to the search, and any real grid with
    these multisets can play the same line.
    """

    bottoms: bytes
    tops: bytes
    seq: bytes
    p: int
    used: int
    allowed: int | None

    @classmethod
    def of(
        cls,
        grid: Sequence[tuple[Card, ...]],
        talon: Sequence[Card],
        stock: Sequence[Card],
        used: int,
        allowed: int | None,
    ) -> Pos:
        """From card tuples (stock with its top last, as in `GripState`)."""
        b = bytes(sorted(enc(p[0]) for p in grid if p))
        t = bytes(sorted(enc(p[-1]) for p in grid if p))
        seq = bytes(enc(c) for c in talon) + bytes(enc(c) for c in reversed(stock))
        return cls(b, t, seq, len(talon), used, allowed)

    def key(self) -> bytes:
        """For the transposition table: bytes, which the garbage collector never scans
        (a table of tuples made its full collections slow)."""
        used = self.used if self.allowed is not None else 0
        return b"".join((self.bottoms, b"|", self.tops, b"|", self.seq, bytes((self.p, used))))


def reachable(n: int, p: int, used: int, allowed: int | None) -> list[tuple[int, bool]]:
    """Pointers reachable by deals (and one redeal when allowed), nearest first."""
    out: list[tuple[int, bool]] = []
    seen: set[int] = set()
    q = p
    while True:
        out.append((q, False))
        seen.add(q)
        if q >= n:
            break
        q = min(q + 3, n)
    if n and (allowed is None or used < allowed):
        q = 0
        while q not in seen:
            out.append((q, True))
            seen.add(q)
            if q >= n:
                break
            q = min(q + 3, n)
    return out


UNLIMITED_VARIANTS = (0, 1, 2, 3)
LIMITED_VARIANTS = (5, 6, 4)


def variants_for(allowed: int | None) -> tuple[int, ...]:
    """The move orders worth trying under a pass limit (see `macro_moves`)."""
    return UNLIMITED_VARIANTS if allowed is None else LIMITED_VARIANTS


def macro_moves(pos: Pos, variant: int = 0) -> list[Move]:
    """Every macro move, best-looking first: the order is the search's heuristic.

    Measured on deals 1-100 (unlimited passes, 5000 nodes each), depth-first search wins
    76-78 deals with the best single order, but 96 when four orders each get a try: the
    orders fail on different deals. So there are several orders (`variant`):

    * 0: talon plays and pulls of base cards (2, 3, 4: they can only enter by a pull)
      nearest along the cycle first, then other pulls; whole piles by ascending bottom;
    * 1: the same with whole piles by descending bottom;
    * 2: classes blended with the distance along the cycle;
    * 3: by class only (every talon play before every pull);
    * 4-6, for a pass limit, where a redeal spends a pass: nothing after a redeal before
      everything in this pass; then 4 as 0, 5 simply nearest first, 6 as 0 but pulls of
      cards that will fit a pile count with the base cards. (With full information and
      3 passes, 1000 nodes, deals 1-30: median score 25 for order 0, 12 for order 5.)
    """
    seq = pos.seq
    n = len(seq)
    if not n:
        return []
    tops = pos.tops
    movable = sorted({b for b in pos.bottoms if b & 15 >= 5 and (b - 3) in tops}, reverse=variant == 1)
    scored: list[tuple[tuple[int, ...], Move]] = []
    for cost, (q, red) in enumerate(reachable(n, pos.p, pos.used, pos.allowed)):
        if q:
            t = seq[q - 1]
            if t & 15 >= 5 and (t - 3) in tops:
                scored.append((_key(variant, 0, cost, red), (q, red, 0, t)))
        if movable:
            f = seq[q] if q < n else seq[q - 1]
            if f & 15 <= 4:
                k = 1  # a base card: it can enter no other way
            elif (f - 3) in tops:
                k = 2  # it will fit a pile
            else:
                k = 3
            key = _key(variant, k, cost, red)
            for b in movable:
                scored.append((key, (q, red, 1, b)))
    scored.sort(key=lambda x: x[0])
    return [m for _, m in scored]


def _key(variant: int, k: int, cost: int, red: bool) -> tuple[int, ...]:
    if variant == 4:
        return (red, 0 if k <= 1 else 1, cost, k)
    if variant == 5:
        return (red, cost, k)
    if variant == 6:
        return (red, 0 if k <= 2 else 1, cost, k)
    if variant <= 1:
        return (0 if k <= 1 else 1, cost, k)
    if variant == 2:
        return (k + cost // 3, k)
    return (k, cost)


def _remove(sorted_bytes: bytes, x: int) -> bytes:
    i = sorted_bytes.index(x)
    return sorted_bytes[:i] + sorted_bytes[i + 1 :]


def _insert(sorted_bytes: bytes, x: int) -> bytes:
    i = bisect_left(sorted_bytes, x)
    return sorted_bytes[:i] + bytes((x,)) + sorted_bytes[i:]


def play(pos: Pos, move: Move) -> Pos:
    """The position after a macro move."""
    q, red, kind, c = move
    seq = pos.seq
    if kind == 0:
        tops = _insert(_remove(pos.tops, c - 3), c)
        return Pos(pos.bottoms, tops, seq[: q - 1] + seq[q:], q - 1, pos.used + red, pos.allowed)
    if q < len(seq):
        f = seq[q]
        seq = seq[:q] + seq[q + 1 :]
        p = q
    else:
        f = seq[q - 1]
        seq = seq[: q - 1] + seq[q:]
        p = q - 1
    bottoms = _insert(_remove(pos.bottoms, c), f)
    tops = _insert(_remove(pos.tops, c - 3), f)
    return Pos(bottoms, tops, seq, p, pos.used + red, pos.allowed)


class OutOfBudget(Exception):
    pass


@dataclass
class SearchResult:
    line: list[Move]  # macro moves of the best line found
    left: int  # cards out of the grid at its end
    nodes: int
    exhausted: bool  # the whole tree was searched: `left` is the best possible


class _Best:
    """The best line `dfs` has found so far. An object, not two variables the search
    rebinds (`nonlocal`): with those, or with two one-element lists, the same search ran
    25-30% slower on CPython 3.11 (measured in one process, same nodes visited)."""

    __slots__ = ("left", "line")

    def __init__(self, left: int) -> None:
        self.left = left
        self.line: list[Move] = []


def dfs(pos: Pos, node_budget: int, deadline: Callable[[], bool] | None = None, variant: int = 0) -> SearchResult:
    """Depth-first search with a transposition table for a line that brings every card in;
    keeps the best line found so far (fewest cards left) when the budget runs out.
    `deadline` is an optional callable returning True when the budget is spent."""
    seen: set[bytes] = set()
    best = _Best(len(pos.seq) + 1)
    path: list[Move] = []
    nodes = 0

    def rec(pos: Pos) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > node_budget or (deadline is not None and (nodes & 63) == 0 and deadline()):
            raise OutOfBudget
        left = len(pos.seq)
        if left < best.left:
            best.left = left
            best.line = list(path)
            if left == 0:
                return True
        for m in macro_moves(pos, variant):
            child = play(pos, m)
            k = child.key()
            if k in seen:
                continue
            seen.add(k)
            path.append(m)
            if rec(child):
                return True
            path.pop()
        return False

    exhausted = False
    try:
        rec(pos)
        exhausted = True
    except OutOfBudget:
        pass
    return SearchResult(best.line, best.left, nodes, exhausted or best.left == 0)


# ------------------------------------------------------------------ back to real actions


def _find(grid: Sequence[tuple[Card, ...]], card: Card, end: int) -> int:
    for i, pile in enumerate(grid):
        if pile and pile[end] == card:
            return i
    raise AssertionError(f"no pile with {card} at {end}")


def to_actions(state: GripState, move: Move) -> list[GripAction]:
    """The real actions of one macro move from `state` (deals, a redeal, then the play)."""
    q, red, kind, c = move
    out: list[GripAction] = []
    stock, talon = len(state.stock), len(state.talon)
    if red:
        while stock:
            d = min(3, stock)
            stock -= d
            talon += d
            out.append(DealThree())
        out.append(Redeal())
        stock, talon = talon, 0
    while talon != q:
        d = min(3, stock)
        if d == 0:
            raise AssertionError("pointer not reachable")
        stock -= d
        talon += d
        out.append(DealThree())
    if kind == 0:
        out.append(TalonToGrid(_find(state.grid, dec(c - 3), -1)))
    else:
        src = _find(state.grid, dec(c), 0)
        out.append(GridToGrid(src, _find(state.grid, dec(c - 3), -1), len(state.grid[src])))
    return out


# ------------------------------------------------------------------ beam search

BEAM_MAX = 200


Ranked = tuple[int, int, int, int, int, Move]  # (passes used, pointer, class, order, parent, move)


def _rank_moves(st: Pos, i: int, out: list[Ranked]) -> None:
    """Append every macro move of `st` with its child's rank: (passes used, talon
    pointer, then talon plays before pulls of base cards before other pulls, then the
    order found), without playing it. The same moves as `macro_moves`, built leaner."""
    seq = st.seq
    n = len(seq)
    if not n:
        return
    tops = st.tops
    movable = sorted({b for b in st.bottoms if b & 15 >= 5 and (b - 3) in tops})
    for q, red in reachable(n, st.p, st.used, st.allowed):
        used = st.used + red
        if q:
            t = seq[q - 1]
            if t & 15 >= 5 and (t - 3) in tops:
                out.append((used, q - 1, 0, len(out), i, (q, red, 0, t)))
        if movable:
            f = seq[q] if q < n else seq[q - 1]
            k = 1 if f & 15 <= 4 else (2 if (f - 3) in tops else 3)
            p = q if q < n else q - 1
            for b in movable:
                out.append((used, p, k, len(out), i, (q, red, 1, b)))


def beam(
    pos: Pos,
    max_expansions: int,
    remaining: Callable[[], float] | None = None,
    *,
    stop: Callable[[], bool] | None = None,
) -> SearchResult:
    """Beam search for a pass limit: level by level (every macro move brings one card
    in, so a level's positions all have the same score), keep the positions that have
    spent the least of the cycle (fewest passes used, then the talon pointer furthest
    back): they have the most chances left.

    Why not depth-first search here: with a pass limit the question is how *few* cards
    stay out, not whether a line wins, and depth-first search spends its nodes
    re-ordering the last moves of one line. Measured from the positions where a 3-pass
    deal's order becomes known (deals 1-30, talon plays only in the first pass): DFS
    5000 nodes median 12 cards left; beam of width 10 median 6, 20: 5, 40: 4.5.

    The width adapts to the budget: `max_expansions` positions expanded in all (the
    deterministic budget), or, when `remaining` (a callable giving the seconds left) is
    given, what is left allows at the rate measured so far (any unit: a clock budget's
    is seconds). When the budget is
    spent the beam narrows to one: a greedy finish, never no answer. `stop`, asked once
    a level, is a counted budget's `exhausted` (its owner's safety stop, which raises)."""
    level: list[tuple[Pos, Link]] = [(pos, None)]
    expansions = 0
    best_left = len(pos.seq)
    best_link: Link = None
    start_left = remaining() if remaining is not None else 0.0
    width = BEAM_MAX
    while level:
        if stop is not None and stop():
            break
        # A child's rank follows from the move alone (passes used, talon pointer), so
        # rank every move first and play only until `width` distinct children are found.
        ranked: list[Ranked] = []
        for i, (st, _link) in enumerate(level):
            if i and remaining is not None and remaining() <= 0:
                break  # out of time in the middle of a level: rank what there is
            expansions += 1
            _rank_moves(st, i, ranked)
        if not ranked:
            break
        ranked.sort()
        children: dict[bytes, tuple[Pos, Link]] = {}
        for _, _, _, _, i, m in ranked:
            st, link = level[i]
            c = play(st, m)
            k = c.key()
            if k not in children:
                children[k] = (c, (m, link))
                if len(children) >= width:
                    break
        nxt = list(children.values())
        best_left = len(nxt[0][0].seq)
        best_link = nxt[0][1]
        levels_left = max(1, best_left - 4)
        if remaining is None:
            width = (max_expansions - expansions) // levels_left
        else:
            left_s = remaining()
            per = (start_left - left_s) / expansions if expansions else 0.0
            # keep time for a greedy finish (one expansion a level)
            width = int(left_s / (per * levels_left)) - 1 if per > 0 else BEAM_MAX
        width = max(1, min(BEAM_MAX, width))
        level = nxt[:width]
    line: list[Move] = []
    while best_link is not None:
        line.append(best_link[0])
        best_link = best_link[1]
    line.reverse()
    return SearchResult(line, best_left, expansions, False)


def greedy_left(pos: Pos) -> int:
    """Cards left after one quick line: at each step the nearest talon play or pull of a
    base card along the cycle, else the nearest pull of any card (the first line of
    order 5 of `macro_moves`, without listing every move). For estimates only."""
    while pos.seq:
        seq = pos.seq
        n = len(seq)
        tops = pos.tops
        movable = [b for b in pos.bottoms if b & 15 >= 5 and (b - 3) in tops]
        chosen = fallback = None
        for q, red in reachable(n, pos.p, pos.used, pos.allowed):
            if q:
                t = seq[q - 1]
                if t & 15 >= 5 and (t - 3) in tops:
                    chosen = (q, red, 0, t)
                    break
            if movable:
                f = seq[q] if q < n else seq[q - 1]
                if f & 15 <= 4:
                    chosen = (q, red, 1, movable[0])
                    break
                if fallback is None:
                    fallback = (q, red, 1, movable[0])
        move = chosen or fallback
        if move is None:
            break
        pos = play(pos, move)
    return len(pos.seq)
