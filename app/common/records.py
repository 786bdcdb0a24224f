"""What the records of both games share: the header, and reading a record's bytes.

A record is one JSON document per Demon round or Devil's Grip game (docs/records.md): the
initial position with every card explicit, plus the actions in the order the server
applied them. Both games write the same header::

    {"format": "demon-devils-grip-record", "version": 1, "game": "demon" | "devils-grip",
     "options": {...}, "initial": {...}, "actions": [...], "seed": ...}

Each game builds and replays its own records (app/demon/rules/record.py,
app/grip/rules/game.py); `app.records` replays either and reads and writes files.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.common.errors import InvalidRecord

RECORD_FORMAT = "demon-devils-grip-record"
RECORD_VERSION = 1
GAMES = ("demon", "devils-grip", "nerts")

# The room's own entries a racing game's record may hold between actions (a vote's or
# the time limit's `finish`, a seat going `absent`): the same in Demon's and Nerts'.
ROOM_ENTRY_KEYS = {
    "finish": {"type", "reason"},
    "absent": {"type", "seat", "absent"},
}


def check_header(record: Any, game: str | None = None) -> str:
    """The record's game, after checking the header both games share (and, with `game`,
    that it is that game's record)."""
    if not isinstance(record, Mapping):
        raise InvalidRecord("a record must be a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise InvalidRecord(f"not a game record: format is {record.get('format')!r}, expected {RECORD_FORMAT!r}")
    if record.get("version") != RECORD_VERSION:
        raise InvalidRecord(
            f"unsupported record version {record.get('version')!r} (this build reads version {RECORD_VERSION})"
        )
    kind = record.get("game")
    if not isinstance(kind, str) or kind not in GAMES:
        raise InvalidRecord(f"unknown game {kind!r}; expected one of {', '.join(GAMES)}")
    if game is not None and kind != game:
        raise InvalidRecord(f"this is a {kind!r} record, not {game!r}")
    if not isinstance(record.get("actions"), list):
        raise InvalidRecord("'actions' must be a list")
    return kind


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


def check_room_entry(entry: Mapping[str, Any], index: int | None, reasons: Iterable[str]) -> None:
    """A room entry (`ROOM_ENTRY_KEYS`) is exactly so; `reasons`: the game's end reasons."""
    kind = entry["type"]
    if set(entry) != ROOM_ENTRY_KEYS[kind]:
        need = ", ".join(sorted(ROOM_ENTRY_KEYS[kind]))
        raise InvalidRecord(f"a {kind!r} entry has exactly the keys {need}", index=index)
    allowed = tuple(reasons)
    if kind == "finish" and entry["reason"] not in allowed:
        raise InvalidRecord("a 'finish' entry needs a reason: one of " + ", ".join(allowed), index=index)
    if kind == "absent" and not isinstance(entry["absent"], bool):
        raise InvalidRecord("an 'absent' entry needs absent: true or false", index=index)


def record_times(record: Mapping[str, Any]) -> list[float | None]:
    """The optional `times` of a record: one entry per action, seconds after the signal
    (null: not known); all None for a record written before times were kept."""
    actions = record["actions"]
    times = record.get("times")
    if times is None:
        return [None] * len(actions)
    if (
        not isinstance(times, list)
        or len(times) != len(actions)
        or not all(
            t is None or (isinstance(t, (int, float)) and not isinstance(t, bool) and 0 <= t < 1e9) for t in times
        )
    ):
        raise InvalidRecord("'times' must be one number of seconds (or null) per action")
    return [None if t is None else float(t) for t in times]


def checked_times(times: Sequence[float | None] | None, entries: int) -> list[float | None] | None:
    """The `times` a new record writes: None when none is known, else one per entry."""
    if times is None or all(t is None for t in times):
        return None
    if len(times) != entries:
        raise ValueError("times needs one entry per action")
    return list(times)
