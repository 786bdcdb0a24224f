"""Demon: racing Klondike on shared foundations (rules: shared/rules/demon.md).

The model follows python-chess: small immutable values, `legal_actions(seat)`, a validating
`apply(action)` that returns the *new* round and the events it caused, a canonical JSON form
that round-trips, and typed errors (app.common.errors). A failed `apply` raises and leaves
nothing changed, because nothing is ever mutated.

Conventions
-----------
* Seats are numbered 0..players-1. Tableau piles are numbered 0..6 (the rules' pile k is
  index k-1).
* Every card sequence is stored bottom..top: the *last* element is the top. For the stock
  the top is the next card drawn.
* A foundation pile is a tuple of (card, owner seat), bottom (an ace) .. top.

Where things are
----------------
This module is the rules: `DemonRound` (what a seat may do, what an action does, when
the round ends). The values it works on have their own modules, and
every name is re-exported here, so `from app.demon.rules.round import X` is the one import a
caller needs:

* `demon_actions`: the actions and their JSON (checked for shape when built);
* `demon_events`: the events `apply` returns (JSON by `app.common.events`);
* `demon_layout`: piles, a seat's layout and the deal (rule 3);
* `demon_analysis`: `RoundAnalysis`, everything a round caches (see below);
* `demon_stuck`: the exact rule-16 search.

The round and its analysis
--------------------------
A round is a frozen dataclass; every new round is `dataclasses.replace(round, ...)`.
Its `analysis` field is a `RoundAnalysis` declared with `compare=False`: it takes no part
in equality, hashing or repr, and `replace` passes it on to the new round like any other
field, so a move's round shares the answers its parent computed (each answer is kept
beside the object it depends on, so sharing it is safe). A round built from scratch
(`deal`, `from_layout`, `from_json`) gets a fresh one; `round.analysis.clear()` forgets
everything.

Draw and recycle (rules 5, 6)
-----------------------------
A draw moves stock[-1], stock[-2], stock[-3] (fewer if fewer remain) onto the waste in that
order; the last one moved is the new waste top. A recycle (stock empty, waste not) makes the
stock the reversed waste, so the card drawn first in the pass that just ended is drawn first
again.

Decisions beyond the rules file
-------------------------------
* `ToFoundation(pile=None)` plays on the first pile (lowest index) that accepts the card.
  An ace always starts a new pile at index len(foundations); the pile index an ace names is
  only a hint and is not checked against the current pile count (two players putting
  down aces at once both "asked for a new pile").
* A play aimed at a pile that *once* accepted a card of that suit and rank (someone's card
  landed first) raises RaceLost naming that pile and the seat whose card sits at that
  height; with pile=None the same applies when no pile accepts the card but one was taken.
* A seat "goes out" (rule 15) when a foundation play leaves its layout (tableau, stock and
  waste) empty; with a full deck that is its 52nd card.
* Absent seats (left, or past the reconnection grace) may not act; they keep their score and
  no longer hold up the "everyone is stuck" end. When no seat is left present the round
  ends with reason "abandoned".
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping

from app.demon.rules import actions as demon_actions, events as demon_events, layout as demon_layout, stuck as demon_stuck
from app.common.cards import Card, CardError, format_cards, opposite_colour
from app.common.checks import is_int
from app.demon.rules.actions import (
    ACTION_TYPES,
    WASTE,
    DemonAction,
    Draw,
    MalformedAction,
    Recycle,
    ToFoundation,
    ToTableau,
    action_from_json,
    action_to_json,
)
from app.demon.rules.analysis import RoundAnalysis, pile_targets
from app.demon.rules.events import (
    AbsenceChanged,
    DemonEvent,
    Drew,
    Moved,
    Played,
    Recycled,
    RoundEnded,
    Started,
    TurnedUp,
)
from app.demon.rules.layout import PILES, LayoutError, Pile, SeatState, deal_seat, is_run
from app.common.errors import GameOver, IllegalAction, NotStarted, RaceLost

# The rules' own names, and every public name of the value modules (re-exported, so that
# `from app.demon.rules.round import X` serves for all of them).
__all__ = [
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "WIN_BONUS",
    "OUT_SCORE",
    "RoundAnalysis",
    "RoundEnd",
    "DemonRound",
    "describe",
    *demon_actions.__all__,
    *demon_events.__all__,
    *demon_layout.__all__,
]

MIN_PLAYERS = 2
MAX_PLAYERS = 8
WIN_BONUS = 10
OUT_SCORE = 52 + WIN_BONUS


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """How a round ended (rules 15-17, or a room's reason)."""

    reason: str  # "demon" | "stuck" | "vote" | "time" | "abandoned" | any room reason
    winner: int | None = None  # the seat that went out (reason "demon"), else None



def _foundation_piles(card: Card, accepting: dict, new_pile: int) -> tuple[int, ...]:
    """Rules 11, 12: the foundation piles the card may go to (an ace: a new pile)."""
    return (new_pile,) if card.rank == 1 else accepting.get((card.suit, card.rank), ())


def _turn_up(pile: Pile) -> tuple[Pile, Card | None]:
    """Rule 9: a face-down card that became the top is turned face up."""
    if not pile.up and pile.down:
        return Pile(pile.down[:-1], (pile.down[-1],)), pile.down[-1]
    return pile, None


@dataclass(frozen=True)
class DemonRound:
    """One round: every seat's layout, the shared foundations, who is away, how it ended.

    Build it with `deal`, `from_layout` or `from_json`; `apply`, `begin`, `finish` and
    `with_absent` return new rounds. `analysis` is the cache every round derived from
    this one shares (see the module docstring); it is not part of the position.
    """

    seats: tuple[SeatState, ...]
    foundations: tuple[tuple[tuple[Card, int], ...], ...] = ()
    started: bool = False
    absent: frozenset[int] = frozenset()
    end: RoundEnd | None = None
    seed: int | None = None
    analysis: RoundAnalysis = field(default_factory=RoundAnalysis, compare=False, repr=False)

    # ------------------------------------------------------------------ construction

    @classmethod
    def deal(cls, seed: int, players: int) -> "DemonRound":
        """A fresh, not yet started round: every seat's own deck shuffled from the seed."""
        if not is_int(seed):
            raise ValueError(f"seed must be an integer, not {seed!r}")
        if not is_int(players) or not (MIN_PLAYERS <= players <= MAX_PLAYERS):
            raise ValueError(f"Demon needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}")
        return cls(seats=tuple(deal_seat(seed, s) for s in range(players)), seed=seed)

    @classmethod
    def from_layout(
        cls,
        seats: Iterable[Any],
        foundations: Iterable[Iterable[Any]] = (),
        started: bool = True,
        absent: Iterable[int] = (),
        end: RoundEnd | None = None,
        seed: int | None = None,
    ) -> "DemonRound":
        """A round from explicit cards (tests, replays). Seats are SeatState objects or
        mappings {"tableau": [...], "stock": ..., "waste": ...}; foundation piles are
        sequences of (card, seat) pairs or {"card": ..., "seat": ...} mappings.

        Checked: 1..8 seats, 7 piles each, no face-down card on top of a pile, face-up
        cards form a run (descending, alternating colours), foundation piles are a suit
        from the ace up, owners are real seats, and no card appears twice for one owner.
        A layout need not hold all 52 cards of a seat (small test positions).
        """
        seat_list = []
        for i, s in enumerate(seats):
            if isinstance(s, SeatState):
                seat_list.append(s)
            elif isinstance(s, Mapping):
                seat_list.append(SeatState.parse(s.get("tableau", ()), s.get("stock", ()),
                                                 s.get("waste", ())))
            else:
                raise LayoutError(f"seat {i}: expected a SeatState or a mapping")
        piles = []
        for i, fpile in enumerate(foundations):
            entries = []
            for entry in fpile:
                if isinstance(entry, Mapping):
                    card, owner = entry.get("card"), entry.get("seat")
                else:
                    try:
                        card, owner = entry
                    except (TypeError, ValueError):
                        raise LayoutError(f"foundation pile {i}: bad entry {entry!r}") from None
                if not isinstance(card, Card):
                    try:
                        card = Card.parse(card)
                    except CardError as exc:
                        raise LayoutError(f"foundation pile {i}: {exc}") from None
                entries.append((card, owner))
            piles.append(tuple(entries))
        absent_set = frozenset(absent)
        r = cls(seats=tuple(seat_list), foundations=tuple(piles), started=bool(started),
                absent=absent_set, end=end, seed=seed)
        r.validate()
        return r

    def validate(self) -> None:
        """Raise LayoutError unless this is a well-formed position."""
        n = len(self.seats)
        if not (1 <= n <= MAX_PLAYERS):
            raise LayoutError(f"a round has 1 to {MAX_PLAYERS} seats, not {n}")
        owned: list[set[Card]] = [set() for _ in range(n)]

        def own(seat: int, card: Card, where: str) -> None:
            if card in owned[seat]:
                raise LayoutError(f"seat {seat}: card {card} appears twice (again in {where})")
            owned[seat].add(card)

        for s, st in enumerate(self.seats):
            if len(st.tableau) != PILES:
                raise LayoutError(f"seat {s}: needs {PILES} tableau piles, not {len(st.tableau)}")
            for k, p in enumerate(st.tableau):
                if p.down and not p.up:
                    raise LayoutError(f"seat {s} pile {k}: a face-down card is on top")
                if not is_run(p.up):
                    raise LayoutError(f"seat {s} pile {k}: face-up cards {format_cards(p.up)} "
                                      "are not a descending run of alternating colours")
                for c in p.down + p.up:
                    own(s, c, f"pile {k}")
            for c in st.stock:
                own(s, c, "stock")
            for c in st.waste:
                own(s, c, "waste")
        for i, fpile in enumerate(self.foundations):
            if not fpile:
                raise LayoutError(f"foundation pile {i} is empty")
            suit = fpile[0][0].suit
            for h, (card, owner) in enumerate(fpile):
                if card.rank != h + 1 or card.suit != suit:
                    raise LayoutError(f"foundation pile {i}: {card} cannot be at height {h + 1} "
                                      f"of a {suit} pile")
                if not is_int(owner) or not (0 <= owner < n):
                    raise LayoutError(f"foundation pile {i}: owner {owner!r} is not a seat")
                own(owner, card, f"foundation pile {i}")
        for a in self.absent:
            if not is_int(a) or not (0 <= a < n):
                raise LayoutError(f"absent seat {a!r} is not a seat")
        if self.end is not None:
            if not isinstance(self.end, RoundEnd) or not isinstance(self.end.reason, str):
                raise LayoutError("end must be a RoundEnd")
            w = self.end.winner
            if w is not None and (not is_int(w) or not (0 <= w < n)):
                raise LayoutError(f"winner {w!r} is not a seat")

    # ------------------------------------------------------------------ basic queries

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def ended(self) -> bool:
        return self.end is not None

    def _seat_index(self, seat: Any) -> int:
        if type(seat) is not int or not (0 <= seat < len(self.seats)):  # bool is not a seat
            raise IllegalAction(f"there is no seat {seat!r} (seats 0..{len(self.seats) - 1})")
        return seat

    def cards_on_foundations(self, seat: int) -> int:
        return self.foundation_counts()[seat]

    def foundation_counts(self) -> tuple[int, ...]:
        """How many foundation cards each seat owns (seat order)."""
        return self.analysis.home_counts(self.foundations, len(self.seats))

    def scores(self) -> tuple[int, ...]:
        """Rule 18: 62 for the seat that went out, else its cards on the foundations."""
        counts = list(self.foundation_counts())
        if self.end is not None and self.end.reason == "demon" and self.end.winner is not None:
            counts[self.end.winner] = OUT_SCORE
        return tuple(counts)

    def foundation_wants(self) -> frozenset[int]:
        """What the foundations accept now, as demon_stuck card ids."""
        return self.analysis.foundation_wants(self.foundations)

    def _accepting_pile(self, card: Card) -> int | None:
        for i, fpile in enumerate(self.foundations):
            top = fpile[-1][0]
            if top.suit == card.suit and top.rank == card.rank - 1:
                return i
        return None

    # ------------------------------------------------------------------ stuck (rule 16)

    def is_stuck(self, seat: int) -> bool:
        """Rule 16, exact: no sequence of this seat's own draws, recycles and tableau moves
        reaches a foundation play, a waste-to-tableau move, or a turn-up, with the
        foundations as they are. Looks only at the layout (not at started/ended/absent)."""
        seat = self._seat_index(seat)
        return self._stuck(seat, self.foundation_wants())

    def _stuck(self, seat: int, wants: frozenset[int]) -> bool:
        layout = self.seats[seat]
        found, stuck = self.analysis.lookup(seat, layout, wants)
        if found:
            return stuck
        witness = self._visible_progress(layout, wants)
        if witness is None:
            witness = self.analysis.search(seat, layout, wants)
        self.analysis.store(seat, layout, wants, witness)
        return witness is None

    @staticmethod
    def _visible_progress(layout: SeatState, wants: frozenset[int]) -> int | None:
        """Progress the seat can make with one move now: a witness of the kind
        `progress_witness` gives (ANY_FOUNDATIONS for a waste card that goes to the
        tableau or a whole run that moves off a face-down card, else the card id of the
        first foundation play, waste first), or None when there is none and the search
        must run. The seat that just moved is checked after every move and usually has
        such a move, so this spares most moves the search. It reads the layout directly,
        in a few comparisons per pile, rather than building the seat's legal actions:
        it runs before the move is sent to anyone, the legal actions only after."""
        # The piles' targets as a set of the (rank, is red) that fit somewhere, and whether
        # some pile is empty (it takes a king). A card never fits on its own pile's top
        # (that top is never higher than any face-up card under it), so which pile offers
        # the place does not matter.
        targets = pile_targets(layout.tableau)
        takes = {(wanted, not black) for _j, wanted, black in targets if black is not None}
        empty_pile = any(black is None for _j, _wanted, black in targets)
        tops = [pile.up[-1] for pile in layout.tableau if pile.up]
        waste_top = layout.waste[-1] if layout.waste else None
        if waste_top is not None and (empty_pile if waste_top.rank == 13
                                      else (waste_top.rank, waste_top.is_red) in takes):
            return demon_stuck.ANY_FOUNDATIONS  # the waste card goes to the tableau
        for pile in layout.tableau:
            if pile.down and pile.up:
                base = pile.up[0]
                if empty_pile if base.rank == 13 else (base.rank, base.is_red) in takes:
                    return demon_stuck.ANY_FOUNDATIONS  # the whole run moves: a turn-up
        if waste_top is not None and demon_stuck.card_id(waste_top) in wants:
            return demon_stuck.card_id(waste_top)  # a foundation play
        for top in tops:
            if demon_stuck.card_id(top) in wants:
                return demon_stuck.card_id(top)
        return None

    def stuck_seats(self, among: Iterable[int] | None = None) -> frozenset[int]:
        """The stuck seats (rule 16), of all seats or of those `among` (seat numbers)."""
        wants = self.foundation_wants()
        seats = range(len(self.seats)) if among is None else [self._seat_index(s) for s in among]
        return frozenset(s for s in seats if self._stuck(s, wants))

    def _all_present_stuck(self, first: int | None = None) -> bool:
        """`first` (the seat that just moved, the likeliest to have a move) is asked first."""
        wants, absent = self.foundation_wants(), self.absent
        if first is not None and first not in absent and not self._stuck(first, wants):
            return False
        return all(self._stuck(s, wants) for s in range(len(self.seats)) if s != first and s not in absent)

    def _maybe_end(self, first: int | None, events: list) -> "DemonRound":
        """End the round when nobody present can ever change anything (or nobody is left)."""
        if self.end is not None or not self.started:
            return self
        if len(self.absent) >= len(self.seats):
            reason = "abandoned"
        elif self._all_present_stuck(first):
            reason = "stuck"
        else:
            return self
        done = replace(self, end=RoundEnd(reason, None))
        events.append(RoundEnded(reason, None, done.scores()))
        return done

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> "DemonRound":
        """The "go" signal (rule 4). If nobody could ever move, the round ends at once."""
        return self.begin()[0]

    def begin(self) -> tuple["DemonRound", list[DemonEvent]]:
        """`start()` with its events: Started, and RoundEnded if everyone is stuck."""
        if self.end is not None:
            raise GameOver("the round is already over")
        if self.started:
            raise IllegalAction("the round has already started")
        events: list[DemonEvent] = [Started()]
        r = replace(self, started=True)._maybe_end(None, events)
        return r, events

    def finish(self, reason: str) -> tuple["DemonRound", list[DemonEvent]]:
        """End the round for a room reason ("vote", "time", ...). No winner."""
        if not isinstance(reason, str) or not reason:
            raise ValueError("a finish reason is a non-empty string")
        if self.end is not None:
            raise GameOver(f"the round is already over ({self.end.reason})")
        done = replace(self, end=RoundEnd(reason, None))
        return done, [RoundEnded(reason, None, done.scores())]

    def with_absent(self, seat: int, absent: bool = True) -> tuple["DemonRound", list[DemonEvent]]:
        """Mark a seat out of (or back in) the round. May end the round: when the seats
        still present are all stuck, or nobody is left."""
        seat = self._seat_index(seat)
        now = self.absent | {seat} if absent else self.absent - {seat}
        if now == self.absent:
            return self, []
        events: list[DemonEvent] = [AbsenceChanged(seat, bool(absent))]
        r = replace(self, absent=now)._maybe_end(None, events)
        return r, events

    # ------------------------------------------------------------------ actions

    def legal_actions(self, seat: int) -> list[DemonAction]:
        """Every legal action of the seat, foundation plays with an explicit pile index
        (an ace: len(foundations), a new pile). Empty before the start, after the end, and
        for an absent seat.

        Order: draw or recycle; then for the waste and each pile in turn, its foundation
        plays and its tableau moves. The server asks this for every seat after every
        move, so the parts are memoised: the draw and tableau moves depend only on the
        seat's layout (kept per layout object), the foundation plays only on which piles
        accept which card (kept per foundations tuple)."""
        seat = self._seat_index(seat)
        if not self.started or self.end is not None or seat in self.absent:
            return []
        head, sources = self.analysis.layout_moves(seat, self.seats[seat])
        accepting = self.analysis.accepting(self.foundations)
        new_pile = len(self.foundations)
        out: list[DemonAction] = list(head)
        for src, card, tableau_moves in sources:
            out.extend(ToFoundation(seat, src, i) for i in _foundation_piles(card, accepting, new_pile))
            out.extend(tableau_moves)
        return out

    def foundation_plays(self, seat: int) -> tuple[tuple[int | str, int], ...]:
        """The (source, pile) pairs of the seat's legal foundation plays: the part of
        `legal_actions` that another seat's move can change. The server compares it to
        the last answer to learn, without building the whole list, whether a seat's legal
        actions changed when only the foundations did."""
        seat = self._seat_index(seat)
        if not self.started or self.end is not None or seat in self.absent:
            return ()
        _head, sources = self.analysis.layout_moves(seat, self.seats[seat])
        accepting = self.analysis.accepting(self.foundations)
        new_pile = len(self.foundations)
        return tuple((src, i) for src, card, _moves in sources
                     for i in _foundation_piles(card, accepting, new_pile))

    def apply(self, action: DemonAction) -> tuple["DemonRound", list[DemonEvent]]:
        """Validate and play one action; return the new round and what happened."""
        if not isinstance(action, ACTION_TYPES):
            raise MalformedAction(f"not a Demon action: {action!r}")
        if self.end is not None:
            raise GameOver(f"the round is over ({self.end.reason})")
        if not self.started:
            raise NotStarted("wait for the signal: the round has not started")
        seat = self._seat_index(action.seat)
        if seat in self.absent:
            raise IllegalAction(f"seat {seat} is out of this round")
        st = self.seats[seat]
        events: list[DemonEvent] = []
        if isinstance(action, Draw):
            r = self._draw(seat, st, events)
        elif isinstance(action, Recycle):
            r = self._recycle(seat, st, events)
        elif isinstance(action, ToTableau):
            r = self._to_tableau(seat, st, action, events)
        else:
            r = self._to_foundation(seat, st, action, events)
        if r.end is None:
            r = r._maybe_end(seat, events)
        return r, events

    def _replace_seat(self, seat: int, st: SeatState, **changes: Any) -> "DemonRound":
        seats = self.seats[:seat] + (st,) + self.seats[seat + 1:]
        return replace(self, seats=seats, **changes)

    def _draw(self, seat: int, st: SeatState, events: list) -> "DemonRound":
        if not st.stock:
            raise IllegalAction("the stock is empty: recycle the waste instead"
                                if st.waste else "there is nothing left to draw")
        n = min(3, len(st.stock))
        moved = tuple(reversed(st.stock[-n:]))
        new = SeatState(st.tableau, st.stock[:-n], st.waste + moved)
        events.append(Drew(seat, n, new.waste[-3:], len(new.stock), len(new.waste)))
        return self._replace_seat(seat, new)

    def _recycle(self, seat: int, st: SeatState, events: list) -> "DemonRound":
        if st.stock:
            raise IllegalAction("the stock is not empty yet: recycle only an empty stock")
        if not st.waste:
            raise IllegalAction("stock and waste are both empty: there is nothing to recycle")
        new = SeatState(st.tableau, tuple(reversed(st.waste)), ())
        events.append(Recycled(seat, len(new.stock)))
        return self._replace_seat(seat, new)

    @staticmethod
    def _check_builds(dst: Pile, card: Card, dst_index: int) -> None:
        top = dst.top
        if top is None:
            if card.rank != 13:
                raise IllegalAction(f"an empty pile takes only a king (pile {dst_index} is empty, "
                                    f"{card} is not a king)")
            return
        if top.rank != card.rank + 1 or not opposite_colour(top, card):
            raise IllegalAction(f"{card} cannot go on {top}: it needs one rank lower and the "
                                "opposite colour")

    def _to_tableau(self, seat: int, st: SeatState, a: ToTableau, events: list) -> "DemonRound":
        piles = list(st.tableau)
        dst = piles[a.dst]
        waste = st.waste
        if a.src == WASTE:
            if not waste:
                raise IllegalAction("the waste is empty")
            cards = (waste[-1],)
            self._check_builds(dst, cards[0], a.dst)
            waste = waste[:-1]
            turned = None
        else:
            src = piles[a.src]
            if a.count > len(src.up):
                raise IllegalAction(f"pile {a.src} has {len(src.up)} face-up card(s), "
                                    f"cannot move {a.count}")
            cards = src.up[-a.count:]
            self._check_builds(dst, cards[0], a.dst)
            piles[a.src], turned = _turn_up(Pile(src.down, src.up[:-a.count]))
        piles[a.dst] = Pile(dst.down, dst.up + cards)
        events.append(Moved(seat, a.src, a.dst, cards))
        if turned is not None:
            events.append(TurnedUp(seat, a.src, turned))
        return self._replace_seat(seat, SeatState(tuple(piles), st.stock, waste))

    def _to_foundation(self, seat: int, st: SeatState, a: ToFoundation, events: list) -> "DemonRound":
        piles = list(st.tableau)
        waste = st.waste
        turned = None
        if a.src == WASTE:
            if not waste:
                raise IllegalAction("the waste is empty")
            card = waste[-1]
        else:
            src = piles[a.src]
            if not src.up:
                raise IllegalAction(f"pile {a.src} is empty")
            card = src.up[-1]
        target = self._resolve_foundation(card, a.pile)
        if a.src == WASTE:
            waste = waste[:-1]
        else:
            src = piles[a.src]
            piles[a.src], turned = _turn_up(Pile(src.down, src.up[:-1]))
        fnd = list(self.foundations)
        new_pile = target == len(fnd)
        if new_pile:
            fnd.append(((card, seat),))
        else:
            fnd[target] = fnd[target] + ((card, seat),)
        new_st = SeatState(tuple(piles), st.stock, waste)
        events.append(Played(seat, a.src, card, target, new_pile))
        if turned is not None:
            events.append(TurnedUp(seat, a.src, turned))
        after = tuple(fnd)
        self.analysis.played(self.foundations, after, seat, len(self.seats))
        r = self._replace_seat(seat, new_st, foundations=after)
        if new_st.is_empty:  # rule 15: "Demon!"
            r = replace(r, end=RoundEnd("demon", seat))
            events.append(RoundEnded("demon", seat, r.scores()))
        return r

    def _resolve_foundation(self, card: Card, pile: int | None) -> int:
        """The index the card lands on (len(foundations) = a new pile), or raise."""
        nf = len(self.foundations)
        if card.rank == 1:
            return nf  # an ace always starts a new pile (rule 11)
        if pile is None:
            found = self._accepting_pile(card)
            if found is not None:
                return found
            self._raise_if_race_lost(card, None)
            raise IllegalAction(f"no foundation pile accepts {card} (it needs "
                                f"{Card(card.rank - 1, card.suit)} on top)")
        if pile >= nf:
            raise IllegalAction(f"there is no foundation pile {pile} (there are {nf}); only an "
                                "ace starts a new pile")
        top = self.foundations[pile][-1][0]
        if top.suit == card.suit and top.rank == card.rank - 1:
            return pile
        self._raise_if_race_lost(card, pile)
        raise IllegalAction(f"foundation pile {pile} (top {top}) does not accept {card}")

    def _raise_if_race_lost(self, card: Card, pile: int | None) -> None:
        """Rule 14: the pile once accepted a card like this one, and someone's got there
        first: raise `RaceLost`, naming the owner of the card now at that height.

        It raises rather than returning the exception for the caller to raise: an
        exception held in a local of a frame on its own traceback is a reference cycle
        (frames, layouts, traceback) that only the cyclic garbage collector frees, and
        lost races are frequent enough for those collections to stall the server."""
        candidates = range(len(self.foundations)) if pile is None else (pile,)
        for i in candidates:
            fpile = self.foundations[i]
            if fpile[0][0].suit == card.suit and len(fpile) >= card.rank:
                by = fpile[card.rank - 1][1]
                raise RaceLost(f"too late: seat {by} put {fpile[card.rank - 1][0]} on "
                               f"foundation pile {i} first", pile=i, by_seat=by)

    # ------------------------------------------------------------------ views

    def seat_view(self, seat: int) -> dict:
        """One seat's layout as everyone may see it: no face-down card, no stock order."""
        seat = self._seat_index(seat)
        st = self.seats[seat]
        return {
            "seat": seat,
            "tableau": self.analysis.tableau_view(seat, st.tableau),
            "stock": len(st.stock),
            "waste": [str(c) for c in st.waste[-3:]],
            "waste_count": len(st.waste),
            "on_foundations": self.cards_on_foundations(seat),
            "absent": seat in self.absent,
        }

    # ------------------------------------------------------------------ full state JSON

    def to_json(self) -> dict:
        """The canonical full state, hidden cards included (server side only)."""
        return {
            "players": len(self.seats),
            "seed": self.seed,
            "started": self.started,
            "absent": sorted(self.absent),
            "end": None if self.end is None else {"reason": self.end.reason,
                                                  "winner": self.end.winner},
            "seats": [
                {
                    "tableau": [{"down": [str(c) for c in p.down], "up": [str(c) for c in p.up]}
                                for p in st.tableau],
                    "stock": [str(c) for c in st.stock],
                    "waste": [str(c) for c in st.waste],
                }
                for st in self.seats
            ],
            "foundations": [[{"card": str(c), "seat": o} for c, o in p] for p in self.foundations],
        }

    @classmethod
    def from_json(cls, data: Any) -> "DemonRound":
        """Inverse of to_json; raises LayoutError on malformed input."""
        if not isinstance(data, Mapping):
            raise LayoutError("a Demon state must be a JSON object")
        try:
            seats = data["seats"]
            end = data.get("end")
            if end is not None:
                if not isinstance(end, Mapping) or not isinstance(end.get("reason"), str):
                    raise LayoutError("end must be null or {reason, winner}")
                end = RoundEnd(end["reason"], end.get("winner"))
            seed = data.get("seed")
            if seed is not None and not is_int(seed):
                raise LayoutError(f"seed must be an integer or null, not {seed!r}")
            absent = data.get("absent", [])
            started = data.get("started", False)
            if not isinstance(started, bool):
                raise LayoutError("started must be true or false")
            if not isinstance(seats, list) or not isinstance(absent, list):
                raise LayoutError("seats and absent must be lists")
            for s in seats:
                if not isinstance(s, Mapping) or not isinstance(s.get("tableau"), list) \
                        or len(s["tableau"]) != PILES:
                    raise LayoutError(f"every seat needs a tableau of {PILES} piles")
            if "players" in data and data["players"] != len(seats):
                raise LayoutError("players does not match the number of seats")
            return cls.from_layout(seats, data.get("foundations", []), started=started,
                                   absent=absent, end=end, seed=seed)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, LayoutError):
                raise
            raise LayoutError(f"malformed Demon state: {exc!r}") from None


