"""What Demon's rules remember between rounds: `RoundAnalysis`, the one place that caches.

A `DemonRound` is an immutable value, and the server asks the same questions of every
round a move makes (is each seat stuck, what may each seat do, the public view of each
tableau, who owns how many foundation cards). Most answers depend on a part of the round
that the move did not touch: a seat's layout, its tableau, the foundations. So a round and
every round derived from it share one `RoundAnalysis` that keeps each answer beside the
object it was computed from and reuses it while that object is the same (`is`, not `==`:
the check costs nothing and an immutable value that is the same object has the same
answer). Nothing here changes what an answer is, only how often it is computed;
`tests/engine/test_demon_stuck_memo.py` checks the answers against fresh ones.

`clear()` forgets everything (a benchmark timing fresh answers calls it); a round made
by `DemonRound.deal`, `from_layout` or `from_json` starts with an empty analysis.
"""

from __future__ import annotations

from app.demon.rules import stuck as demon_stuck
from app.common.cards import Card
from app.demon.rules.actions import WASTE, DemonAction, Draw, Recycle, ToTableau
from app.demon.rules.layout import Pile, SeatState

__all__ = ["RoundAnalysis", "pile_targets", "takes"]


class RoundAnalysis:
    """Per-seat answers shared by a round and the rounds derived from it, so that after a
    move only what can have changed is computed again: each seat's last rule-16 answer,
    each seat's layout moves (keyed by its layout object, their tableau part by the tableau
    object, which a draw keeps), each seat's public tableau view (by tableau object too),
    which foundation piles accept which card and how many foundation cards each seat owns
    (both keyed by the foundations tuple).

    Rule 16:
    An entry is (the seat's layout object, the foundations' wants it was computed with,
    the witness: None = stuck, else `progress_witness`'s answer). It is reused, without a
    search, when the layout is the same object and either the wants are equal, or the
    witness still holds: progress that ignores the foundations, or a witness card that is
    still wanted; or the seat was stuck and the foundations accept nothing new (fewer
    wanted cards cannot unstick a seat). Every check is about meaning, not about which
    round asks, so sharing the analysis between immutable rounds is safe. It never takes
    part in equality, hashing or JSON.
    """

    __slots__ = ("entries", "moves", "tableau_parts", "searches", "accepts", "home", "wants", "views")

    def __init__(self) -> None:
        self.entries: dict[int, tuple[SeatState, frozenset[int], int | None]] = {}
        self.moves: dict[int, tuple[SeatState, tuple]] = {}
        self.tableau_parts: dict[int, tuple] = {}  # seat -> (tableau, targets, pile sources)
        self.searches: dict[int, tuple] = {}  # seat -> (tableau, its ints, {search key: witness})
        self.accepts: tuple | None = None
        self.home: tuple | None = None  # (foundations, cards each seat has on them)
        self.wants: tuple | None = None  # (foundations, demon_stuck.foundation_wants of them)
        self.views: dict[int, tuple] = {}  # seat -> (tableau, its public view)

    def foundation_wants(self, foundations: tuple) -> frozenset[int]:
        if self.wants is not None and self.wants[0] is foundations:
            return self.wants[1]
        wants = demon_stuck.foundation_wants(p[-1][0] for p in foundations)
        self.wants = (foundations, wants)
        return wants

    def home_counts(self, foundations: tuple, seats: int) -> tuple[int, ...]:
        """Foundation cards per owner seat. Counted by a scan only when the foundations
        are not the ones last seen or one card further (`played`), which is the case the
        server meets after every move."""
        if self.home is not None and self.home[0] is foundations and len(self.home[1]) == seats:
            return self.home[1]
        counts = [0] * seats
        for fpile in foundations:
            for _card, owner in fpile:
                counts[owner] += 1
        self.home = (foundations, tuple(counts))
        return self.home[1]

    def played(self, before: tuple, after: tuple, seat: int, seats: int) -> None:
        """`after` is `before` plus one card of `seat`: count it without a scan."""
        if self.home is not None and self.home[0] is before and len(self.home[1]) == seats:
            counts = list(self.home[1])
            counts[seat] += 1
            self.home = (after, tuple(counts))

    def layout_moves(self, seat: int, layout: SeatState) -> tuple:
        """(draw/recycle actions, [(source, its top card, its tableau moves)]) of a seat;
        these depend on the seat's layout alone."""
        entry = self.moves.get(seat)
        if entry is not None and entry[0] is layout:
            return entry[1]
        part = self.tableau_parts.get(seat)
        if part is None or part[0] is not layout.tableau:
            part = (layout.tableau, *_tableau_part(seat, layout.tableau))
            self.tableau_parts[seat] = part
        parts = _layout_moves(seat, layout, part[1], part[2])
        self.moves[seat] = (layout, parts)
        return parts

    def tableau_view(self, seat: int, tableau: tuple) -> list[dict]:
        """The public view of a seat's tableau, kept per tableau object (a draw keeps it).
        Shared by the views built from it, so never to be changed in place."""
        entry = self.views.get(seat)
        if entry is None or entry[0] is not tableau:
            entry = (tableau, [{"down": len(p.down), "up": [str(c) for c in p.up]} for p in tableau])
            self.views[seat] = entry
        return entry[1]

    def accepting(self, foundations: tuple) -> dict[tuple[str, int], tuple[int, ...]]:
        """(suit, rank) -> the piles that accept that card now."""
        if self.accepts is not None and self.accepts[0] is foundations:
            return self.accepts[1]
        index: dict[tuple[str, int], list[int]] = {}
        for i, fpile in enumerate(foundations):
            top = fpile[-1][0]
            if top.rank < 13:
                index.setdefault((top.suit, top.rank + 1), []).append(i)
        frozen = {k: tuple(v) for k, v in index.items()}
        self.accepts = (foundations, frozen)
        return frozen

    def lookup(self, seat: int, layout: SeatState, wants: frozenset[int]) -> tuple[bool, bool]:
        """(found, stuck)."""
        entry = self.entries.get(seat)
        if entry is None or entry[0] is not layout:
            return False, False
        _layout, old_wants, witness = entry
        if wants == old_wants:
            return True, witness is None
        if witness is None:
            return (wants <= old_wants), True
        if witness == demon_stuck.ANY_FOUNDATIONS or witness in wants:
            return True, False
        return False, False

    def search(self, seat: int, layout: SeatState, wants: frozenset[int]) -> int | None:
        """`demon_stuck.progress_witness` for the seat, keeping the tableau half's answers
        per tableau object: a seat drawing through its stock searches its tableau once,
        not after every draw. The answer depends on nothing but the key it is kept under."""
        found, takers, king = demon_stuck.waste_witness(demon_stuck.ids(layout.stock),
                                                        demon_stuck.ids(layout.waste), wants)
        if found is not None:
            return found
        entry = self.searches.get(seat)
        if entry is None or entry[0] is not layout.tableau:
            entry = (layout.tableau, demon_stuck.encode_piles(layout.tableau), {})
            self.searches[seat] = entry
        answers = entry[2]
        key = (wants, takers, king)
        if key not in answers:
            if len(answers) >= 16:  # the foundations moved on many times: start again
                answers.clear()
            answers[key] = demon_stuck.tableau_witness(entry[1], wants, takers, king)
        return answers[key]

    def store(self, seat: int, layout: SeatState, wants: frozenset[int], witness: int | None) -> None:
        self.entries[seat] = (layout, wants, witness)

    def clear(self) -> None:
        """Forget every answer: the next question of any round sharing this analysis is
        answered afresh."""
        self.entries.clear()
        self.moves.clear()
        self.tableau_parts.clear()
        self.searches.clear()
        self.views.clear()
        self.accepts = None
        self.home = None
        self.wants = None


