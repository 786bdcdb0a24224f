"""Nerts' game records: make one from a round and its actions, and replay one.

The header, the room's entries (`finish`, `absent`) and the times are shared with
Demon's records (app/common/records.py); what only a Nerts record holds is the house
rules (`options`: players, draw, racing_spaces, stall) and Nerts layouts in `initial`.
A record whose cards are exactly a seed's deal carries the seed, and replay checks it.
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
from app.nerts.rules.actions import action_from_json, action_to_json
from app.nerts.rules.ending import Termination
from app.nerts.rules.layout import MAX_PLAYERS, MIN_PLAYERS, LayoutError
from app.nerts.rules.options import NertsOptions, OptionsError
from app.nerts.rules.round import NertsRound

__all__ = ["make_nerts_record", "nerts_initial", "replay_entry", "replay_nerts"]

_FINISH_REASONS = tuple(t.value for t in Termination)
_INITIAL_KEYS = {"seats", "foundations", "started", "absent", "stalled"}


def _entry_to_json(entry: Any) -> dict[str, Any]:
    if isinstance(entry, Mapping) and entry.get("type") in ROOM_ENTRY_KEYS:
        check_room_entry(entry, None, _FINISH_REASONS)
        return dict(entry)
    if isinstance(entry, Mapping):
        return action_to_json(action_from_json(entry))  # validates and normalises
    return action_to_json(entry)


def make_nerts_record(
    initial: NertsRound, actions: Iterable[Any], times: Sequence[float | None] | None = None
) -> dict[str, Any]:
    """The record of a Nerts round played from `initial` (not ended): `actions` holds
    NertsAction objects or their JSON, in the order the server applied them, with the
    room's entries between them; `times` as Demon's (`make_demon_record`)."""
    if not isinstance(initial, NertsRound):
        raise TypeError("initial must be a NertsRound")
    if initial.end is not None:
        raise ValueError("the initial position of a record cannot be an ended round")
    full = initial.to_json()
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "game": "nerts",
        "options": {"players": len(initial.seats), **initial.options.to_json()},
        "initial": {key: full[key] for key in sorted(_INITIAL_KEYS)},
        "actions": [_entry_to_json(a) for a in actions],
    }
    kept_times = checked_times(times, len(record["actions"]))
    if kept_times is not None:
        record["times"] = kept_times
    if initial.seed is not None and _is_deal(initial, initial.seed):
        record["seed"] = initial.seed
    return record


def _is_deal(state: NertsRound, seed: object) -> bool:
    """The round's cards are exactly deal `seed`'s, with nothing played yet."""
    if not isinstance(seed, int) or isinstance(seed, bool) or state.foundations:
        return False
    players = len(state.seats)
    return MIN_PLAYERS <= players <= MAX_PLAYERS and NertsRound.deal(seed, players).seats == state.seats


def nerts_initial(record: Mapping[str, Any]) -> NertsRound:
    """The initial position of a Nerts record, checked (header, house rules, cards, seed)."""
    check_header(record, "nerts")
    extra = set(record) - {"format", "version", "game", "options", "initial", "actions", "seed", "times"}
    if extra:
        raise InvalidRecord(f"unknown key(s) in a Nerts record: {', '.join(sorted(extra))}")
    options = record.get("options")
    if not isinstance(options, Mapping) or "players" not in options:
        raise InvalidRecord('options must be {"players": n, "draw": 1|3, "racing_spaces": bool, "stall": bool}')
    try:
        house = NertsOptions.from_json({k: v for k, v in options.items() if k != "players"})
    except OptionsError as exc:
        raise InvalidRecord(f"bad options: {exc}") from None
    init = record.get("initial")
    if not isinstance(init, Mapping) or not {"seats", "foundations", "started"} <= set(init) <= _INITIAL_KEYS:
        raise InvalidRecord("'initial' needs seats, foundations and started (absent and stalled optional)")
    seats = init["seats"]
    if not isinstance(seats, list) or not (MIN_PLAYERS <= len(seats) <= MAX_PLAYERS):
        raise InvalidRecord(f"a Nerts round has {MIN_PLAYERS} to {MAX_PLAYERS} seats (N1)")
    seed = record.get("seed")
    try:
        state = NertsRound.from_json(
            {
                "seats": seats,
                "foundations": init["foundations"],
                "started": init["started"],
                "absent": init.get("absent", []),
                "stalled": init.get("stalled", False),
                "options": house.to_json(),
                "seed": seed,
                "end": None,
            }
        )
    except (LayoutError, OptionsError) as exc:
        raise InvalidRecord(f"bad initial position: {exc}") from None
    if options["players"] != len(state.seats):
        raise InvalidRecord(
            f"options.players is {options['players']!r} but the initial position has {len(state.seats)} seats"
        )
    if seed is not None and not _is_deal(state, seed):
        raise InvalidRecord(f"the initial cards are not those of deal {seed}")
    return state


def replay_entry(state: NertsRound, entry: Any, index: int) -> tuple[NertsRound, list[Any]]:
    """One entry of a record played on `state`: the new round and the engine's events.
    InvalidRecord(index=index) when it is malformed or illegal."""
    try:
        kind = entry.get("type") if isinstance(entry, Mapping) else None
        if isinstance(kind, str) and kind in ROOM_ENTRY_KEYS:
            check_room_entry(entry, index, _FINISH_REASONS)
            if kind == "finish":
                return state.finish(entry["reason"])
            return state.with_absent(entry["seat"], entry["absent"])
        return state.apply(action_from_json(entry))
    except InvalidRecord:
        raise
    except EngineError as exc:
        raise InvalidRecord(f"action {index} ({json.dumps(entry)}): {exc}", index=index) from None


def replay_nerts(record: Mapping[str, Any]) -> NertsRound:
    """The final round of a Nerts record (the signal given before the first entry when
    the initial round has not started). InvalidRecord(index=i) at the first bad entry."""
    state = nerts_initial(record)
    record_times(record)
    if not state.started:
        state = state.start()
    for i, entry in enumerate(record["actions"]):
        state, _events = replay_entry(state, entry, i)
    return state
