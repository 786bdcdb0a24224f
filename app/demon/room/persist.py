"""A room as the store's three pieces of data, and back.

The store (store.py) saves a room as a small JSON "meta", rewritten when anything but
moves changed; the current round's dealt cards, written once per round; and the round's
steps, appended. Each part of the room writes and reads its own share through public
methods (`Seating.to_json`, `Room.match_json`, `RoundRecord.restore`, `Room.restore`);
this module only puts the shares together, under the keys older files have.
"""

from __future__ import annotations

from typing import Any

from app.demon.room.room import Options, Room
from app.demon.room.round_record import RoundRecord, StepIds
from app.demon.room.seating import Seating


def room_meta(room: Room, now: float) -> dict:
    """Everything but the round's cards and action log."""
    return {"code": room.code, "options": room.options.to_json(), **room.seating.to_json(),
            **room.match_json(now)}


def room_initial(room: Room) -> dict | None:
    return room.record.initial_json()


def round_record(room: Room) -> dict | None:
    """The current round as an engine record (docs/records.md): dealt cards + log."""
    return room.record.record()


def restore_room(meta: dict, initial: dict | None, steps: list[dict],
                 step_ids: list[StepIds | None], *, now: float, **room_kwargs: Any) -> Room:
    """Rebuild a Room. Every player comes back disconnected: the grace period restarts."""
    room = Room(meta["code"], Options.from_json(meta["options"]), **room_kwargs)
    record, rnd = RoundRecord.restore(initial, steps, step_ids)
    room.restore(Seating.from_json(meta, now), record, rnd, meta, now)
    return room
