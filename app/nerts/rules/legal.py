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

__all__ = ["LegalMemo", "legal_actions"]


class LegalMemo:
    """Each seat's last legal actions, kept with the layout and the foundations they were
    made from: a round and every round made from it share one (`NertsRound.legal_memo`).
    The room asks every seat after a foundation play and the mover after any move; most
    seats' layouts, and most moves' foundations, are the very objects they were, so their
    answer is the same tuple (which also lets the room reuse its JSON). Also the
    foundations' accepting map, made once per foundations object."""

    __slots__ = ("_accepting", "_homes", "_kept")

    def __init__(self) -> None:
        # seat -> (layout, foundations, layout part, foundation plays, answer)
        self._kept: dict[int, tuple[NertsSeat, Foundations, LayoutPart, FoundationPlays, tuple[NertsAction, ...]]] = {}
        self._accepting: tuple[Foundations, dict[tuple[str, int], list[int]]] | None = None
        self._homes: tuple[Foundations, tuple[int, ...]] | None = None

    def home_counts(self, foundations: Foundations, players: int) -> tuple[int, ...]:
        """How many foundation cards each seat owns, made once per foundations object."""
        kept = self._homes
        if kept is None or kept[0] is not foundations or len(kept[1]) != players:
            counts = [0] * players
            for fpile in foundations:
                for _card, owner in fpile:
                    counts[owner] += 1
            kept = self._homes = (foundations, tuple(counts))
        return kept[1]

    def legal_actions(self, seat: int, st: NertsSeat, foundations: Foundations) -> tuple[NertsAction, ...]:
        kept = self._kept.get(seat)
        if kept is not None and kept[0] is st and kept[1] is foundations:
            return kept[4]
        same_layout = kept is not None and kept[0] is st
        layout = kept[2] if kept is not None and same_layout else _layout_part(seat, st)
        accepting = self._accepting
        if accepting is None or accepting[0] is not foundations:
            accepting = self._accepting = (foundations, _accepting(foundations))
        plays = _foundation_plays(seat, layout, accepting[1], len(foundations))
        if kept is not None and same_layout and kept[3] == plays:
            answer = kept[4]  # the foundations changed, but not for this seat: the same tuple
        else:
            answer = _assemble(layout, plays)
        self._kept[seat] = (st, foundations, layout, plays, answer)
        return answer


# A seat's legal actions in two parts: what its layout alone allows (draw or recycle, and
# for each source its top card and its moves onto work piles), kept while the layout is
# the same; and the foundation plays of each source, which also depend on the foundations.
LayoutPart = tuple[tuple[NertsAction, ...], tuple[tuple[Source, Card, tuple[NertsAction, ...]], ...]]
FoundationPlays = tuple[tuple[NertsAction, ...], ...]


def legal_actions(seat: int, st: NertsSeat, foundations: Foundations) -> tuple[NertsAction, ...]:
    """The seat's legal actions, computed afresh."""
    layout = _layout_part(seat, st)
    return _assemble(layout, _foundation_plays(seat, layout, _accepting(foundations), len(foundations)))


def _layout_part(seat: int, st: NertsSeat) -> LayoutPart:
    cycle: tuple[NertsAction, ...] = (Draw(seat),) if st.stock else (Recycle(seat),) if st.waste else ()
    sources: list[tuple[Source, tuple[int, ...]]] = []
    if st.nerts:
        sources.append((NERTS, (1,)))
    if st.waste:
        sources.append((WASTE, (1,)))
    for i, pile in enumerate(st.work):
        if pile:
            sources.append((i, tuple(range(1, len(pile) + 1))))
    parts = []
    for src, counts in sources:
        moves: list[NertsAction] = []
        for count in counts:
            head = _card_under_run(st, src, count)
            for dst in range(WORK_PILES):
                if dst != src and fits_on(head, st.work[dst]):
                    moves.append(ToWork(seat, src, dst, count))
        parts.append((src, _top(st, src), tuple(moves)))
    return cycle, tuple(parts)


def _foundation_plays(
    seat: int, layout: LayoutPart, accepting: dict[tuple[str, int], list[int]], piles: int
) -> FoundationPlays:
    """Per source of `layout`, its plays to every foundation pile that takes its top (an
    ace: a new pile, index `piles`)."""
    return tuple(
        tuple(
            ToFoundation(seat, src, pile)
            for pile in ((piles,) if top.rank == 1 else accepting.get((top.suit, top.rank), ()))
        )
        for src, top, _moves in layout[1]
    )


def _assemble(layout: LayoutPart, plays: FoundationPlays) -> tuple[NertsAction, ...]:
    """In the documented order: draw or recycle; then per source its foundation plays and
    its work-pile moves (shortest run first)."""
    out: list[NertsAction] = list(layout[0])
    for (_src, _top_card, moves), home in zip(layout[1], plays, strict=True):
        out.extend(home)
        out.extend(moves)
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
