"""Demon: racing Klondike on shared foundations (rules: docs/numbered-rules.md, Demon).

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
This module is the round: `DemonRound`, the position and what may happen to it as a
whole (start, absence, the end). Each concern it delegates has its own module of
`app.demon.rules`, and the public names of the value modules are re-exported here, so
`from app.demon.rules.round import X` serves for them:

* `actions`: the actions and their JSON (checked for shape when built);
* `events`: the events `apply` returns (JSON by `app.common.events`);
* `layout`: piles, a seat's layout and the deal (rule 3);
* `legal`: what a seat may do (the legal actions, built from parts);
* `play`: what an action does (rules 5-14);
* `ending`: why a round ended (`Termination`) and the score (rules 15-18);
* `position`: building, checking and the JSON of a position;
* `analysis`: `RoundAnalysis`, everything a round caches (see below);
* `stuck`: the exact rule-16 search; `describe`: a text picture of a round.

The round and its analysis
--------------------------
A round is a frozen dataclass; every new round is a copy with some fields changed
(`dataclasses.replace`, or the constructor with every field on the hot path of `apply`).
Its `analysis` field is a `RoundAnalysis` declared with `compare=False`: it takes no part
in equality, hashing or repr, and each copy passes it on to the new round like any other
field, so a move's round shares the answers its parent computed (each answer is kept
beside the object it depends on, so sharing it is safe). A round built from scratch
(`deal`, `from_layout`, `from_json`) gets a fresh one; `round.analysis.clear()` forgets
everything.

Decisions beyond the rules file
-------------------------------
* A seat "goes out" (rule 15) when a foundation play leaves its layout (tableau, stock and
  waste) empty; with a full deck that is its 52nd card.
* Absent seats (left, or past the reconnection grace) may not act; they keep their score and
  no longer hold up the "everyone is stuck" end. When no seat is left present the round
  ends as ABANDONED.
* How foundation plays pick their pile and when a lost race is reported: `play`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from app.common.checks import is_int
from app.common.errors import GameOver, IllegalAction, NotStarted
from app.demon.rules import actions, events, layout, play, position

# Named one by one, not `import *`: a module compiled by mypyc (app/support/native.py)
# binds only the names its source spells out.
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
from app.demon.rules.analysis import RoundAnalysis
from app.demon.rules.ending import OUT_SCORE, WIN_BONUS, RoundEnd, Termination, round_scores
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
from app.demon.rules.layout import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PILES,
    FoundationPile,
    Foundations,
    LayoutError,
    Pile,
    PileView,
    SeatState,
    deal_seat,
    is_run,
)

# The round's own names, and every public name of the value modules (re-exported, so that
# `from app.demon.rules.round import X` serves for all of them).
__all__ = ["OUT_SCORE", "WIN_BONUS", "DemonRound", "RoundAnalysis", "RoundEnd", "Termination"]
__all__ += actions.__all__
__all__ += events.__all__
__all__ += layout.__all__


@dataclass(frozen=True)
class DemonRound:
    """One round: every seat's layout, the shared foundations, who is away, how it ended.

    Build it with `deal`, `from_layout` or `from_json`; `apply`, `begin`, `finish` and
    `with_absent` return new rounds. `analysis` is the cache every round derived from
    this one shares (see the module docstring); it is not part of the position.
    """

    seats: tuple[SeatState, ...]
    foundations: Foundations = ()
    started: bool = False
    absent: frozenset[int] = frozenset()
    end: RoundEnd | None = None
    seed: int | None = None
    analysis: RoundAnalysis = field(default_factory=RoundAnalysis, compare=False, repr=False)

    # ------------------------------------------------------------------ construction

    @classmethod
    def deal(cls, seed: int, players: int) -> DemonRound:
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
    ) -> DemonRound:
        """A round from explicit cards (tests, replays). Seats are SeatState objects or
        mappings {"tableau": [...], "stock": ..., "waste": ...}; foundation piles are
        sequences of (card, seat) pairs or {"card": ..., "seat": ...} mappings. Checked
        as `validate` says."""
        r = cls(
            seats=position.parse_seats(seats),
            foundations=position.parse_foundations(foundations),
            started=bool(started),
            absent=frozenset(absent),
            end=end,
            seed=seed,
        )
        r.validate()
        return r

    def validate(self) -> None:
        """Raise LayoutError unless this is a well-formed position (`position.check_position`)."""
        position.check_position(self.seats, self.foundations, self.absent, self.end)

    # ------------------------------------------------------------------ basic queries

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def ended(self) -> bool:
        return self.end is not None

    def _seat_index(self, seat: object) -> int:
        # The public methods that take a seat declare it `object` and check it here: a
        # compiled round (app/support/native.py) would otherwise take True as seat 1
        # and refuse "0" with a TypeError, not an IllegalAction.
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
        return round_scores(self.foundation_counts(), self.end)

    def foundation_wants(self) -> frozenset[int]:
        """What the foundations accept now, as `app.demon.rules.stuck` card ids."""
        return self.analysis.foundation_wants(self.foundations)

    # ------------------------------------------------------------------ stuck (rule 16)

    def is_stuck(self, seat: object) -> bool:
        """Rule 16, exact: no sequence of this seat's own draws, recycles and tableau moves
        reaches a foundation play, a waste-to-tableau move, or a turn-up, with the
        foundations as they are. Looks only at the layout (not at started/ended/absent)."""
        index = self._seat_index(seat)
        return self.analysis.is_stuck(index, self.seats[index], self.foundation_wants())

    def stuck_seats(self, among: Iterable[int] | None = None) -> frozenset[int]:
        """The stuck seats (rule 16), of all seats or of those `among` (seat numbers)."""
        wants, analysis = self.foundation_wants(), self.analysis
        seats = range(len(self.seats)) if among is None else [self._seat_index(s) for s in among]
        return frozenset(s for s in seats if analysis.is_stuck(s, self.seats[s], wants))

    def _all_present_stuck(self, first: int | None = None) -> bool:
        """`first` (the seat that just moved, the likeliest to have a move) is asked first."""
        wants, absent, analysis = self.foundation_wants(), self.absent, self.analysis
        if first is not None and first not in absent and not analysis.is_stuck(first, self.seats[first], wants):
            return False
        return all(analysis.is_stuck(s, st, wants) for s, st in enumerate(self.seats) if s != first and s not in absent)

    def _ended(self, reason: Termination, winner: int | None, events: list[DemonEvent]) -> DemonRound:
        done = replace(self, end=RoundEnd(reason, winner))
        events.append(RoundEnded(reason, winner, done.scores()))
        return done

    def _maybe_end(self, first: int | None, events: list[DemonEvent]) -> DemonRound:
        """End the round when nobody present can ever change anything (or nobody is left)."""
        if self.end is not None or not self.started:
            return self
        if len(self.absent) >= len(self.seats):
            return self._ended(Termination.ABANDONED, None, events)
        if self._all_present_stuck(first):
            return self._ended(Termination.STUCK, None, events)
        return self

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> DemonRound:
        """The "go" signal (rule 4). If nobody could ever move, the round ends at once."""
        return self.begin()[0]

    def begin(self) -> tuple[DemonRound, list[DemonEvent]]:
        """`start()` with its events: Started, and RoundEnded if everyone is stuck."""
        if self.end is not None:
            raise GameOver("the round is already over")
        if self.started:
            raise IllegalAction("the round has already started")
        events: list[DemonEvent] = [Started()]
        r = replace(self, started=True)._maybe_end(None, events)
        return r, events

    def finish(self, reason: Termination | str) -> tuple[DemonRound, list[DemonEvent]]:
        """End the round for a room reason (VOTE, TIME; or its string). No winner."""
        try:
            why = Termination(reason)
        except ValueError:
            raise ValueError(f"not a reason a round ends for: {reason!r}") from None
        if self.end is not None:
            raise GameOver(f"the round is already over ({self.end.reason})")
        events: list[DemonEvent] = []
        return self._ended(why, None, events), events

    def with_absent(self, seat: object, absent: bool = True) -> tuple[DemonRound, list[DemonEvent]]:
        """Mark a seat out of (or back in) the round. May end the round: when the seats
        still present are all stuck, or nobody is left."""
        index = self._seat_index(seat)
        now = self.absent | {index} if absent else self.absent - {index}
        if now == self.absent:
            return self, []
        events: list[DemonEvent] = [AbsenceChanged(index, bool(absent))]
        r = replace(self, absent=now)._maybe_end(None, events)
        return r, events

    # ------------------------------------------------------------------ actions

    def _in_play(self, seat: int) -> bool:
        return self.started and self.end is None and seat not in self.absent

    def legal_actions(self, seat: object) -> tuple[DemonAction, ...]:
        """Every legal action of the seat, foundation plays with an explicit pile index
        (an ace: len(foundations), a new pile). Empty before the start, after the end, and
        for an absent seat. The same tuple while the answer is the same (the analysis
        keeps it), so a caller may key what it derives from it by the tuple.

        Order: draw or recycle; then for the waste and each pile in turn, its foundation
        plays and its tableau moves (`legal.legal_answer`)."""
        index = self._seat_index(seat)
        if not self._in_play(index):
            return ()
        return self.analysis.legal_actions(index, self.seats[index], self.foundations)

    def foundation_plays(self, seat: object) -> tuple[tuple[int | str, int], ...]:
        """The (source, pile) pairs of the seat's legal foundation plays: the part of
        `legal_actions` that another seat's move can change."""
        index = self._seat_index(seat)
        if not self._in_play(index):
            return ()
        return self.analysis.foundation_plays(index, self.seats[index], self.foundations)

    def apply(self, action: object) -> tuple[DemonRound, list[DemonEvent]]:
        """Validate and play one action; return the new round and what happened.
        Takes any object and refuses what is not an action (MalformedAction): compiled
        by mypyc (app/support/native.py), a narrower type here would be a TypeError at
        the call instead."""
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
        foundations = self.foundations
        if isinstance(action, ToFoundation):
            new, foundations = play.to_foundation(seat, st, action, self.foundations, events)
            self.analysis.played(self.foundations, foundations, seat, len(self.seats))
        elif isinstance(action, Draw):
            new = play.draw(seat, st, events)
        elif isinstance(action, Recycle):
            new = play.recycle(seat, st, events)
        else:
            new = play.to_tableau(seat, st, action, events)
        seats = self.seats[:seat] + (new,) + self.seats[seat + 1 :]
        # Not `dataclasses.replace` on the hot path: it introspects the fields every call
        # (10-14 us against 5.5-6.3 us for the constructor, pure Python). The analysis
        # carries over.
        r = DemonRound(seats, foundations, self.started, self.absent, self.end, self.seed, self.analysis)
        if isinstance(action, ToFoundation) and new.is_empty:  # rule 15: "Demon!"
            return r._ended(Termination.DEMON, seat, events), events
        return r._maybe_end(seat, events), events

    # ------------------------------------------------------------------ views and JSON

    def seat_view(self, seat: object) -> dict[str, Any]:
        """One seat's layout as everyone may see it: no face-down card, no stock order."""
        index = self._seat_index(seat)
        st = self.seats[index]
        return {
            "seat": index,
            "tableau": self.analysis.tableau_view(index, st.tableau),
            "stock": len(st.stock),
            "waste": [str(c) for c in st.waste[-3:]],
            "waste_count": len(st.waste),
            "on_foundations": self.cards_on_foundations(index),
            "absent": index in self.absent,
        }

    def to_json(self) -> dict[str, Any]:
        """The canonical full state, hidden cards included (server side only)."""
        return position.state_to_json(self.seats, self.foundations, self.started, self.absent, self.end, self.seed)

    @classmethod
    def from_json(cls, data: object) -> DemonRound:
        """Inverse of to_json; raises LayoutError on malformed input."""
        if not isinstance(data, Mapping):
            raise LayoutError("a Demon state must be a JSON object")
        try:
            # Keyword by keyword, not `**`: mypyc (app/support/native.py) mismatches a
            # dict spread into a compiled classmethod's arguments.
            state = position.parse_state(data)
            return cls.from_layout(
                seats=state["seats"],
                foundations=state["foundations"],
                started=state["started"],
                absent=state["absent"],
                end=state["end"],
                seed=state["seed"],
            )
        except LayoutError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise LayoutError(f"malformed Demon state: {exc!r}") from None
