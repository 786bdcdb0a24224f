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

Each question has one cache here and its invalidation is written once, beside it. A
caller that keeps something derived from an answer (the room keeps the protocol JSON of
a seat's legal actions) keys it by the answer object, which is the same object for as
long as the answer is the same.

`clear()` forgets everything (a benchmark timing fresh answers calls it); a round made
by `DemonRound.deal`, `from_layout` or `from_json` starts with an empty analysis.
"""

from __future__ import annotations

from typing import Any

from app.demon.rules import legal
from app.demon.rules import stuck as demon_stuck
from app.demon.rules.actions import DemonAction
from app.demon.rules.layout import Foundations, Pile, PileView, SeatState

__all__ = ["RoundAnalysis"]

Tableau = tuple[Pile, ...]
Witness = int | None  # None = stuck, else `demon_stuck.progress_witness`'s answer
SearchKey = tuple[frozenset[int], frozenset[int], bool]  # (wants, tableau tops that take a waste card, a king)


class RoundAnalysis:
    """Per-seat answers shared by a round and the rounds derived from it, so that after a
    move only what can have changed is computed again. Per seat: its last rule-16 answer
    (`is_stuck`), its legal actions (`legal_actions`), its layout moves (by layout object;
    their tableau part by tableau object, which a draw keeps), its public tableau, as
    JSON and as `PileView`s (by tableau object). Per foundations tuple: which piles accept
    which card, what they accept as card ids, how many foundation cards each seat owns.

    Rule 16: an entry is (the seat's layout object, the foundations' wants it was
    computed with, the witness). It is reused, without a search, when the layout is the
    same object and either the wants are equal, or the witness still holds: progress that
    ignores the foundations, or a witness card that is still wanted; or the seat was
    stuck and the foundations accept nothing new (fewer wanted cards cannot unstick a
    seat). Every check is about meaning, not about which round asks, so sharing the
    analysis between immutable rounds is safe. It never takes part in equality, hashing
    or JSON.
    """

    __slots__ = (
        "accepts",
        "entries",
        "home",
        "legal",
        "moves",
        "pile_views",
        "searches",
        "tableau_parts",
        "views",
        "wants",
    )

    def __init__(self) -> None:
        self.entries: dict[int, tuple[SeatState, frozenset[int], Witness]] = {}
        # seat -> (layout, foundations, their foundation plays, the legal actions)
        self.legal: dict[int, tuple[SeatState, Foundations, legal.Plays, tuple[DemonAction, ...]]] = {}
        self.moves: dict[int, tuple[SeatState, legal.LayoutMoves]] = {}
        self.tableau_parts: dict[int, tuple[Tableau, tuple[legal.Target, ...], tuple[legal.Source, ...]]] = {}
        # seat -> (tableau, its ints, {search key: witness})
        self.searches: dict[int, tuple[Tableau, demon_stuck.EncodedPiles, dict[SearchKey, Witness]]] = {}
        self.accepts: tuple[Foundations, legal.Accepting] | None = None
        self.home: tuple[Foundations, tuple[int, ...]] | None = None  # cards each seat has on them
        self.wants: tuple[Foundations, frozenset[int]] | None = None
        self.views: dict[int, tuple[Tableau, list[dict[str, Any]]]] = {}  # seat -> its public view
        self.pile_views: dict[int, tuple[Tableau, tuple[PileView, ...]]] = {}

    # ------------------------------------------------------------ the foundations

    def foundation_wants(self, foundations: Foundations) -> frozenset[int]:
        """What the foundations accept now, as `demon_stuck` card ids."""
        if self.wants is not None and self.wants[0] is foundations:
            return self.wants[1]
        wants = demon_stuck.foundation_wants(p[-1][0] for p in foundations)
        self.wants = (foundations, wants)
        return wants

    def home_counts(self, foundations: Foundations, seats: int) -> tuple[int, ...]:
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

    def played(self, before: Foundations, after: Foundations, seat: int, seats: int) -> None:
        """`after` is `before` plus one card of `seat`: count it without a scan."""
        if self.home is not None and self.home[0] is before and len(self.home[1]) == seats:
            counts = list(self.home[1])
            counts[seat] += 1
            self.home = (after, tuple(counts))

    def accepting(self, foundations: Foundations) -> legal.Accepting:
        """(suit, rank) -> the piles that accept that card now."""
        if self.accepts is not None and self.accepts[0] is foundations:
            return self.accepts[1]
        index = legal.accepting_piles(foundations)
        self.accepts = (foundations, index)
        return index

    # ------------------------------------------------------------ what a seat may do

    def layout_moves(self, seat: int, layout: SeatState) -> legal.LayoutMoves:
        """`legal.layout_moves` of a seat; these depend on the seat's layout alone."""
        entry = self.moves.get(seat)
        if entry is not None and entry[0] is layout:
            return entry[1]
        part = self.tableau_parts.get(seat)
        if part is None or part[0] is not layout.tableau:
            part = (layout.tableau, *legal.tableau_moves(seat, layout.tableau))
            self.tableau_parts[seat] = part
        parts = legal.layout_moves(seat, layout, part[1], part[2])
        self.moves[seat] = (layout, parts)
        return parts

    def foundation_plays(self, seat: int, layout: SeatState, foundations: Foundations) -> legal.Plays:
        return legal.foundation_plays(self.layout_moves(seat, layout), self.accepting(foundations), len(foundations))

    def legal_actions(self, seat: int, layout: SeatState, foundations: Foundations) -> tuple[DemonAction, ...]:
        """The legal actions of a seat in play: the same tuple as last time while they are
        the same. They depend on the seat's layout and, through its foundation plays
        alone, on the foundations: when only the foundations changed, comparing those
        few (source, pile) pairs tells whether the whole answer did."""
        entry = self.legal.get(seat)
        if entry is not None and entry[0] is layout:
            if entry[1] is foundations:
                return entry[3]
            plays = self.foundation_plays(seat, layout, foundations)
            if plays == entry[2]:
                self.legal[seat] = (layout, foundations, plays, entry[3])
                return entry[3]
        actions, plays = legal.legal_answer(
            seat, self.layout_moves(seat, layout), self.accepting(foundations), len(foundations)
        )
        self.legal[seat] = (layout, foundations, plays, actions)
        return actions

    # ------------------------------------------------------------ rule 16

    def is_stuck(self, seat: int, layout: SeatState, wants: frozenset[int]) -> bool:
        """Rule 16 for a seat's layout and what the foundations accept (`wants`)."""
        found, stuck = self.lookup(seat, layout, wants)
        if found:
            return stuck
        witness = demon_stuck.visible_progress(layout, wants)
        if witness is None:
            witness = self.search(seat, layout, wants)
        self.store(seat, layout, wants, witness)
        return witness is None

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

    def search(self, seat: int, layout: SeatState, wants: frozenset[int]) -> Witness:
        """`demon_stuck.progress_witness` for the seat, keeping the tableau half's answers
        per tableau object: a seat drawing through its stock searches its tableau once,
        not after every draw. The answer depends on nothing but the key it is kept under."""
        found, takers, king = demon_stuck.waste_witness(
            demon_stuck.ids(layout.stock), demon_stuck.ids(layout.waste), wants
        )
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

    def store(self, seat: int, layout: SeatState, wants: frozenset[int], witness: Witness) -> None:
        self.entries[seat] = (layout, wants, witness)

    # ------------------------------------------------------------ what everyone sees

    def tableau_view(self, seat: int, tableau: Tableau) -> list[dict[str, Any]]:
        """The public view of a seat's tableau as JSON, kept per tableau object (a draw
        keeps it). Shared by the views built from it, so never to be changed in place."""
        entry = self.views.get(seat)
        if entry is None or entry[0] is not tableau:
            entry = (tableau, [{"down": len(p.down), "up": [str(c) for c in p.up]} for p in tableau])
            self.views[seat] = entry
        return entry[1]

    def pile_view(self, seat: int, tableau: Tableau) -> tuple[PileView, ...]:
        """The public view of a seat's tableau for a bot (`app.demon.rules.view`), kept per
        tableau object: a move replaces only the mover's tableau, so at a table of eight
        the other seven come from here."""
        entry = self.pile_views.get(seat)
        if entry is None or entry[0] is not tableau:
            entry = (tableau, tuple([PileView(len(p.down), p.up) for p in tableau]))
            self.pile_views[seat] = entry
        return entry[1]

    def clear(self) -> None:
        """Forget every answer: the next question of any round sharing this analysis is
        answered afresh."""
        self.entries.clear()
        self.legal.clear()
        self.moves.clear()
        self.tableau_parts.clear()
        self.searches.clear()
        self.views.clear()
        self.pile_views.clear()
        self.accepts = None
        self.home = None
        self.wants = None
