"""What a Demon seat may do: the legal actions of a layout, built from their parts.

The parts are split by what they depend on, because the server asks every seat's legal
actions after every move and `RoundAnalysis` keeps each part while what it depends on
stays the same object:

* the tableau moves depend on the seat's tableau alone (a draw keeps it): `tableau_moves`;
* the draw or recycle and the waste card's tableau moves on the seat's layout:
  `layout_moves`;
* the foundation plays on which piles accept which card, i.e. on the foundations:
  `accepting_piles`, then `foundation_piles` per card.

`legal_answer` puts them together in `DemonRound.legal_actions`'s order.
"""

from __future__ import annotations

from app.common.cards import Card
from app.demon.rules.actions import WASTE, DemonAction, Draw, Recycle, ToFoundation, ToTableau
from app.demon.rules.layout import Foundations, Pile, SeatState

__all__ = [
    "Accepting",
    "LayoutMoves",
    "Plays",
    "Source",
    "Target",
    "accepting_piles",
    "foundation_piles",
    "foundation_plays",
    "layout_moves",
    "legal_answer",
    "pile_targets",
    "tableau_moves",
    "takes",
]

# (pile, the rank it takes, whether that card must be black; None: an empty pile, any king)
Target = tuple[int, int, bool | None]
# (the waste or a pile, its top card, its tableau moves)
Source = tuple[int | str, Card, tuple[ToTableau, ...]]
# (the draw or recycle, if any; the sources: the waste first, then the piles)
LayoutMoves = tuple[tuple[DemonAction, ...], tuple[Source, ...]]
# (suit, rank) -> the foundation piles that accept that card now
Accepting = dict[tuple[str, int], tuple[int, ...]]
# (source, foundation pile) of each legal foundation play
Plays = tuple[tuple[int | str, int], ...]


def pile_targets(tableau: tuple[Pile, ...]) -> tuple[Target, ...]:
    """Rule 8, per destination pile: (pile, the rank it takes, whether that card must be
    black); an empty pile takes any king (None)."""
    targets: list[Target] = []
    for j, dp in enumerate(tableau):
        if dp.up:
            top = dp.up[-1]
            targets.append((j, top.rank - 1, top.is_red))
        elif not dp.down:
            targets.append((j, 13, None))
    return tuple(targets)


def takes(card: Card, wanted: int, black: bool | None) -> bool:
    """Whether `card` fits a target of `pile_targets`."""
    return card.rank == wanted and (black is None or card.is_red != black)


def tableau_moves(seat: int, tableau: tuple[Pile, ...]) -> tuple[tuple[Target, ...], tuple[Source, ...]]:
    """What a seat's tableau alone decides: its `pile_targets` and, per pile with face-up
    cards, its top card and its tableau moves in `legal_actions` order (by count, then
    destination).

    A pile's face-up cards are a run of consecutive ranks, so for each destination only
    one count can fit: the one that puts the rank the destination wants at the bottom of
    the moved cards. That makes a pile's moves 6 checks, not 6 per face-up card."""
    targets = pile_targets(tableau)
    sources: list[Source] = []
    for i, sp in enumerate(tableau):
        up = sp.up
        if not up:
            continue
        lowest = up[-1].rank
        fits = []
        for j, wanted, black in targets:
            count = wanted - lowest + 1
            if j != i and 1 <= count <= len(up) and takes(up[-count], wanted, black):
                fits.append((count, j))
        fits.sort()
        sources.append((i, up[-1], tuple(ToTableau(seat, i, j, count) for count, j in fits)))
    return targets, tuple(sources)


def layout_moves(
    seat: int, st: SeatState, targets: tuple[Target, ...], pile_sources: tuple[Source, ...]
) -> LayoutMoves:
    """A seat's draw or recycle and, per source (the waste, then the piles with face-up
    cards), its top card and its tableau moves; `targets` and `pile_sources` are
    `tableau_moves(seat, st.tableau)`."""
    head: tuple[DemonAction, ...] = (Draw(seat),) if st.stock else (Recycle(seat),) if st.waste else ()
    if not st.waste:
        return head, pile_sources
    w = st.waste[-1]
    waste: Source = (
        WASTE,
        w,
        tuple(ToTableau(seat, WASTE, j, 1) for j, wanted, black in targets if takes(w, wanted, black)),
    )
    return head, (waste,) + pile_sources


def accepting_piles(foundations: Foundations) -> Accepting:
    """Rule 12: (suit, rank) -> the piles that accept that card now."""
    index: dict[tuple[str, int], list[int]] = {}
    for i, fpile in enumerate(foundations):
        top = fpile[-1][0]
        if top.rank < 13:
            index.setdefault((top.suit, top.rank + 1), []).append(i)
    return {k: tuple(v) for k, v in index.items()}


def foundation_piles(card: Card, accepting: Accepting, new_pile: int) -> tuple[int, ...]:
    """Rules 11, 12: the foundation piles the card may go to (an ace: a new pile)."""
    return (new_pile,) if card.rank == 1 else accepting.get((card.suit, card.rank), ())


def foundation_plays(moves: LayoutMoves, accepting: Accepting, new_pile: int) -> Plays:
    """The (source, pile) pairs of the seat's foundation plays: the part of its legal
    actions that another seat's move can change."""
    return tuple((src, i) for src, card, _moves in moves[1] for i in foundation_piles(card, accepting, new_pile))


def legal_answer(
    seat: int, moves: LayoutMoves, accepting: Accepting, new_pile: int
) -> tuple[tuple[DemonAction, ...], Plays]:
    """The seat's legal actions (draw or recycle; then for the waste and each pile in
    turn, its foundation plays and its tableau moves) and their `foundation_plays`."""
    head, sources = moves
    out: list[DemonAction] = list(head)
    plays: list[tuple[int | str, int]] = []
    for src, card, moved in sources:
        for i in foundation_piles(card, accepting, new_pile):
            out.append(ToFoundation(seat, src, i))
            plays.append((src, i))
        out.extend(moved)
    return tuple(out), tuple(plays)
