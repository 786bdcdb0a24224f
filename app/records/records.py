"""Game records: one JSON document per Demon round or Devil's Grip game (docs/records.md).

A record is the initial position with every card explicit, plus the actions in the order
the server applied them; replaying it gives the same final state on any machine. Both
games share the header::

    {"format": "demon-devils-grip-record", "version": 1, "game": "demon" | "devils-grip",
     "options": {...}, "initial": {...}, "actions": [...], "seed": ...}

This module builds Demon records, replays either game (Devil's Grip is delegated to
`app.grip.rules.replay_record`) and reads records from files. Reading a file is the
only I/O on the rules' side (app/common, app/demon/rules, app/grip/rules, app/records)
and lives here, at its edge.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Mapping

from app.common.errors import EngineError, InvalidRecord
from app.demon.rules.actions import action_from_json, action_to_json
from app.demon.rules.ending import Termination
from app.demon.rules.layout import MAX_PLAYERS, LayoutError
from app.demon.rules.round import DemonRound

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "GAMES",
    "make_demon_record",
    "demon_initial",
    "replay",
    "replay_demon",
    "load",
    "parse",
    "save",
]

RECORD_FORMAT = "demon-devils-grip-record"
RECORD_VERSION = 1
GAMES = ("demon", "devils-grip")
DEMON_OPTIONS = {"draw": 3}

# Room-level entries a Demon record may hold between actions (rule 17 and absences).
_FINISH_REASONS = tuple(t.value for t in Termination)
_ROOM_ENTRY_KEYS = {
    "finish": {"type", "reason"},
    "absent": {"type", "seat", "absent"},
}


def _entry_to_json(entry: Any) -> dict[str, Any]:
    if isinstance(entry, Mapping):
        kind = entry.get("type")
        if kind in _ROOM_ENTRY_KEYS:
            _check_room_entry(dict(entry), None)
            return dict(entry)
        return action_to_json(action_from_json(entry))  # validates and normalises
    return action_to_json(entry)


def _check_room_entry(entry: dict[str, Any], index: int | None) -> None:
    kind = entry["type"]
    if set(entry) != _ROOM_ENTRY_KEYS[kind]:
        need = ", ".join(sorted(_ROOM_ENTRY_KEYS[kind]))
        raise InvalidRecord(f"a {kind!r} entry has exactly the keys {need}", index=index)
    if kind == "finish" and entry["reason"] not in _FINISH_REASONS:
        raise InvalidRecord("a 'finish' entry needs a reason: one of "
                            + ", ".join(_FINISH_REASONS), index=index)
    if kind == "absent" and not isinstance(entry["absent"], bool):
        raise InvalidRecord("an 'absent' entry needs absent: true or false", index=index)


def _initial_json(initial: DemonRound) -> dict[str, Any]:
    full = initial.to_json()
    return {"seats": full["seats"], "foundations": full["foundations"],
            "started": full["started"], "absent": full["absent"]}


def _is_fresh_deal(initial: DemonRound) -> bool:
    if initial.seed is None or not (2 <= len(initial.seats) <= MAX_PLAYERS):
        return False
    if initial.foundations or initial.end is not None:
        return False
    return DemonRound.deal(initial.seed, len(initial.seats)).seats == initial.seats


def make_demon_record(initial: DemonRound, actions: Iterable[Any]) -> dict[str, Any]:
    """The record of a Demon round played from `initial`.

    `actions` holds DemonAction objects or their JSON, in the order the server applied
    them, optionally interleaved with room entries {"type": "finish", "reason": "vote"}
    and {"type": "absent", "seat": 2, "absent": true}. The seed is written only when the
    initial cards are exactly that seed's deal (replay then checks it).
    """
    if not isinstance(initial, DemonRound):
        raise TypeError("initial must be a DemonRound")
    if initial.end is not None:
        raise ValueError("the initial position of a record cannot be an ended round")
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "game": "demon",
        "options": {"players": len(initial.seats), **DEMON_OPTIONS},
        "initial": _initial_json(initial),
        "actions": [_entry_to_json(a) for a in actions],
    }
    if _is_fresh_deal(initial):
        record["seed"] = initial.seed
    return record


def _check_header(record: Any, game: str | None = None) -> str:
    if not isinstance(record, Mapping):
        raise InvalidRecord("a record must be a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise InvalidRecord(f"not a game record: format is {record.get('format')!r}, "
                            f"expected {RECORD_FORMAT!r}")
    if record.get("version") != RECORD_VERSION:
        raise InvalidRecord(f"unsupported record version {record.get('version')!r} "
                            f"(this build reads version {RECORD_VERSION})")
    kind = record.get("game")
    if not isinstance(kind, str) or kind not in GAMES:
        raise InvalidRecord(f"unknown game {kind!r}; expected one of {', '.join(GAMES)}")
    if game is not None and kind != game:
        raise InvalidRecord(f"this is a {kind!r} record, not {game!r}")
    if not isinstance(record.get("actions"), list):
        raise InvalidRecord("'actions' must be a list")
    return kind


def demon_initial(record: Mapping[str, Any]) -> DemonRound:
    """The initial position of a Demon record, checked (header, cards, seed)."""
    _check_header(record, "demon")
    known = {"format", "version", "game", "options", "initial", "actions", "seed"}
    extra = set(record) - known
    if extra:
        raise InvalidRecord(f"unknown key(s) in a Demon record: {', '.join(sorted(extra))}")
    options = record.get("options")
    if not isinstance(options, Mapping) or set(options) != {"players", "draw"}:
        raise InvalidRecord('options must be {"players": n, "draw": 3}')
    if options["draw"] != 3:
        raise InvalidRecord(f"only draw-three Demon is supported, not draw {options['draw']!r}")
    init = record.get("initial")
    if not isinstance(init, Mapping) or not {"seats", "foundations", "started"} <= set(init) \
            or not set(init) <= {"seats", "foundations", "started", "absent"}:
        raise InvalidRecord("'initial' needs seats, foundations and started (absent optional)")
    seats = init["seats"]
    if not isinstance(seats, list) or not (2 <= len(seats) <= MAX_PLAYERS):
        raise InvalidRecord(f"a Demon round has 2 to {MAX_PLAYERS} seats (rule 1)")
    seed = record.get("seed")
    try:
        state = DemonRound.from_json({**init, "seed": seed, "end": None})
    except LayoutError as exc:
        raise InvalidRecord(f"bad initial position: {exc}") from None
    if options["players"] != len(state.seats):
        raise InvalidRecord(f"options.players is {options['players']!r} but the initial "
                            f"position has {len(state.seats)} seats")
    if seed is not None:
        if not (2 <= len(state.seats) <= MAX_PLAYERS) or \
                DemonRound.deal(seed, len(state.seats)).seats != state.seats or state.foundations:
            raise InvalidRecord(f"the initial cards are not those of deal {seed}")
    return state


def replay_demon(record: Mapping[str, Any]) -> DemonRound:
    """The final round of a Demon record. If the initial round has not started, the
    signal is given before the first entry (everything recorded happens after it).
    Raises InvalidRecord(index=i) at the first entry that is malformed or illegal."""
    state = demon_initial(record)
    if not state.started:
        state = state.start()
    for i, entry in enumerate(record["actions"]):
        try:
            kind = entry.get("type") if isinstance(entry, Mapping) else None
            if isinstance(kind, str) and kind in _ROOM_ENTRY_KEYS:
                _check_room_entry(dict(entry), i)
                if kind == "finish":
                    state, _ = state.finish(entry["reason"])
                else:
                    state, _ = state.with_absent(entry["seat"], entry["absent"])
            else:
                state, _ = state.apply(action_from_json(entry))
        except InvalidRecord:
            raise
        except EngineError as exc:
            raise InvalidRecord(f"action {i} ({json.dumps(entry)}): {exc}", index=i) from None
    return state


def replay(record: Mapping[str, Any]) -> Any:
    """Replay a record of either game and return the final state: a DemonRound, or for
    Devil's Grip whatever `app.grip.rules.replay_record` returns."""
    kind = _check_header(record)
    if kind == "demon":
        return replay_demon(record)
    from app.grip.rules import replay_record  # imported lazily: a separate module

    return replay_record(record)