def pile_targets(tableau: tuple[Pile, ...]) -> tuple[tuple[int, int, bool | None], ...]:
    """Rule 8, per destination pile: (pile, the rank it takes, whether that card must be
    black); an empty pile takes any king (None)."""
    targets = []
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


def _tableau_part(seat: int, tableau: tuple[Pile, ...]) -> tuple[tuple, tuple]:
    """What a seat's tableau alone decides: its `pile_targets` and, per pile with face-up
    cards, its top card and its tableau moves in `legal_actions` order (by count, then
    destination). A draw leaves the tableau as it is, so this is kept per tableau object
    (`RoundAnalysis.layout_moves`).

    A pile's face-up cards are a run of consecutive ranks, so for each destination only
    one count can fit: the one that puts the rank the destination wants at the bottom of
    the moved cards. That makes a pile's moves 6 checks, not 6 per face-up card."""
    targets = pile_targets(tableau)
    sources = []
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


def _layout_moves(seat: int, st: SeatState, targets: tuple, pile_sources: tuple) -> tuple:
    """A seat's draw or recycle and, per source (the waste, then the piles with face-up
    cards), its top card and its tableau moves; `targets` and `pile_sources` are
    `_tableau_part(seat, st.tableau)`."""
    head: tuple[DemonAction, ...] = (Draw(seat),) if st.stock else (Recycle(seat),) if st.waste else ()
    if not st.waste:
        return head, pile_sources
    w = st.waste[-1]
    waste = (WASTE, w, tuple(ToTableau(seat, WASTE, j, 1) for j, wanted, black in targets
                             if takes(w, wanted, black)))
    return head, (waste,) + pile_sources

