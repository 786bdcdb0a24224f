"""A live room as the hub holds it (`RoomHandle`), and what the hub needs of the store.

The room itself is plain data and rules, tested without sockets and saved without them;
what only a live room has (its sockets, its timers, whether it still has to be saved)
is kept beside it, here. The hub's modules (dispatch, flush, timers) all work on
handles, so this module is the one they share.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.demon.hub.connection import Pipe
from app.demon.hub.emotes import EmoteGate
from app.demon.room.room import Room

# What a room's next save must write: nothing, its new steps only, or its meta too.
SAVED, SAVE_MOVES, SAVE_ALL = 0, 1, 2


@dataclass(eq=False)
class RoomHandle:
    room: Room
    pipes: dict[str, Pipe] = field(default_factory=dict)  # player id -> its socket
    countdown: asyncio.Task[None] | None = None
    unsaved: int = SAVED  # SAVED, SAVE_MOVES or SAVE_ALL: what the next flush must write
    bot_timers: dict[str, asyncio.TimerHandle] = field(default_factory=dict)  # bot id -> its next look
    emotes: EmoteGate = field(default_factory=EmoteGate)  # per-player cooldowns; never saved
    # A seated person has opened a socket to the room since it was created (or restored):
    # only then do its bots play, so a practice room nobody opened costs no CPU.
    person_seen: bool = False


class RoomStore(Protocol):
    """What the hub asks of the store (app/storage/store.py `Store`), so the hub does
    not depend on SQLite and its tests may run without one."""

    def load_rooms(self, **room_kwargs: Any) -> list[Room]: ...

    def save_rooms(self, rooms: list[tuple[Room, bool]]) -> set[str]: ...

    def forget_room(self, room: Room) -> None: ...

    def reopen_match(self, room: Room) -> None: ...

    def checkpoint(self) -> None: ...

    def wal_wants_checkpoint(self) -> bool: ...

    def finish_checkpoint(self) -> None: ...
