"""Nerts: the 13-card pile and four work piles, racing on shared foundations (rules:
docs/numbered-rules.md, Nerts).

Shaped like Demon's round (`app.demon.rules.round.DemonRound`) so that the room can drive
either game through one interface: `deal(seed, players)`, `start()`/`begin()`,
`legal_actions(seat)`, `apply(action) -> (new_round, events)`, `is_stuck(seat)`,
`finish(reason)`, `with_absent(seat)`, `seat_view(seat)`, `to_json`/`from_json`. Values
are immutable: a failed `apply` raises and leaves nothing changed.

Where things are: `layout` (cards in places, the deal), `options` (H2-H4), `actions`,
`events`, `legal` (what a seat may do), `play` (what an action does), `stuck` (N12),
`ending` (N11, N13, N14), `position` (checks and JSON), `view` (what a seat shows).

Decisions beyond the rules file
-------------------------------
* The stall (N13) turns over the wastes of the seats still in the round; an absent
  seat's layout is left as it is (it takes no part in the round's progress).
* `stalled` is true from a stall until the next foundation play: while it is true, an
  all-stuck table ends the round instead of stalling again. The stall is followed at
  once by a fresh all-stuck check, since no one could move to trigger one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from app.common.cards import Card
from app.common.checks import is_int
from app.common.errors import GameOver, IllegalAction, NotStarted
from app.nerts.rules import play, position, view
from app.nerts.rules.actions import ACTION_TYPES, Draw, MalformedAction, NertsAction, Recycle, ToFoundation
from app.nerts.rules.ending import RoundEnd, Termination, round_scores
from app.nerts.rules.events import AbsenceChanged, NertsCalled, NertsEvent, RoundEnded, Stalled, Started
from app.nerts.rules.layout import MAX_PLAYERS, MIN_PLAYERS, Foundations, LayoutError, NertsSeat, deal_seat
from app.nerts.rules.legal import legal_actions
from app.nerts.rules.options import NertsOptions
from app.nerts.rules.stuck import StuckMemo, foundation_wants

__all__ = ["NertsRound"]


@dataclass(frozen=True)
class NertsRound:
    """One round: every seat's layout, the shared foundations, the house rules, who is
    away, whether a stall is pending its verdict, and how the round ended."""

    seats: tuple[NertsSeat, ...]
    foundations: Foundations = ()
    options: NertsOptions = field(default_factory=NertsOptions)
    started: bool = False
    absent: frozenset[int] = frozenset()
    stalled: bool = False
    end: RoundEnd | None = None
    seed: int | None = None
    # Each seat's stuck answer kept with its layout (N12), shared by every round made
    # from this one (`replace` copies the reference): not part of the position.
    memo: StuckMemo = field(default_factory=StuckMemo, compare=False, repr=False)

    # ------------------------------------------------------------------ construction

    @classmethod
    def deal(cls, seed: int, players: int, options: NertsOptions | None = None) -> NertsRound:
        """A fresh, not yet started round: every seat's own deck dealt as N1-N3 say."""
        if not is_int(seed):
            raise ValueError(f"seed must be an integer, not {seed!r}")
        if not is_int(players) or not (MIN_PLAYERS <= players <= MAX_PLAYERS):
            raise ValueError(f"Nerts needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}")
        seats = tuple(deal_seat(seed, s) for s in range(players))
        return cls(seats=seats, options=options or NertsOptions(), seed=seed)

    @classmethod
    def from_layout(
        cls,
        seats: Iterable[Any],
        foundations: Iterable[Iterable[Any]] = (),
        options: NertsOptions | None = None,
        started: bool = True,
        absent: Iterable[int] = (),
        stalled: bool = False,
        end: RoundEnd | None = None,
        seed: int | None = None,
    ) -> NertsRound:
        """A round from explicit cards (tests, replays), checked by `position.check_position`."""
        r = cls(
            seats=position.parse_seats(seats),
            foundations=position.parse_foundations(foundations),
            options=options or NertsOptions(),
            started=bool(started),
            absent=frozenset(absent),
            stalled=bool(stalled),
            end=end,
            seed=seed,
        )
        position.check_position(r.seats, r.foundations, r.absent, r.end)
        return r

    # ------------------------------------------------------------------ queries

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def ended(self) -> bool:
        return self.end is not None

    def _seat_index(self, seat: object) -> int:
        if type(seat) is not int or not (0 <= seat < len(self.seats)):  # bool is not a seat
            raise IllegalAction(f"there is no seat {seat!r} (seats 0..{len(self.seats) - 1})")
        return seat

    def foundation_counts(self) -> tuple[int, ...]:
        """How many foundation cards each seat owns (seat order)."""
        counts = [0] * len(self.seats)
        for fpile in self.foundations:
            for _card, owner in fpile:
                counts[owner] += 1
        return tuple(counts)

    def scores(self) -> tuple[int, ...]:
        """N14, in seat order (the same formula mid-round and at the end)."""
        return round_scores(self.foundation_counts(), [len(st.nerts) for st in self.seats])

    def foundation_wants(self) -> frozenset[int]:
        return foundation_wants(fpile[-1][0] for fpile in self.foundations)

    def is_stuck(self, seat: object) -> bool:
        """N12, exact (`app.nerts.rules.stuck`). Looks only at the layout and foundations."""
        index = self._seat_index(seat)
        return self.memo.is_stuck(index, self.seats[index], self.foundation_wants(), self.options.draw)

    def stuck_seats(self, among: Iterable[int] | None = None) -> frozenset[int]:
        """The stuck seats (N12), of all or of those in `among`."""
        wants, draw, memo = self.foundation_wants(), self.options.draw, self.memo
        seats = range(len(self.seats)) if among is None else among
        return frozenset(s for s in seats if memo.is_stuck(s, self.seats[s], wants, draw))

    def source_card(self, seat: int, src: int | str) -> Card | None:
        """The card on top of `src` ("nerts", "waste" or a work pile) of `seat`, if any."""
        st = self.seats[seat]
        pile = (
            st.nerts if src == "nerts" else st.waste if src == "waste" else st.work[src] if isinstance(src, int) else ()
        )
        return pile[-1] if pile else None

    def _all_present_stuck(self, first: int | None) -> bool:
        """`first` (the seat that just moved, the likeliest to have a move) is asked first."""
        wants, draw, memo = self.foundation_wants(), self.options.draw, self.memo
        order = sorted((s for s in range(len(self.seats)) if s not in self.absent), key=lambda s: s != first)
        return all(memo.is_stuck(s, self.seats[s], wants, draw) for s in order)

    # ------------------------------------------------------------------ the end

    def _ended(self, reason: Termination, winner: int | None, events: list[NertsEvent]) -> NertsRound:
        done = replace(self, end=RoundEnd(reason, winner))
        events.append(RoundEnded(reason, winner, done.scores()))
        return done

    def _stall(self, events: list[NertsEvent]) -> NertsRound:
        """N13: every present seat's waste under its stock, then its top card to the bottom."""
        present = tuple(s for s in range(len(self.seats)) if s not in self.absent)
        seats = list(self.seats)
        for s in present:
            seats[s] = play.stall_seat(seats[s])
        events.append(Stalled(present, tuple(len(seats[s].stock) for s in present)))
        return replace(self, seats=tuple(seats), stalled=True)

    def _maybe_end(self, first: int | None, events: list[NertsEvent]) -> NertsRound:
        """N13 (and H4): when nobody present can make progress, stall once, or end."""
        if self.end is not None or not self.started:
            return self
        if len(self.absent) >= len(self.seats):
            return self._ended(Termination.ABANDONED, None, events)
        if not self._all_present_stuck(first):
            return self
        if not self.options.stall or self.stalled:
            return self._ended(Termination.STUCK, None, events)
        r = self._stall(events)
        return r._ended(Termination.STUCK, None, events) if r._all_present_stuck(None) else r

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> NertsRound:
        """The signal. If nobody could ever move, the stall (or the end) follows at once."""
        return self.begin()[0]

    def begin(self) -> tuple[NertsRound, list[NertsEvent]]:
        if self.end is not None:
            raise GameOver("the round is already over")
        if self.started:
            raise IllegalAction("the round has already started")
        events: list[NertsEvent] = [Started()]
        return replace(self, started=True)._maybe_end(None, events), events

    def finish(self, reason: Termination | str) -> tuple[NertsRound, list[NertsEvent]]:
        """End the round for a room reason (VOTE, TIME). No winner."""
        try:
            why = Termination(reason)
        except ValueError:
            raise ValueError(f"not a reason a round ends for: {reason!r}") from None
        if self.end is not None:
            raise GameOver(f"the round is already over ({self.end.reason})")
        events: list[NertsEvent] = []
        return self._ended(why, None, events), events

    def with_absent(self, seat: object, absent: bool = True) -> tuple[NertsRound, list[NertsEvent]]:
        """Mark a seat out of (or back in) the round; may stall or end it (N13)."""
        index = self._seat_index(seat)
        now = self.absent | {index} if absent else self.absent - {index}
        if now == self.absent:
            return self, []
        events: list[NertsEvent] = [AbsenceChanged(index, bool(absent))]
        return replace(self, absent=now)._maybe_end(None, events), events

    # ------------------------------------------------------------------ actions

    def legal_actions(self, seat: object) -> tuple[NertsAction, ...]:
        """Every legal action of the seat (`legal.legal_actions`); empty before the
        start, after the end and for an absent seat."""
        index = self._seat_index(seat)
        if not self.started or self.end is not None or index in self.absent:
            return ()
        return legal_actions(index, self.seats[index], self.foundations)

    def apply(self, action: object) -> tuple[NertsRound, list[NertsEvent]]:
        """Validate and play one action; return the new round and what happened."""
        if not isinstance(action, ACTION_TYPES):
            raise MalformedAction(f"not a Nerts action: {action!r}")
        if self.end is not None:
            raise GameOver(f"the round is over ({self.end.reason})")
        if not self.started:
            raise NotStarted("wait for the signal: the round has not started")
        seat = self._seat_index(action.seat)
        if seat in self.absent:
            raise IllegalAction(f"seat {seat} is out of this round")
        st, opts = self.seats[seat], self.options
        events: list[NertsEvent] = []
        foundations, stalled = self.foundations, self.stalled
        if isinstance(action, ToFoundation):
            new, foundations = play.to_foundation(seat, st, action, foundations, opts, events)
            stalled = False
        elif isinstance(action, Draw):
            new = play.draw(seat, st, opts, events)
        elif isinstance(action, Recycle):
            new = play.recycle(seat, st, events)
        else:
            new = play.to_work(seat, st, action, opts, events)
        seats = self.seats[:seat] + (new,) + self.seats[seat + 1 :]
        r = replace(self, seats=seats, foundations=foundations, stalled=stalled)
        if not new.nerts:  # N11: "Nerts!"
            events.append(NertsCalled(seat))
            return r._ended(Termination.NERTS, seat, events), events
        return r._maybe_end(seat, events), events

    # ------------------------------------------------------------------ views and JSON

    def seat_view(self, seat: object) -> dict[str, Any]:
        """One seat's layout as its player (and the table) may see it: no face-down card."""
        index = self._seat_index(seat)
        home = self.foundation_counts()[index]
        return view.seat_view(index, self.seats[index], self.options, home, index in self.absent)

    def to_json(self) -> dict[str, Any]:
        """The canonical full state, hidden cards included (server side and records)."""
        flags = {
            "seed": self.seed,
            "options": self.options.to_json(),
            "started": self.started,
            "absent": sorted(self.absent),
            "stalled": self.stalled,
        }
        return position.state_to_json(self.seats, self.foundations, flags, self.end)

    @classmethod
    def from_json(cls, data: object) -> NertsRound:
        """Inverse of to_json; raises LayoutError on malformed input."""
        if not isinstance(data, Mapping):
            raise LayoutError("a Nerts state must be a JSON object")
        try:
            s = position.parse_state(data)
            return cls.from_layout(
                seats=s["seats"],
                foundations=s["foundations"],
                options=NertsOptions.from_json(s["options"]),
                started=s["started"],
                absent=s["absent"],
                stalled=s["stalled"],
                end=s["end"],
                seed=s["seed"],
            )
        except LayoutError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise LayoutError(f"malformed Nerts state: {exc!r}") from None
