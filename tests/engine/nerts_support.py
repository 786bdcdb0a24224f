"""Helpers shared by the Nerts rules and playout tests: small positions, an independent
brute-force "stuck" search, the invariants, what a seat may show, and random players."""

from __future__ import annotations

import itertools
import json
import random
import re
from collections import Counter
from operator import attrgetter
from typing import Any

from app.common.cards import Card, standard_deck
from app.nerts.rules.actions import NERTS, Draw, NertsAction, Recycle, ToFoundation, ToWork
from app.nerts.rules.events import NertsEvent
from app.nerts.rules.layout import NertsSeat
from app.nerts.rules.legal import legal_actions
from app.nerts.rules.options import NertsOptions
from app.nerts.rules.play import draw, recycle, to_work
from app.nerts.rules.round import NertsRound

# A seat that is never stuck (an ace on its Nerts pile is always playable), so that a
# small test position does not stall or end by N13 before the test is done.
ALIVE = NertsSeat.parse(nerts="5H AC", work=["KS", "KH", "KC", "KD"])

# Every house rule the engine knows (H2 x H3 x H4), for tests that cover each explicitly.
HOUSE_RULES = tuple(
    NertsOptions(draw=d, racing_spaces=rs, stall=sl) for d in (3, 1) for rs in (False, True) for sl in (True, False)
)

# Cards as (rank, suit) pairs: a set of those is built and compared in C, which keeps
# checking every seat's 52 cards after every action cheap enough for thousands of rounds.
_RANK_SUIT = attrgetter("rank", "suit")
DECK = frozenset(map(_RANK_SUIT, standard_deck()))
_CARD_TEXT = re.compile(r'"([A2-9TJQK][SHDC])"')  # a JSON string (value or key) that spells a card
_CARD_REPR = re.compile(r"'([A2-9TJQK][SHDC])'")  # the same in Python's repr (no card text has a quote)


def house_rule_id(options: NertsOptions) -> str:
    return (
        f"draw{options.draw}-{'racing' if options.racing_spaces else 'any'}-{'stall' if options.stall else 'nostall'}"
    )


def seat(nerts="", work=(), stock="", waste="") -> NertsSeat:
    return NertsSeat.parse(nerts, work, stock, waste)


def is_progress(a: NertsAction) -> bool:
    """N12's progress: a foundation play, or a Nerts or waste card onto a work pile."""
    return isinstance(a, ToFoundation) or (isinstance(a, ToWork) and isinstance(a.src, str))


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
            if is_progress(a):
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


def check_run(pile: tuple[Card, ...]) -> None:
    for lower, upper in itertools.pairwise(pile):
        assert upper.rank == lower.rank - 1 and upper.is_red != lower.is_red, pile


def check_seat_cards(
    st: NertsSeat, on_foundations: list[Card], dealt: frozenset[int] | None = None, checked: tuple = ()
) -> None:
    """Conservation for one seat: its 52 cards are each somewhere exactly once, in its
    layout or on the foundations; and its four work piles are runs (N6).

    For playouts, two shortcuts that keep it cheap: `dealt`, the ids of the 52 Card
    objects the seat was dealt (the caller keeps them alive): the same 52 objects, each
    once, are the seat's 52 cards (anything else, such as new Card values, is judged by
    value); and `checked`, work piles already found to be runs (a pile that is the very
    same tuple is not looked at again)."""
    cards = st.cards() + on_foundations
    if dealt is None or len(cards) != 52 or set(map(id, cards)) != dealt:
        assert len(cards) == 52 and set(map(_RANK_SUIT, cards)) == DECK, Counter(map(_RANK_SUIT, cards))
    assert len(st.work) == 4
    for p in st.work:
        if not any(p is q for q in checked):
            check_run(p)


def owned_foundation_cards(r: NertsRound) -> list[list[Card]]:
    """Each seat's cards on the foundations, from a full scan that also checks every
    pile is well formed: an ace, then one rank up in its suit, up to the king (N10)."""
    on_fnd: list[list[Card]] = [[] for _ in r.seats]
    for fpile in r.foundations:
        assert fpile, "no empty foundation pile"
        suit = fpile[0][0].suit
        for h, (card, owner) in enumerate(fpile):
            assert card.rank == h + 1 and card.suit == suit, fpile
            on_fnd[owner].append(card)
    return on_fnd


def check_invariants(r: NertsRound) -> None:
    """Every seat's 52 cards are somewhere exactly once (layout or foundations);
    foundations are built in suit from aces; work piles are runs."""
    on_fnd = owned_foundation_cards(r)
    for s, st in enumerate(r.seats):
        check_seat_cards(st, on_fnd[s])


def face_up(st: NertsSeat, options: NertsOptions) -> set[str]:
    """The cards of a layout anyone may see: the Nerts pile's top, every work card and
    the waste cards the draw lays open (its top three, or one under H2)."""
    return {
        str(c) for c in st.work[0] + st.work[1] + st.work[2] + st.work[3] + st.waste[-options.draw :] + st.nerts[-1:]
    }


def face_down(st: NertsSeat, options: NertsOptions) -> set[str]:
    """The cards of a layout nobody may see: the Nerts pile below its top, the stock and
    the waste below what the draw lays open."""
    return {str(c) for c in st.nerts[:-1] + st.stock + st.waste[: max(0, len(st.waste) - options.draw)]}


