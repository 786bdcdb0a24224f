"""The current round as a record: its dealt cards and the ordered log of what changed it.

The log holds the players' engine actions and the room's own steps (`absent`,
`finish`), each with who sent it, under which action id and at which version, so that
an acknowledged id resent after a restart is answered, not applied again. It is the
engine's record format (docs/records.md): the store appends new steps cheaply, and a
restore replays them through the engine, so a restored round is exactly the one that
was played. The record saves and restores itself; nothing outside touches its lists
except to read them.

Each step also keeps when the server received it (`times`: seconds after the signal, on
the hub's receive clock; None for steps saved before times were kept), which the replay
viewer plays back at their real pace and the race margin is measured on.

It also remembers which foundation pile took each card (suit and rank) last, and whose
it was. A play with `pile: null` that comes too late ("any pile that takes this card")
lost to whoever took such a card last; the foundations alone cannot tell which pile
that was when two piles of the suit have passed that height, and the engine, which sees
only the foundations, names the lowest one.

The record is of the room's game (`game`, a `RaceGame`: Demon's or Nerts'); it reads
and writes actions, events and rounds through it and knows neither game's rules.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from app.common.errors import RaceLost
from app.common.events import Event
from app.racing import DEMON, RaceGame, RaceRound

StepIds = tuple[str, str, int]  # (player id, action id, version) of a player's step
# One step of the log in the engine's record format (docs/records.md): an action's
# canonical JSON (`action_to_json`), or the room's own {"type": "absent"|"finish", ...}.
# Values are read back from the database as JSON, so they are typed when the engine
# parses them (`action_from_json`), not here.
Step = dict[str, Any]


class RoundRecord:
    def __init__(self, game: RaceGame = DEMON) -> None:
        self.game = game  # the game the round is dealt in (the room sets it at each deal)
        self.initial: RaceRound | None = None
        self.steps: list[Step] = []
        self.step_ids: list[StepIds | None] = []
        self.cycled: set[int] = set()  # seats that have turned their whole stock over once
        self.taken: dict[tuple[str, int], tuple[int, int]] = {}  # (suit, rank) -> (pile, seat), last
        self.times: list[float | None] = []  # per step: seconds after the signal it was received
        self.landed: dict[tuple[int, int], float] = {}  # (pile, rank) -> when that card's play arrived
        self.started_at = 0.0  # the receive clock's reading at the signal
        self.round_id: str | None = None  # names the round's replay (its link), unguessable

    def begin(self, initial: RaceRound | None, started_at: float = 0.0) -> None:
        """A new round dealt as `initial` (not yet started), or none: the log starts empty.
        `started_at`: the receive clock at the signal (step times count from it)."""
        self.initial = initial
        self.round_id = secrets.token_urlsafe(12) if initial is not None else None
        self.steps = []
        self.step_ids = []
        self.cycled = set()
        self.taken = {}
        self.times = []
        self.landed = {}
        self.started_at = started_at

    def clear(self) -> None:
        """No round at all (a rematch): nothing to save or replay."""
        self.begin(None)

    def log(self, step: Step, ids: StepIds | None = None, now: float | None = None) -> None:
        """Append a step received at `now` on the receive clock (None: not known)."""
        self.steps.append(step)
        self.step_ids.append(ids)
        self.times.append(None if now is None else round(now - self.started_at, 3))
        if step.get("type") == "recycle":
            self.cycled.add(step["seat"])

    def note(self, events: Iterable[Event]) -> None:
        """The engine's events of the step just logged: remember who took which card,
        and when (the step's time)."""
        at = self.times[-1] if self.times else None
        for e in self.game.foundation_plays(events):
            self.taken[(e.card.suit, e.card.rank)] = (e.pile, e.seat)
            if at is not None:
                self.landed[(e.pile, e.card.rank)] = at

    def race_winner(self, rnd: RaceRound, seat: int, action: object, race: RaceLost) -> tuple[int, int, str]:
        """(pile, seat, reason) of the play that beat `seat`'s `action` (rule 14). The
        engine names them; but for a play aimed at "any pile" (`pile: null`) the winner
        is whoever took a card like this one last, which the engine, seeing only the
        foundations, cannot tell from an earlier pile of the same height."""
        card = self.game.foundation_card(rnd, seat, action)
        if card is not None and getattr(action, "pile", 0) is None:
            taken = self.taken.get((card.suit, card.rank))
            if taken is not None:
                pile, by_seat = taken
                return pile, by_seat, f"too late: seat {by_seat} put {card} on foundation pile {pile} first"
        return race.pile, race.by_seat, str(race)

    def margin_s(self, rnd: RaceRound, seat: int, action: object, pile: int, now: float) -> float | None:
        """How long before `now` (the losing play's receive time) the winning card of
        `pile` arrived, in seconds; None when that play's time is not known (it was
        saved before times were kept, or the card was on the pile from the start)."""
        card = self.game.foundation_card(rnd, seat, action)
        if card is None:
            return None
        at = self.landed.get((pile, card.rank))
        if at is None:
            return None
        return max(0.0, round(now - self.started_at - at, 3))

    def acknowledged(self) -> Iterator[StepIds]:
        """Who sent which applied action, and the version it made."""
        return filter(None, self.step_ids)

    # ------------------------------------------------------------ saving

    def initial_json(self) -> dict[str, Any] | None:
        return self.initial.to_json() if self.initial is not None else None

    def record(self) -> dict[str, Any] | None:
        """The round as an engine record (docs/records.md), with each step's time."""
        if self.initial is None:
            return None
        return self.game.make_record(self.initial, self.steps, self.times)

    @classmethod
    def restore(
        cls,
        initial: dict[str, Any] | None,
        steps: list[Step],
        step_ids: list[StepIds | None],
        times: list[float | None] | None = None,
        now: float = 0.0,
        game: RaceGame = DEMON,
    ) -> tuple[RoundRecord, RaceRound | None]:
        """The saved record and the round it replays to (None when there is no round).
        `times`: each step's saved time (None: not kept). The round's clock carries on
        from the last known time at `now`: the time the server was down does not count."""
        record = cls(game)
        if initial is None:
            return record, None
        times = times if times is not None else [None] * len(steps)
        known = [t for t in times if t is not None]
        dealt = game.round_from_json(initial)
        record.begin(dealt, started_at=now - (known[-1] if known else 0.0))
        rnd = dealt.start() if not dealt.started else dealt
        events: Sequence[Event]
        for step, ids, at in zip(steps, step_ids, times, strict=True):
            kind = step.get("type")
            if kind == "finish":
                rnd, events = rnd.finish(step["reason"])
            elif kind == "absent":
                rnd, events = rnd.with_absent(step["seat"], step["absent"])
            else:
                rnd, events = rnd.apply(game.action_from_json(step))
            record.log(step, ids)
            record.times[-1] = at
            record.note(events)
        return record, rnd
