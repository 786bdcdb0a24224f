"""Every legal action of one Nerts seat (N4-N7, N10), in a fixed order.

Built from the layout alone, plus the foundations for foundation plays, so the room and
the tests ask one function. Order: draw or recycle; then for the Nerts pile, the waste
and each work pile in turn, its foundation plays and its work-pile moves (shortest run
first). Foundation plays name their pile explicitly (an ace: len(foundations)), one for
every pile that takes the card, as Demon's do: with several decks, two piles of a suit
often show the same top, and a play to either is legal.
"""

from __future__ import annotations

from app.common.cards import Card
from app.nerts.rules.actions import NERTS, WASTE, Draw, NertsAction, Recycle, Source, ToFoundation, ToWork
from app.nerts.rules.layout import WORK_PILES, Foundations, NertsSeat
from app.nerts.rules.play import fits_on

__all__ = ["legal_actions"]


def legal_actions(seat: int, st: NertsSeat, foundations: Foundations) -> tuple[NertsAction, ...]:
    out: list[NertsAction] = []
    if st.stock:
        out.append(Draw(seat))
    elif st.waste:
        out.append(Recycle(seat))
    sources: list[tuple[Source, tuple[int, ...]]] = []
    if st.nerts:
        sources.append((NERTS, (1,)))
    if st.waste:
        sources.append((WASTE, (1,)))
    for i, pile in enumerate(st.work):
        if pile:
            sources.append((i, tuple(range(1, len(pile) + 1))))
    accepting = _accepting(foundations)
    new_pile = (len(foundations),)
    for src, counts in sources:
        top = _top(st, src)
        for pile_index in new_pile if top.rank == 1 else accepting.get((top.suit, top.rank), ()):
            out.append(ToFoundation(seat, src, pile_index))
        for count in counts:
            head = _card_under_run(st, src, count)
            for dst in range(WORK_PILES):
                if dst != src and fits_on(head, st.work[dst]):
                    out.append(ToWork(seat, src, dst, count))
    return tuple(out)


def _accepting(foundations: Foundations) -> dict[tuple[str, int], list[int]]:
    """(suit, rank) -> the foundation piles that take that card, in pile order."""
    out: dict[tuple[str, int], list[int]] = {}
    for i, fpile in enumerate(foundations):
        top = fpile[-1][0]
        if top.rank < 13:
            out.setdefault((top.suit, top.rank + 1), []).append(i)
    return out


def _top(st: NertsSeat, src: Source) -> Card:
    return _card_under_run(st, src, 1)


def _card_under_run(st: NertsSeat, src: Source, count: int) -> Card:
    """The card that heads the top `count` cards of a (non-empty) source."""
    if src == NERTS:
        return st.nerts[-1]
    if src == WASTE:
        return st.waste[-1]
    assert isinstance(src, int)
    return st.work[src][-count]
