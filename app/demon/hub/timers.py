"""The hub's clocks: the countdown before a round, the tick, idle rooms, the checkpoint.

A room is synchronous and only ever told the time (`Room.tick(now)`, `begin_round(now)`);
what wakes it is here. One task ticks four times a second for every room of the process
(the round's time limit, the reconnection grace period, a save that failed and must be
tried again, a room nobody uses any more), and copies the SQLite WAL into the database
every `CHECKPOINT_EVERY_TICKS`, or at the first tick after the WAL passed a quarter of
its limit, in a thread, so no room waits for the disk. A countdown
is a task of its room, started whenever the room is found counting down without one
(after a message, or a restored room on the first tick).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from app.config import Settings
from app.demon.hub.flush import Outbox
from app.demon.hub.handle import RoomHandle, RoomStore
from app.demon.room.phases import Phase
from app.support.logfmt import log_event

log = logging.getLogger("demon.hub")

TICK_S = 0.25
CHECKPOINT_EVERY_TICKS = 20  # 5 s


class Timers:
    def __init__(
        self,
        rooms: dict[str, RoomHandle],
        outbox: Outbox,
        settings: Settings,
        store: RoomStore | None,
        clock: Callable[[], float],
        on_removed: Callable[[RoomHandle], None],
    ) -> None:
        self.rooms = rooms  # the hub's own dict: rooms come and go there
        self.outbox = outbox
        self.settings = settings
        self.store = store
        self.clock = clock
        self._on_removed = on_removed  # an idle room was removed (its bots stop)
        self._ticker: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._ticker = asyncio.create_task(self._tick_forever())

    def stop(self) -> None:
        """No more ticks; every countdown stops where it is (a restored room, still
        counting down, starts its countdown again)."""
        if self._ticker:
            self._ticker.cancel()
        for handle in self.rooms.values():
            if handle.countdown is not None:
                handle.countdown.cancel()

    def count_down_if_due(self, handle: RoomHandle) -> bool:
        """Start the room's countdown task if it counts down without one; True if started."""
        if handle.room.phase is not Phase.COUNTDOWN or handle.countdown is not None:
            return False
        handle.countdown = asyncio.create_task(self._count_down(handle))
        return True

    async def _count_down(self, handle: RoomHandle) -> None:
        try:
            await asyncio.sleep(self.settings.countdown_s)
            self.outbox.publish(handle, handle.room.begin_round(self.clock()))
        finally:
            handle.countdown = None

    async def _tick_forever(self) -> None:
        ticks = 0
        while True:
            await asyncio.sleep(TICK_S)
            ticks += 1
            try:
                self.tick()
                if self.store is not None and (
                    ticks % CHECKPOINT_EVERY_TICKS == 0 or self.store.wal_wants_checkpoint()
                ):
                    await asyncio.to_thread(self.store.checkpoint)
                    if self.store.wal_wants_checkpoint():  # writes kept coming: catch up here
                        self.store.finish_checkpoint()
            except Exception:  # a bug in one room must not stop the clock for all
                log.exception("tick failed")

    def tick(self) -> None:
        now = self.clock()
        for code, handle in list(self.rooms.items()):
            try:
                self._tick_room(code, handle, now)
            except Exception:  # one broken room must not stop the clock for the others
                log.exception("tick failed for room %s", code)

    def _tick_room(self, code: str, handle: RoomHandle, now: float) -> None:
        room = handle.room
        self.count_down_if_due(handle)
        self.outbox.publish(handle, room.tick(now))
        if handle.unsaved:  # its last save failed (disk full…): try again, four times a second
            self.outbox.mark_changed(handle)
        if not handle.pipes and room.is_idle(now, self.settings.empty_room_ttl_s):
            del self.rooms[code]
            self._on_removed(handle)
            self.outbox.forget(handle)
            if self.store is not None:
                self.store.forget_room(room)
            log_event("room_removed", code=code, reason="idle")
