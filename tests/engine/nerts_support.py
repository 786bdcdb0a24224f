"""Helpers shared by the Nerts rules and playout tests: small positions, an independent
brute-force "stuck" search, the invariants and random playouts."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator

from app.common.cards import Card, standard_deck
from app.nerts.rules.actions import Draw, NertsAction, Recycle, ToFoundation, ToWork
from app.nerts.rules.events import NertsEvent
from app.nerts.rules.layout import NertsSeat
from app.nerts.rules.legal import legal_actions
from app.nerts.rules.options import NertsOptions
from app.nerts.rules.play import draw, recycle, to_work
from app.nerts.rules.round import NertsRound

# A seat that is never stuck (an ace on its Nerts pile is always playable), so that a
# small test position does not stall or end by N13 before the test is done.
ALIVE = NertsSeat.parse(nerts="5H AC", work=["KS", "KH", "KC", "KD"])


def seat(nerts="", work=(), stock="", waste="") -> NertsSeat:
    return NertsSeat.parse(nerts, work, stock, waste)


def brute_force_stuck(st: NertsSeat, foundations, options: NertsOptions, limit: int = 200_000) -> bool | None:
    """Independent exhaustive search over the whole own state (stock order, waste, work
    piles) using the engine's legal actions and moves: True when no sequence of draws,
    recycles and work-to-work moves reaches a foundation play, a Nerts card leaving its
    pile or a waste card entering a work pile. None when over `limit` states."""
    seen = {st}
    todo = [st]
    while todo:
        cur = todo.pop()
        for a in legal_actions(0, cur, foundations):
            if isinstance(a, ToFoundation) or (isinstance(a, ToWork) and isinstance(a.src, str)):
                return False
            events: list[NertsEvent] = []
            if isinstance(a, Draw):
                nxt = draw(0, cur, options, events)
            elif isinstance(a, Recycle):
                nxt = recycle(0, cur, events)
            else:
                assert isinstance(a, ToWork)
                nxt = to_work(0, cur, a, options, events)
                if len(nxt.nerts) != len(cur.nerts):  # H3 filled the emptied pile
                    return False
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
                if len(seen) > limit:
                    return None
    return True


def check_invariants(r: NertsRound) -> None:
    """Every seat's 52 cards are somewhere exactly once (layout or foundations);
    foundations are built in suit from aces; work piles are runs."""
    on_fnd: list[list[Card]] = [[] for _ in r.seats]
    for fpile in r.foundations:
        suit = fpile[0][0].suit
        for h, (card, owner) in enumerate(fpile):
            assert card.rank == h + 1 and card.suit == suit
            on_fnd[owner].append(card)
    for s, st in enumerate(r.seats):
        assert Counter(st.cards() + on_fnd[s]) == Counter(standard_deck())
        assert len(st.work) == 4
        for p in st.work:
            for lower, upper in itertools.pairwise(p):
                assert upper.rank == lower.rank - 1 and upper.is_red != lower.is_red


def random_playout(
    seed: int, players: int, max_actions: int, options: NertsOptions | None = None
) -> Iterator[tuple[NertsRound, NertsRound, NertsAction, list[NertsEvent]]]:
    """Deal, start and play random legal actions, preferring progress a little so rounds
    end; yields (previous round, new round, action, events)."""
    rng = random.Random(seed)
    r = NertsRound.deal(seed, players, options).start()
    n = 0
    while r.end is None and n < max_actions:
        s = rng.randrange(players)
        acts = r.legal_actions(s)
        if not acts:
            continue
        good = [a for a in acts if isinstance(a, ToFoundation) or (isinstance(a, ToWork) and isinstance(a.src, str))]
        a = rng.choice(good) if good and rng.random() < 0.7 else rng.choice(acts)
        prev = r
        r, events = r.apply(a)
        n += 1
        yield prev, r, a, events
