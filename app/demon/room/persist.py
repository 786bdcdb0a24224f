"""A room as the store's three pieces of data, and back.

The store (store.py) saves a room as a small JSON "meta", rewritten when anything but
moves changed; the current round's dealt cards, written once per round; and the round's
steps, appended. Each part of the room writes and reads its own share through public
methods (`Seating.to_json`, `RoundRecord.restore`…); this module puts the shares
together, under the keys older files have, and writes and reads the room's own share:
the phase and the match (`match_json`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any, NotRequired, TypedDict, cast

from app.demon.room.action_ids import KeptId
from app.demon.room.phases import Phase
from app.demon.room.room import Options, Room
from app.demon.room.round_record import RoundRecord, Step, StepIds
from app.demon.room.seating import Door, DoorJson, Seating, SeatingJson
from app.protocol import server as out


class MatchJson(TypedDict):
    phase: str
    round_no: int
    round_seed: int | None
    votes: list[int]
    bots_finish: NotRequired[bool]  # older files have none: False
    history: list[out.RoundResult]
    result: out.MatchResult | None
    v: int
    created_at: NotRequired[float]  # older files have none
    # Wall-clock deadline: the round's clock keeps running while the server is down.
    deadline_wall: NotRequired[float | None]
    round_id: NotRequired[str | None]  # the current round's replay id; older files have none


class RoomMeta(SeatingJson, MatchJson):
    code: str
    options: out.OptionsJson
    listed: NotRequired[bool]  # older files have none: not listed
    daily: NotRequired[str | None]  # a daily race's day; older files have none: not one
    door: NotRequired[DoorJson]  # open tables; none when closed and nobody was removed


def match_json(room: Room, now: float) -> MatchJson:
    """The phase and the match, for the store's meta (the parts save themselves)."""
    return MatchJson(
        phase=room.phase.value,
        round_no=room.round_no,
        round_seed=room.round_seed,
        votes=sorted(room.votes),
        bots_finish=room.bots_finish,
        history=room.history,
        result=room.result,
        v=room.v,
        created_at=room.created_at,
        deadline_wall=(time.time() + room.round_deadline - now) if room.round_deadline is not None else None,
        round_id=room.record.round_id,
    )


def room_meta(room: Room, now: float) -> RoomMeta:
    """Everything but the round's cards and action log."""
    door = {} if room.door.is_default() else {"door": room.door.to_json()}
    return cast(
        RoomMeta,
        {
            "code": room.code,
            "options": room.options.to_json(),
            "listed": room.listed,
            "daily": room.daily,
            **room.seating.to_json(),
            **match_json(room, now),
            **door,
        },
    )


def room_initial(room: Room) -> dict[str, Any] | None:
    return room.record.initial_json()


def kept_action_ids(room: Room) -> list[KeptId]:
    """The applied action ids the room still answers that its round's log does not hold
    (the previous round's): the store writes them when a round begins."""
    in_log = {(pid, aid) for pid, aid, _v in room.record.acknowledged()}
    return room.answered.kept(in_log)


def round_record(room: Room) -> dict[str, Any] | None:
    """The current round as an engine record (docs/records.md): dealt cards + log."""
    return room.record.record()


def restore_room(
    meta: RoomMeta,
    initial: dict[str, Any] | None,
    steps: list[Step],
    step_ids: list[StepIds | None],
    *,
    now: float,
    kept: Iterable[KeptId] = (),
    times: list[float | None] | None = None,
    **room_kwargs: Any,
) -> Room:
    """Rebuild a Room as `room_meta` and the round's record left it. Every person comes
    back disconnected (the grace period restarts); a countdown starts again from its
    beginning."""
    room = Room(meta["code"], Options.from_json(meta["options"]), **room_kwargs)
    # The round was dealt in the game the options name: they change only between rounds.
    room.record, room.round = RoundRecord.restore(initial, steps, step_ids, times, now, room.options.rules)
    room.record.round_id = meta.get("round_id") or room.record.round_id
    room.seating = Seating.from_json(meta, now)
    room.round_no = meta["round_no"]
    room.round_seed = meta["round_seed"]
    room.votes = set(meta["votes"])
    room.bots_finish = meta.get("bots_finish", False)
    room.history = meta["history"]
    room.result = meta["result"]
    # Moves are saved as step rows only (the meta is not rewritten for them), so the
    # version is the later of the meta's and the last move's. (A client may hold later
    # versions whose save a crash cut off: the hub's epoch, not the version, tells it
    # apart; see `Hub.attach`.)
    room.log.resume_at(max([meta["v"]] + [v for _pid, _aid, v in room.record.acknowledged()]))
    room.created_at = meta.get("created_at", time.time())
    room.listed = meta.get("listed", False)
    room.daily = meta.get("daily")
    door = meta.get("door")
    if door is not None:  # a play-now lobby's `fill_at` passed meanwhile: the hub's next tick fills it
        room.door = Door.from_json(door)
    room.last_active = now
    phase = Phase(meta["phase"])
    deadline_wall = meta.get("deadline_wall")
    if deadline_wall is not None and phase is Phase.PLAYING:
        room.round_deadline = now + (deadline_wall - time.time())
    room.resume(phase, now)
    room.answered.restore_kept(kept)  # the previous round's ids (`kept_action_ids`)
    return room
