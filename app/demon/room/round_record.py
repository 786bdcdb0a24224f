"""The current round as a record: its dealt cards and the ordered log of what changed it.

The log holds the players' engine actions and the room's own steps (`absent`,
`finish`), each with who sent it, under which action id and at which version, so that
an acknowledged id resent after a restart is answered, not applied again. It is the
engine's record format (docs/records.md): the store appends new steps cheaply, and a
restore replays them through the engine, so a restored round is exactly the one that
was played. The record saves and restores itself; nothing outside touches its lists
except to read them.

It also remembers which foundation pile took each card (suit and rank) last, and whose
it was. A play with `pile: null` that comes too late ("any pile that takes this card")
lost to whoever took such a card last; the foundations alone cannot tell which pile
that was when two piles of the suit have passed that height, and the engine, which sees
only the foundations, names the lowest one (issue 16, item 7).
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from app.common.errors import RaceLost
from app.demon.rules.actions import DemonAction, ToFoundation, action_from_json
from app.demon.rules.events import DemonEvent, Played
from app.demon.rules.round import DemonRound
from app.demon.rules.record import make_demon_record

StepIds = tuple[str, str, int]  # (player id, action id, version) of a player's step
# One step of the log in the engine's record format (docs/records.md): an action's
# canonical JSON (`action_to_json`), or the room's own {"type": "absent"|"finish", ...}.
# Values are read back from the database as JSON, so they are typed when the engine
# parses them (`action_from_json`), not here.
Step = dict[str, Any]


class RoundRecord:
    def __init__(self) -> None:
        self.initial: DemonRound | None = None
        self.steps: list[Step] = []
        self.step_ids: list[StepIds | None] = []
        self.cycled: set[int] = set()  # seats that have turned their whole stock over once
        self.taken: dict[tuple[str, int], tuple[int, int]] = {}  # (suit, rank) -> (pile, seat), last

    def begin(self, initial: DemonRound | None) -> None:
        """A new round dealt as `initial` (not yet started), or none: the log starts empty."""
        self.initial = initial
        self.steps = []
        self.step_ids = []
        self.cycled = set()
        self.taken = {}

    def clear(self) -> None:
        """No round at all (a rematch): nothing to save or replay."""
        self.begin(None)

    def log(self, step: Step, ids: StepIds | None = None) -> None:
        self.steps.append(step)
        self.step_ids.append(ids)
        if step.get("type") == "recycle":
            self.cycled.add(step["seat"])

    def note(self, events: Iterable[DemonEvent]) -> None:
        """The engine's events of the step just logged: remember who took which card."""
        for e in events:
            if isinstance(e, Played):
                self.taken[(e.card.suit, e.card.rank)] = (e.pile, e.seat)

    def race_winner(self, rnd: DemonRound, seat: int, action: DemonAction, race: RaceLost) -> tuple[int, int, str]:
        """(pile, seat, reason) of the play that beat `seat`'s `action` (rule 14). The
        engine names them; but for a play aimed at "any pile" (`pile: null`) the winner
        is whoever took a card like this one last, which the engine, seeing only the
        foundations, cannot tell from an earlier pile of the same height."""
        if isinstance(action, ToFoundation) and action.pile is None:
            layout = rnd.seats[seat]
            src = action.src
            card = layout.waste[-1] if isinstance(src, str) else layout.tableau[src].up[-1]
            taken = self.taken.get((card.suit, card.rank))
            if taken is not None:
                pile, by_seat = taken
                return pile, by_seat, f"too late: seat {by_seat} put {card} on foundation pile {pile} first"
        return race.pile, race.by_seat, str(race)

    def acknowledged(self) -> Iterator[StepIds]:
        """Who sent which applied action, and the version it made."""
        return filter(None, self.step_ids)

    # ------------------------------------------------------------ saving

    def initial_json(self) -> dict[str, Any] | None:
        return self.initial.to_json() if self.initial is not None else None

    def record(self) -> dict[str, Any] | None:
        """The round as an engine record (docs/records.md)."""
        if self.initial is None:
            return None
        return make_demon_record(self.initial, self.steps)

    @classmethod
    def restore(cls, initial: dict[str, Any] | None, steps: list[Step],
                step_ids: list[StepIds | None]) -> tuple["RoundRecord", DemonRound | None]:
        """The saved record and the round it replays to (None when there is no round)."""
        record = cls()
        if initial is None:
            return record, None
        dealt = DemonRound.from_json(initial)
        record.begin(dealt)
        rnd = dealt.start() if not dealt.started else dealt
        events: list[DemonEvent]
        for step, ids in zip(steps, step_ids, strict=True):
            kind = step.get("type")
            if kind == "finish":
                rnd, events = rnd.finish(step["reason"])
            elif kind == "absent":
                rnd, events = rnd.with_absent(step["seat"], step["absent"])
            else:
                rnd, events = rnd.apply(action_from_json(step))
            record.log(step, ids)
            record.note(events)
        return record, rnd
