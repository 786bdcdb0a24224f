"""Devil's Grip hints, par and certified solutions.

Three questions, one search (`solver`, on a compact position):

* `hint(view)`: the next action for a player, from a `GripView` — what a player with
  perfect memory knows, never the order of stock cards not yet turned.
* `par(number, passes)`: the score reached by following `hint` from the deal's start.
* `solve(state)`: with full information (it may see everything), a line that wins.

How `hint` decides
------------------
* **The stock's order is known** (after the first pass): a perfect-information problem.
  Unlimited passes: depth-first search for a win over macro moves (`solver.dfs`) in
  several move orders within the budget. A pass limit: beam search for the fewest cards
  left (`solver.beam`). The best line found becomes the *plan*, remembered under the
  view it expects next (`PlanMemo`), so following one's own hints costs nothing until a
  view differs from what the plan expected. A plan not known to be the best is searched
  again now and then (`_search_again`) and replaced when the new line leaves fewer cards.
* **Unlimited passes, order unknown** (first pass): deal. Dealing through the first pass
  without playing loses nothing: after the redeal the grid is unchanged and the stock
  turns in exactly the same order as at the start, and now every card's order is known.
* **A limit of 2 or more passes, order unknown**: play the talon card when it fits, else
  deal; no whole-pile move, which would pull an unseen card blind (`_talon_only_hint`).
* **One pass, order unknown**: the plays (each talon play, each whole-pile move; deal
  only when there is none) are scored over sampled orders of the unseen cards (seeded),
  each followed by one quick line with that order; the lowest mean score wins.

What it may spend is the caller's `Budget` (`budget.py`): the engine reads no clock.
Given a `NodeBudget` (and `seed`) the answer depends only on the view and the memo; the
server passes a clock budget (`app.grip.service.clock`), and the search stops when it is
spent and answers with the best line found so far (``complete=False``).

The `PlanMemo` belongs to the caller too (the advisor's worker process keeps one for its
life; `play_hints` one per run): no state lives in this module between calls.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from app.common.cards import Card
from app.grip.rules.budget import Budget
from app.grip.rules.solver import Move, Pos, SearchResult, beam, dfs, greedy_left, to_actions, variants_for
from app.grip.rules.state import (
    DealThree,
    GridToGrid,
    GripAction,
    GripState,
    Redeal,
    TalonToGrid,
)
from app.grip.rules.view import GripView

SAMPLES = 16  # sampled stock orders per decision in a one-pass deal
# A node budget counts this many per beam expansion: what an expansion costs in
# depth-first nodes (measured, CPU time: about 57,000 nodes and 22,000 expansions a second).
BEAM_NODES_PER_EXPANSION = 3
ESTIMATE_NODES = 300  # the unlimited first pass's expected score: a short search


@dataclass(frozen=True)
class Hint:
    action: GripAction | None  # None exactly when the deal is over
    expected_score: float  # what the engine expects to finish with
    complete: bool  # False when the budget ran out and this is a weaker answer


@dataclass(frozen=True)
class Plan:
    """The rest of a line: real actions, the score it ends with, and whether the search
    behind it finished (a win, or the whole tree searched)."""

    actions: tuple[GripAction, ...]
    left: int
    complete: bool


class PlanMemo:
    """Plans keyed by the view they expect next (bounded, least recently used out).

    A memo keyed by the view is still a function of the view: it never holds a hidden
    card's order, because a plan is made only when the whole order is known."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._plans: OrderedDict[GripView, Plan] = OrderedDict()

    def get(self, view: GripView) -> Plan | None:
        plan = self._plans.get(view)
        if plan is not None:
            self._plans.move_to_end(view)
        return plan

    def put(self, view: GripView, plan: Plan) -> None:
        self._plans[view] = plan
        self._plans.move_to_end(view)
        while len(self._plans) > self.size:
            self._plans.popitem(last=False)

    def clear(self) -> None:
        self._plans.clear()


def _pos(state: GripState) -> Pos:
    return Pos.of(state.grid, state.talon, state.stock, state.passes_used, state.passes_allowed)


