"""The current round as a record: its dealt cards and the ordered log of what changed it.

The log holds the players' engine actions and the room's own steps (`absent`,
`finish`), each with who sent it, under which action id and at which version, so that
an acknowledged id resent after a restart is answered, not applied again. It is the
engine's record format (docs/records.md): the store appends new steps cheaply, and a
restore replays them through the engine, so a restored round is exactly the one that
was played. The record saves and restores itself; nothing outside touches its lists
except to read them.
"""

from __future__ import annotations

from typing import Iterator

from app.engine.demon import DemonRound
from app.engine.records import make_demon_record, replay_demon

StepIds = tuple[str, str, int]  # (player id, action id, version) of a player's step


class RoundRecord:
    def __init__(self) -> None:
        self.initial: DemonRound | None = None
        self.steps: list[dict] = []
        self.step_ids: list[StepIds | None] = []
        self.cycled: set[int] = set()  # seats that have turned their whole stock over once

    def begin(self, initial: DemonRound) -> None:
        """A new round dealt as `initial` (not yet started): the log starts empty."""
        self.initial = initial
        self.steps = []
        self.step_ids = []
        self.cycled = set()

    def clear(self) -> None:
        """No round at all (a rematch): nothing to save or replay."""
        self.initial = None
        self.steps = []
        self.step_ids = []
        self.cycled = set()

    def log(self, step: dict, ids: StepIds | None = None) -> None:
        self.steps.append(step)
        self.step_ids.append(ids)
        if step.get("type") == "recycle":
            self.cycled.add(step["seat"])

    def acknowledged(self) -> Iterator[StepIds]:
        """Who sent which applied action, and the version it made."""
        return filter(None, self.step_ids)

    # ------------------------------------------------------------ saving

    def initial_json(self) -> dict | None:
        return self.initial.to_json() if self.initial is not None else None

    def record(self) -> dict | None:
        """The round as an engine record (docs/records.md)."""
        if self.initial is None:
            return None
        return make_demon_record(self.initial, self.steps)

    @classmethod
    def restore(cls, initial: dict | None, steps: list[dict],
                step_ids: list[StepIds | None]) -> tuple["RoundRecord", DemonRound | None]:
        """The saved record and the round it replays to (None when there is no round)."""
        record = cls()
        if initial is None:
            return record, None
        record.initial = DemonRound.from_json(initial)
        for step, ids in zip(steps, step_ids, strict=True):
            record.log(step, ids)
        return record, replay_demon(make_demon_record(record.initial, record.steps))