# A real record nests five levels deep (record, actions, action, value); anything much
# deeper is damage or an attack, and refusing it early keeps every later step (replay,
# error messages that quote an entry) clear of Python's recursion limit.
MAX_DEPTH = 16


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in a parsed JSON value (walked without recursion)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            todo.extend((inner, level + 1) for inner in item)
    return deepest


def parse(raw: bytes, name: str = "record") -> dict[str, Any]:
    """A record from the bytes of a file, or InvalidRecord saying what is wrong with them.

    Why so wary: records are shared between people (docs/records.md), so the loader meets
    files nobody here wrote: bytes that are not UTF-8, nesting deep enough to exhaust
    the JSON parser's stack, and integers longer than Python converts (4,300 digits)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidRecord(f"{name}: not UTF-8 text (byte {exc.start})") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise InvalidRecord(f"{name}: nested too deeply (at most {MAX_DEPTH} levels)") from None
    except ValueError as exc:  # JSONDecodeError, and integers too long to convert
        first_line = str(exc).splitlines()[0]
        raise InvalidRecord(f"{name}: not valid JSON ({first_line})") from None
    if not isinstance(data, dict):
        raise InvalidRecord(f"{name}: a record must be a JSON object")
    if _depth(data) > MAX_DEPTH:
        raise InvalidRecord(f"{name}: nested too deeply (at most {MAX_DEPTH} levels)")
    return data


def load(path: str) -> dict[str, Any]:
    """Read a record from a JSON file (see `parse`; OSError if it cannot be read)."""
    with open(path, "rb") as fh:
        return parse(fh.read(), path)


def save(record: Mapping[str, Any], path: str) -> None:
    """Write a record to a JSON file (UTF-8)."""
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(record, fh, ensure_ascii=False)
        fh.write("\n")
