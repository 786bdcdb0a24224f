"""Devil's Grip: a deal being played (history, undo/redo, hint), game records, the daily
deal number and a text rendering for the replay tool. The record header (format and
version) is the one both games share, `app.records.records`'s."""

from __future__ import annotations

import datetime
from typing import Any

from app.common.checks import is_int
from app.common.errors import IllegalAction, InvalidRecord
from app.common.records import RECORD_FORMAT, RECORD_VERSION
from app.common.rng import derive_seed
from app.grip.rules.state import (
    COLS,
    ROWS,
    EndDeal,
    GripAction,
    GripEvent,
    GripState,
    grip_action_from_json,
    grip_action_to_json,
    rating,
    state_from_parts,
)

GAME_FORMAT = "demon-devils-grip-game"
_DAILY_TAG = 0x4447_4441_494C_59  # "DGDAILY": keeps daily numbers apart from other seeds


def daily_deal_number(year: int, month: int, day: int) -> int:
    """The deal number of the daily deal for a calendar date (1 .. 999,999,999).

    The engine has no clock: the caller passes the date. The number is a hash of the
    date, so it does not reveal tomorrow's deal at a glance; every machine computes the
    same number for the same date.
    """
    ordinal = datetime.date(year, month, day).toordinal()
    return 1 + derive_seed(_DAILY_TAG, ordinal) % 999_999_999


class GripGame:
    """A deal with its history: the actions played, a redo stack for undone ones, and
    whether undo was ever used (rule 12: such a game is not ranked)."""

    def __init__(self, initial: GripState, number: int | None = None) -> None:
        self.number = number
        self.initial = initial
        self._states: list[GripState] = [initial]
        self.actions: list[GripAction] = []
        self._redo: list[GripAction] = []  # last element = the next action `redo` plays
        self.used_undo = False

    @classmethod
    def new(cls, number: int, passes: int | None = None) -> GripGame:
        return cls(GripState.deal(number, passes), number)

    @property
    def state(self) -> GripState:
        return self._states[-1]

    def copy(self) -> GripGame:
        """An independent copy (states are immutable and shared): a batch of operations
        is tried on a copy, so that a refused one leaves the game as it was."""
        twin = GripGame(self.initial, self.number)
        twin._states = list(self._states)
        twin.actions = list(self.actions)
        twin._redo = list(self._redo)
        twin.used_undo = self.used_undo
        return twin

    @property
    def can_undo(self) -> bool:
        return bool(self.actions)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def redo_actions(self) -> list[GripAction]:
        """The undone actions, next one to redo first."""
        return list(reversed(self._redo))

    def apply(self, action: GripAction) -> list[GripEvent]:
        """Play an action (validated; raises like `GripState.apply`). Clears the redo stack."""
        new, events = self.state.apply(action)
        self._states.append(new)
        self.actions.append(action)
        self._redo.clear()
        return events

    def end(self) -> list[GripEvent]:
        """The player ends the deal (rule 10)."""
        return self.apply(EndDeal())

    def undo(self) -> None:
        """Take back the last action (rule 12); marks the game as played with undo."""
        if not self.actions:
            raise IllegalAction("nothing to undo")
        self._states.pop()
        self._redo.append(self.actions.pop())
        self.used_undo = True

    def redo(self) -> None:
        """Play again the last undone action."""
        if not self._redo:
            raise IllegalAction("nothing to redo")
        action = self._redo.pop()
        new, _ = self.state.apply(action)
        self._states.append(new)
        self.actions.append(action)

    def hint(self) -> GripAction | None:
        """See `GripState.hint`."""
        return self.state.hint()

    def record(self) -> dict[str, Any]:
        return make_grip_record(self)

    def to_json(self) -> dict[str, Any]:
        """Everything, including the redo stack and `used_undo`, for storage."""
        return {
            "format": GAME_FORMAT,
            "version": RECORD_VERSION,
            "number": self.number,
            "initial": self.initial.to_json(),
            "actions": [grip_action_to_json(a) for a in self.actions],
            "redo": [grip_action_to_json(a) for a in self.redo_actions],
            "used_undo": self.used_undo,
        }

    @classmethod
    def from_json(cls, data: Any) -> GripGame:
        """Inverse of `to_json`: replays the actions (and checks the redo stack replays
        too); raises `InvalidRecord` for anything malformed or illegal."""
        if not isinstance(data, dict):
            raise InvalidRecord("a game must be a JSON object")
        if data.get("format") != GAME_FORMAT or data.get("version") != RECORD_VERSION:
            raise InvalidRecord("not a Devil's Grip game (format/version)")
        number = data.get("number")
        if number is not None and not is_int(number):
            raise InvalidRecord("'number' must be an integer or null")
        used_undo = data.get("used_undo")
        if not isinstance(used_undo, bool):
            raise InvalidRecord("'used_undo' must be true or false")
        game = cls(GripState.from_json(data.get("initial")), number)
        _replay_into(game, data.get("actions"), "actions")
        redo = _parse_actions(data.get("redo"), "redo")
        trial = game.state
        for i, action in enumerate(redo):
            try:
                trial, _ = trial.apply(action)
            except IllegalAction as exc:
                raise InvalidRecord(f"redo action {i}: {exc}", index=i) from None
        game._redo = list(reversed(redo))
        game.used_undo = used_undo
        return game