def card_names(value: Any, dump: bool = True) -> set[str]:
    """Every card a JSON value spells anywhere (a string value or a key). It is read
    from its JSON text, or (dump=False, about twice as fast) from its repr, which spells
    every string in quotes too."""
    return set(_CARD_TEXT.findall(json.dumps(value)) if dump else _CARD_REPR.findall(repr(value)))


def expected_seat_view(r: NertsRound, s: int, on_foundations: int | None = None) -> dict[str, Any]:
    """What seat s's view must be, built here from the full state (`on_foundations`, the
    seat's foundation cards, is counted from the foundations unless the caller has it)."""
    st = r.seats[s]
    if on_foundations is None:
        on_foundations = sum(1 for p in r.foundations for _c, o in p if o == s)
    return {
        "seat": s,
        "nerts_top": str(st.nerts[-1]) if st.nerts else None,
        "nerts_count": len(st.nerts),
        "work": [[str(c) for c in p] for p in st.work],
        "stock": len(st.stock),
        "waste": [str(c) for c in st.waste[-r.options.draw :]],
        "waste_count": len(st.waste),
        "on_foundations": on_foundations,
        "absent": s in r.absent,
    }


def check_seat_view(r: NertsRound, s: int, on_foundations: int | None = None, scan: bool = True) -> None:
    """`seat_view(s)` equals the view built here from the full state, which names only
    face-up cards: so the seat view names no face-down card and leaves none out. With
    `scan`, its whole JSON is also searched for card names, each of which must be face
    up in the seat's layout and none face down (no key or field outside the expected
    view can slip one out)."""
    view = r.seat_view(s)
    assert view == expected_seat_view(r, s, on_foundations), (s, view)
    if scan:
        names = card_names(view)
        st = r.seats[s]
        assert names <= face_up(st, r.options) and not names & face_down(st, r.options), (s, view)


# --------------------------------------------------------------------------- small positions


def fits(card: Card, top: Card) -> bool:
    """N6: the card may go on this top (one rank lower, the other colour)."""
    return card.rank == top.rank - 1 and card.is_red != top.is_red


def small_round(rng: random.Random, players: int, options: NertsOptions) -> NertsRound:
    """A small, not yet started round that a brute-force search exhausts: shared
    foundations of random heights and owners; per seat one to three Nerts cards, work
    piles of up to three run cards (now and then empty), a stock of up to nine and a
    waste of up to four. Most cards the foundations want are left out; in half the
    rounds all of them, every empty pile and most cards that would go on a work pile, so
    that stuck seats, stalls and stuck ends are common."""
    tight = rng.random() < 0.5
    piles: list[list[tuple[Card, int]]] = []
    for suit in "SHDC":
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            pile: list[tuple[Card, int]] = []
            for rank in range(1, rng.choice([1, 2, 3, 5, 8]) + 1):
                card = Card(rank, suit)
                free = [s for s in range(players) if all((card, s) not in p for p in piles)]
                pile.append((card, rng.choice(free)))
            piles.append(pile)
    wanted = {Card(1, s) for s in "SHDC"} | {Card(p[-1][0].rank + 1, p[-1][0].suit) for p in piles if len(p) < 13}
    seats = []
    for s in range(players):
        mine = {c for p in piles for c, o in p if o == s}
        deck = standard_deck()
        rng.shuffle(deck)
        pool = [c for c in deck if c not in mine and not (c in wanted and (tight or rng.random() < 0.9))]
        work = []
        for _ in range(4):
            run: list[Card] = []
            for _ in range(rng.choice([1, 2, 3] if tight else [0, 1, 1, 2, 3])):
                fit = [c for c in pool if not run or fits(c, run[-1])]
                if fit:
                    run.append(fit[0])
                    pool.remove(fit[0])
            work.append(run)
        if tight:  # and most cards that would go on a work pile left out too
            tops = [p[-1] for p in work if p]
            pool = [c for c in pool if not any(fits(c, t) for t in tops) or rng.random() < 0.1]
        nerts = [pool.pop() for _ in range(rng.randint(1, 3))]
        stock = [pool.pop() for _ in range(rng.randint(0, 9))]
        waste = [pool.pop() for _ in range(rng.randint(0, 4))]
        seats.append(NertsSeat.parse(nerts, work, stock, waste))
    return NertsRound.from_layout(seats, piles, options, started=False)


# --------------------------------------------------------------------------- random players


def random_action(r: NertsRound, rng: random.Random, seat: int) -> NertsAction | None:
    """A random legal action of the seat; None when it has none. So that rounds end
    (and cost little), a progress action (N12) nine times in ten when there is one, and
    among those one from the Nerts pile nine times in ten when there is one."""
    acts = r.legal_actions(seat)
    if not acts:
        return None
    good = [a for a in acts if is_progress(a)]
    if not good or rng.random() >= 0.9:
        return rng.choice(acts)
    from_nerts = [a for a in good if isinstance(a, ToWork | ToFoundation) and a.src == NERTS]
    return rng.choice(from_nerts if from_nerts and rng.random() < 0.9 else good)