def search(state: GripState, budget: Budget, first_variant: int = 0) -> SearchResult:
    """Full-information search within `budget`. Unlimited passes: depth-first search for
    a win, each move order in turn with an equal share of the nodes, stopping at the first
    win; the best line over all of them. A pass limit: beam search (`solver.beam`)."""
    pos = _pos(state)
    if state.passes_allowed is not None:
        if budget.counted:
            return beam(pos, budget.nodes // BEAM_NODES_PER_EXPANSION, None, stop=budget.exhausted)
        return beam(pos, budget.nodes // BEAM_NODES_PER_EXPANSION, budget.left)
    variants = variants_for(state.passes_allowed)
    share = max(1, budget.nodes // len(variants))
    best: SearchResult | None = None
    spent = 0
    deadline = budget.exhausted  # a counted budget's is False, or its owner's safety stop
    for i in range(len(variants)):
        if i and budget.exhausted():
            break
        r = dfs(pos, share, deadline, variant=variants[(first_variant + i) % len(variants)])
        spent += r.nodes
        if best is None or r.left < best.left:
            best = r
        if r.exhausted:
            break
    assert best is not None
    best.nodes = spent
    return best


def line_actions(state: GripState, line: list[Move]) -> tuple[GripAction, ...]:
    """Expand a line of macro moves into real actions (checked by applying them)."""
    out: list[GripAction] = []
    for m in line:
        for a in to_actions(state, m):
            state, _ = state.apply(a)
            out.append(a)
    return tuple(out)


def _follow(state: GripState, plan: Plan, memo: PlanMemo) -> Hint:
    action = plan.actions[0]
    rest = plan.actions[1:]
    if rest:
        nxt, _ = state.apply(action)
        memo.put(GripView.of(nxt), Plan(rest, plan.left, plan.complete))
    return Hint(action, float(plan.left), plan.complete)


RESEARCH_EVERY = 6  # a pass limit of 2 or more: search again at every 6th card left


def _search_again(state: GripState, plan: Plan) -> bool:
    """Whether to search again rather than follow a remembered plan that is not known to
    be the best (the better of the two lines is kept).

    Unlimited passes: always (each search starts the move orders from another one). A
    pass limit of 2 or more: at the plan's redeals, and before a play when the score is a
    multiple of `RESEARCH_EVERY`: fewer cards are left, so the same budget buys a wider
    beam. Measured (3 passes, deals 1-40, node budget 6000 a hint): never, median 6.0 and
    mean 7.4 cards left; at redeals, 5.0 and 5.4; also every 10th card, 5.0 and 4.35;
    every 6th, 4.0 and 3.9. With one pass it changed nothing (37.0 either way)."""
    if plan.complete or plan.left == 0:
        return False
    if state.passes_allowed is None:
        return True
    if state.passes_allowed < 2:
        return False
    nxt = plan.actions[0]
    if isinstance(nxt, Redeal):
        return True
    return not isinstance(nxt, DealThree) and state.score() % RESEARCH_EVERY == 0


def _known_order_hint(view: GripView, budget: Budget, memo: PlanMemo) -> Hint:
    state = view.as_state()
    cached = memo.get(view)
    if cached is not None and not _search_again(state, cached):
        return _follow(state, cached, memo)
    r = search(state, budget, first_variant=len(state.stock))
    plan = Plan(line_actions(state, r.line), r.left, r.exhausted or r.left == 0)
    if cached is not None and cached.left <= plan.left:
        plan = cached
    if not plan.actions:  # the search could not even start: fall back on the rule's hint
        action = state.hint()
        return Hint(action, float(state.score()), False)
    return _follow(state, plan, memo)


def _candidates(state: GripState) -> list[GripAction]:  # never empty while the order is unknown
    """The actions worth comparing: each talon play (one per target card) and each
    whole-pile move (one per moving bottom card); deal or redeal only when there is no
    play. Why never "wait": with the order unknown, a card pulled now is as unknown as
    one pulled later, and the sampled searches, which each see one whole order, value
    waiting for a good card that a real player cannot see coming (measured, deals 1-8,
    one pass: mean 39.8 cards left with waiting allowed, greedy's 34.3)."""
    out: list[GripAction] = []
    grid = state.grid
    tops: dict[Card, int] = {}
    for i, pile in enumerate(grid):
        if pile:
            tops.setdefault(pile[-1], i)
    if state.talon:
        t = state.talon[-1]
        for top, i in tops.items():
            if top.suit == t.suit and top.rank + 3 == t.rank:
                out.append(TalonToGrid(i))
                break
    moved: set[Card] = set()
    for src, pile in enumerate(grid):
        if pile and pile[0] not in moved:
            for top, dst in tops.items():
                if dst != src and top.suit == pile[0].suit and top.rank + 3 == pile[0].rank:
                    out.append(GridToGrid(src, dst, len(pile)))
                    moved.add(pile[0])
                    break
    if out:
        return out
    if state.stock:
        out.append(DealThree())
    elif state.can_redeal:
        out.append(Redeal())
    return out


def _sampled_hint(view: GripView, seed: int, budget: Budget) -> Hint:
    """One pass, order unknown: score each candidate over sampled orders, each followed
    by one quick line (`solver.greedy_left`). Measured (deals 1-40, one pass): with
    4 samples and 100-node searches instead of quick lines, mean 37.0 cards left in 40 s;
    4 quick lines, the same in 4 s; 16 quick lines, 36.5 in 23 s."""
    rng = random.Random(seed)
    stocks = []
    for _ in range(SAMPLES):
        order = list(view.unseen)
        rng.shuffle(order)
        stocks.append(tuple(order))
    states = [view.as_state(s) for s in stocks]
    cands = _candidates(states[0])
    if len(cands) == 1:
        return Hint(cands[0], _estimate(view, seed), False)
    totals = [0.0] * len(cands)
    done = 0
    for st in states:
        row: list[int] = []
        for c in cands:
            if done and budget.exhausted():
                break  # this sample is incomplete: leave it out
            child, _ = st.apply(c)
            if child.is_over():
                row.append(child.score())
            else:
                row.append(greedy_left(_pos(child)))
        if len(row) < len(cands):
            break
        totals = [a + b for a, b in zip(totals, row)]
        done += 1
    best = min(range(len(cands)), key=lambda j: (totals[j], j))
    return Hint(cands[best], totals[best] / done, done == SAMPLES)


def _estimate(view: GripView, seed: int) -> float:
    """Order unknown: a rough figure from one sampled order of the unseen cards. Unlimited
    passes: a short depth-first search (the one that will run once the order is known);
    a pass limit: one quick line (`solver.greedy_left`; a search there costs too
    much for every first-pass hint)."""
    order = list(view.unseen)
    random.Random(seed).shuffle(order)
    pos = _pos(view.as_state(tuple(order)))
    if view.passes_allowed is None:  # the search that will run, briefly: it wins most deals
        return float(dfs(pos, ESTIMATE_NODES, None).left)
    return float(greedy_left(pos))


def _talon_only_hint(view: GripView, seed: int) -> Hint:
    """A pass limit of 2 or more, first pass: play the talon card when it fits, never a
    whole pile, else deal. A whole-pile move now pulls an unseen card blind; kept for
    later, when the order is known, it pulls the right card at the right moment.
    Measured (deals 1-30, 3 passes, then the same beam search): the rule's way in the
    first pass (talon and whole piles) median 8.5 cards left, talon only 5.0, whole piles
    only 6.0, no play at all 6.0."""
    state = view.as_state(view.unseen)
    if state.talon:
        t = state.talon[-1]
        for i, pile in enumerate(state.grid):
            if pile and pile[-1].suit == t.suit and pile[-1].rank + 3 == t.rank:
                return Hint(TalonToGrid(i), _estimate(view, seed), False)
    return Hint(DealThree(), _estimate(view, seed), False)


def hint(view: GripView, budget: Budget, memo: PlanMemo | None, *, seed: int = 0) -> Hint:
    """The next action for `view` (None exactly when the deal is over) within `budget`,
    following and filling the caller's `memo`; see the module docstring. `memo=None`
    searches afresh every time."""
    if not isinstance(view, GripView):
        raise TypeError("hint() takes a GripView (GripView.of(state)), never a state")
    if view.ended:
        return Hint(None, float(view.score()), True)
    if view.order_known:
        return _known_order_hint(view, budget, memo if memo is not None else PlanMemo())
    if view.passes_allowed is None:
        return Hint(DealThree(), _estimate(view, seed), False)
    if view.passes_allowed >= 2:
        return _talon_only_hint(view, seed)
    return _sampled_hint(view, seed, budget)


def play_hints(state: GripState, budget: Callable[[], Budget], *, seed: int = 0) -> Iterator[tuple[GripState, Hint]]:
    """Follow hints from `state` to the end, each within a fresh `budget()`; yields
    (state, hint) before each action. Uses a memo of its own, so a run depends only on
    its arguments."""
    memo = PlanMemo()
    while True:
        h = hint(GripView.of(state), budget(), memo, seed=seed)
        yield state, h
        if h.action is None:
            return
        state, _ = state.apply(h.action)


def par(number: int, passes: int | None, budget: Callable[[], Budget], *, seed: int = 0) -> int:
    """Par of a deal (number + pass limit): the score reached by following the hints from
    the deal's start, each hint within a fresh `budget()`. With node budgets the figure
    does not depend on the machine's speed; with clock budgets a slow or busy machine may
    find a weaker line."""
    start = GripState.deal(number, passes)
    final = start
    for final, _hint in play_hints(start, budget, seed=seed):  # noqa: B007 (the last state is the result)
        pass
    return final.score()


def solve(state: GripState, budget: Budget) -> list[GripAction] | None:
    """Full information (it sees the stock's order): a line of actions from `state` that
    wins (score 0), or None if none was found within `budget`. Restarts each move order
    with a growing node share until a win or the budget is spent (a counted budget: its
    nodes; otherwise when it says it is exhausted)."""
    if state.is_over():
        return [] if state.won else None
    left_nodes = budget.nodes if budget.counted else None
    deadline = budget.exhausted
    pos = _pos(state)
    share = 5000
    while True:
        for v in variants_for(state.passes_allowed):
            if budget.exhausted():
                return None
            n = share if left_nodes is None else min(share, left_nodes)
            if n <= 0:
                return None
            r = dfs(pos, n, deadline, variant=v)
            if left_nodes is not None:
                left_nodes -= r.nodes
            if r.left == 0:
                return list(line_actions(state, r.line))
            if r.exhausted:
                return None
        share *= 4