def _parse_actions(items: Any, what: str) -> list[GripAction]:
    if not isinstance(items, list):
        raise InvalidRecord(f"'{what}' must be a list")
    out = []
    for i, item in enumerate(items):
        try:
            out.append(grip_action_from_json(item))
        except IllegalAction as exc:
            raise InvalidRecord(f"{what} {i}: {exc}", index=i) from None
    return out


def _replay_into(game: GripGame, items: Any, what: str) -> None:
    if not isinstance(items, list):
        raise InvalidRecord(f"'{what}' must be a list")
    for i, item in enumerate(items):
        try:
            game.apply(grip_action_from_json(item))
        except IllegalAction as exc:
            raise InvalidRecord(f"action {i} ({item!r}): {exc}", index=i) from None


# --------------------------------------------------------------------------- records


def make_grip_record(game: GripGame) -> dict[str, Any]:
    """The game record: header, the initial cards (stock: last = top) and the actions.

    ``initial.passes_used`` is included so that positions made with `from_layout` replay
    too; it is 1 for every dealt game.
    """
    init = game.initial
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "game": "devils-grip",
        "options": {"passes": init.passes_allowed},
        "number": game.number,
        "initial": {
            "grid": [[str(c) for c in p] for p in init.grid],
            "stock": [str(c) for c in init.stock],
            "talon": [str(c) for c in init.talon],
            "passes_used": init.passes_used,
        },
        "actions": [grip_action_to_json(a) for a in game.actions],
        "used_undo": game.used_undo,
    }


def game_from_record(record: Any) -> GripGame:
    """A `GripGame` with the record's actions played (no redo stack); `InvalidRecord`
    (with ``index`` = the first bad action) when the record is malformed or illegal."""
    if not isinstance(record, dict):
        raise InvalidRecord("a record must be a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise InvalidRecord(f"not a Devil's Grip record: format {record.get('format')!r}")
    if record.get("version") != RECORD_VERSION:
        raise InvalidRecord(f"unsupported record version {record.get('version')!r}")
    if record.get("game") != "devils-grip":
        raise InvalidRecord("the record's game is not 'devils-grip'")
    options = record.get("options")
    if not isinstance(options, dict) or set(options) != {"passes"}:
        raise InvalidRecord("'options' must be {\"passes\": 1, 3 or null}")
    passes = options["passes"]
    known = {"format", "version", "game", "options", "number", "seed", "initial", "actions", "used_undo"}
    extra = set(record) - known
    if extra:
        raise InvalidRecord(f"unknown key(s) in a Devil's Grip record: {', '.join(sorted(map(str, extra)))}")
    number = record.get("number")
    if number is not None and not is_int(number):
        raise InvalidRecord("'number' must be an integer or null")
    seed = record.get("seed")  # the common record header's name for the deal number
    if seed is not None:
        if not is_int(seed) or (number is not None and seed != number):
            raise InvalidRecord("'seed' must be the deal number (the same as 'number')")
        number = seed
    used_undo = record.get("used_undo", False)
    if not isinstance(used_undo, bool):
        raise InvalidRecord("'used_undo' must be true or false")
    init = record.get("initial")
    if not isinstance(init, dict) or not {"grid", "stock", "talon"} <= set(init) <= {
        "grid",
        "stock",
        "talon",
        "passes_used",
    }:
        raise InvalidRecord("'initial' must have grid, stock and talon")
    initial = state_from_parts(init["grid"], init["stock"], init["talon"], passes, init.get("passes_used", 1))
    if number is not None:
        try:
            dealt = GripState.deal(number, passes)
        except ValueError as exc:
            raise InvalidRecord(str(exc)) from None
        if (dealt.grid, dealt.stock, dealt.talon, dealt.passes_used) != (
            initial.grid,
            initial.stock,
            initial.talon,
            initial.passes_used,
        ):
            raise InvalidRecord(f"the initial cards are not those of deal {number}")
    game = GripGame(initial, number)
    _replay_into(game, record.get("actions"), "actions")
    game.used_undo = used_undo
    return game


def replay_record(record: Any) -> GripState:
    """The final state of a record; raises `InvalidRecord(message, index=i)` at the first
    illegal action (index None for a bad header or initial position).

    Besides the fields `make_grip_record` writes, the common header's ``seed`` is accepted
    as another name for ``number``, and ``used_undo`` may be left out (false)."""
    return game_from_record(record).state


# --------------------------------------------------------------------------- text


def describe(state: GripState) -> str:
    """A readable text picture of a position (used by ``python -m app.records replay``)."""
    width = 13
    lines = []
    head = f"Devil's Grip  stock {len(state.stock)}  talon {len(state.talon)}"
    if state.talon:
        head += " (" + " ".join(str(c) for c in state.talon[-3:]) + " <top)"
    limit = "unlimited" if state.passes_allowed is None else str(state.passes_allowed)
    head += f"  pass {state.passes_used} of {limit}"
    lines.append(head)
    lines.append(("      " + "".join(f"{'c' + str(c + 1):<{width}}" for c in range(COLS))).rstrip())
    for r in range(ROWS):
        cells = []
        for c in range(COLS):
            pile = state.grid[r * COLS + c]
            cells.append(f"{(' '.join(str(x) for x in pile) or '--'):<{width}}")
        lines.append(f"r{r + 1}    " + "".join(cells).rstrip())
    s = state.score()
    status = f"score {s}"
    rated = rating(s)
    if rated:
        status += f" ({rated})"
    if state.won:
        status += "  WON"
    elif state.ended:
        status += "  ended"
    elif state.is_over():
        status += "  over"
    lines.append(status)
    return "\n".join(lines)