def describe(round_: DemonRound) -> str:
    """A readable text picture of the full state (face-down cards in parentheses)."""
    lines = []
    head = f"Demon round, {len(round_.seats)} players"
    if round_.seed is not None:
        head += f", seed {round_.seed}"
    if round_.end is not None:
        head += f" - ended ({round_.end.reason}"
        if round_.end.winner is not None:
            head += f", seat {round_.end.winner} went out"
        head += ")"
    else:
        head += " - in play" if round_.started else " - waiting for the signal"
    lines.append(head)
    lines.append(f"Foundations ({len(round_.foundations)} piles):")
    for i, p in enumerate(round_.foundations):
        top, owner = p[-1]
        lines.append(f"  {i:2d}: {p[0][0]}..{top} ({len(p)} cards; top by seat {owner})")
    stuck = round_.stuck_seats()
    scores = round_.scores()
    for s, st in enumerate(round_.seats):
        tags = []
        if s in round_.absent:
            tags.append("absent")
        if s in stuck:
            tags.append("stuck")
        lines.append(f"Seat {s}{' [' + ', '.join(tags) + ']' if tags else ''}: "
                     f"{round_.cards_on_foundations(s)} on foundations")
        for k, p in enumerate(st.tableau):
            down = f"({format_cards(p.down)}) " if p.down else ""
            lines.append(f"  pile {k}: {down}{format_cards(p.up) or '-'}")
        lines.append(f"  stock {len(st.stock)}: {format_cards(reversed(st.stock)) or '-'}")
        lines.append(f"  waste {len(st.waste)}: {format_cards(st.waste) or '-'}")
    lines.append("Scores: " + ", ".join(f"seat {s}: {v}" for s, v in enumerate(scores)))
    return "\n".join(lines)
