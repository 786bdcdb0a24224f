"""Demon's game records: make one from a round and its actions, and replay one.

The header and the reading of bytes are both games' (app/common/records.py); this is
what only a Demon record holds: the seats' initial layouts, the draw-three option, and
between actions the room's own entries (a vote's or the time limit's `finish`, a seat
going `absent`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.common.errors import EngineError, InvalidRecord
from app.common.records import (
    RECORD_FORMAT,
    RECORD_VERSION,
    ROOM_ENTRY_KEYS,
    check_header,
    check_room_entry,
    checked_times,
    record_times,
)
from app.demon.rules.actions import action_from_json, action_to_json
from app.demon.rules.ending import Termination
from app.demon.rules.layout import MAX_PLAYERS, LayoutError
from app.demon.rules.round import DemonRound

__all__ = ["demon_initial", "make_demon_record", "replay_demon"]

DEMON_OPTIONS = {"draw": 3}

# Room-level entries a Demon record may hold between actions (rule 17 and absences).
_FINISH_REASONS = tuple(t.value for t in Termination)


def _entry_to_json(entry: Any) -> dict[str, Any]:
    if isinstance(entry, Mapping):
        kind = entry.get("type")
        if kind in ROOM_ENTRY_KEYS:
            _check_room_entry(dict(entry), None)
            return dict(entry)
        return action_to_json(action_from_json(entry))  # validates and normalises
    return action_to_json(entry)


def _check_room_entry(entry: dict[str, Any], index: int | None) -> None:
    check_room_entry(entry, index, _FINISH_REASONS)


def _initial_json(initial: DemonRound) -> dict[str, Any]:
    full = initial.to_json()
    return {
        "seats": full["seats"],
        "foundations": full["foundations"],
        "started": full["started"],
        "absent": full["absent"],
    }


def _is_fresh_deal(initial: DemonRound) -> bool:
    if initial.seed is None or not (2 <= len(initial.seats) <= MAX_PLAYERS):
        return False
    if initial.foundations or initial.end is not None:
        return False
    return DemonRound.deal(initial.seed, len(initial.seats)).seats == initial.seats


def make_demon_record(
    initial: DemonRound, actions: Iterable[Any], times: Sequence[float | None] | None = None
) -> dict[str, Any]:
    """The record of a Demon round played from `initial`.

    `actions` holds DemonAction objects or their JSON, in the order the server applied
    them, optionally interleaved with room entries {"type": "finish", "reason": "vote"}
    and {"type": "absent", "seat": 2, "absent": true}. The seed is written only when the
    initial cards are exactly that seed's deal (replay then checks it). `times` (one per
    entry: seconds after the signal, or None when not known) is written when any is known.
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
    kept_times = checked_times(times, len(record["actions"]))
    if kept_times is not None:
        record["times"] = kept_times
    if _is_fresh_deal(initial):
        record["seed"] = initial.seed
    return record


def demon_initial(record: Mapping[str, Any]) -> DemonRound:
    """The initial position of a Demon record, checked (header, cards, seed)."""
    check_header(record, "demon")
    known = {"format", "version", "game", "options", "initial", "actions", "seed", "times"}
    extra = set(record) - known
    if extra:
        raise InvalidRecord(f"unknown key(s) in a Demon record: {', '.join(sorted(extra))}")
    options = record.get("options")
    if not isinstance(options, Mapping) or set(options) != {"players", "draw"}:
        raise InvalidRecord('options must be {"players": n, "draw": 3}')
    if options["draw"] != 3:
        raise InvalidRecord(f"only draw-three Demon is supported, not draw {options['draw']!r}")
    init = record.get("initial")
    if (
        not isinstance(init, Mapping)
        or not {"seats", "foundations", "started"} <= set(init)
        or not set(init) <= {"seats", "foundations", "started", "absent"}
    ):
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
        raise InvalidRecord(
            f"options.players is {options['players']!r} but the initial position has {len(state.seats)} seats"
        )
    if seed is not None and (
        not (2 <= len(state.seats) <= MAX_PLAYERS)
        or DemonRound.deal(seed, len(state.seats)).seats != state.seats
        or state.foundations
    ):
        raise InvalidRecord(f"the initial cards are not those of deal {seed}")
    return state


def replay_demon(record: Mapping[str, Any]) -> DemonRound:
    """The final round of a Demon record. If the initial round has not started, the
    signal is given before the first entry (everything recorded happens after it).
    Raises InvalidRecord(index=i) at the first entry that is malformed or illegal."""
    state = demon_initial(record)
    record_times(record)
    if not state.started:
        state = state.start()
    for i, entry in enumerate(record["actions"]):
        try:
            kind = entry.get("type") if isinstance(entry, Mapping) else None
            if isinstance(kind, str) and kind in ROOM_ENTRY_KEYS:
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
