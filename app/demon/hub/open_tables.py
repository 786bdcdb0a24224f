"""Open tables on the hub's side: which open lobby a "Play now" press sits at, and the
bots a play-now lobby is filled with when its time comes (docs/protocol.md, "Open
tables"; docs/decisions/0103-open-tables-snapshot-and-play-now.md).

Matching is one synchronous call on the event loop, like every change to a room
(app/demon/hub/hub.py): between looking for the best lobby and seating the person there
nothing else runs, so two presses at the same moment are taken one after the other, and
the second finds the table the first opened.

A play-now lobby's time (`Door.fill_at`) is wall-clock, saved with the room: a timer
on the event loop wakes the room then (`watch`), and a room restored after its time
passed is given `RESTORED_WAIT_S` more, so that its people, whose sockets the restart
closed, are back before it fills. At that moment the seats of people who never opened
their socket, or lost it more than `AWAY_S` ago, are given up (somebody who pressed and
went away must not hold a seat at a table of strangers), the empty seats are filled with bots of the level the person who
opened the table chose, and the round starts. The bots are paid for by that person's
address (`charge`: the web edge's per-address bot budget) and counted against the
server's `DEMON_MAX_BOTS`; refused either way, the round starts with the people there
when they are two or more, and otherwise the lobby is told no bots came and stays open.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from app.config import Settings
from app.demon.hub.flush import Outbox
from app.demon.hub.handle import SAVE_ALL, RoomHandle
from app.demon.room.errors import RoomError
from app.demon.room.phases import Phase
from app.demon.room.room import Outcome, Room
from app.demon.room.seating import address_mark
from app.protocol import server as out
from app.support.logfmt import log_event

PLAY_NOW_WAIT_S = 20.0  # from a play-now table's creation to its bots
PLAY_NOW_SEATS = 4
# Seats one address may hold at once in play-now lobbies still waiting for players: a
# household behind one address plays together, a loop of presses is refused (429).
WAITING_SEATS_PER_ADDRESS = 4
RESTORED_WAIT_S = 10.0  # a restored lobby's time, at the earliest: its people reconnect first
AWAY_S = 10.0  # a person without a socket this long when the bots come loses the seat
NO_BOTS = "No bots are free to fill this table now: it stays open for other players to join."


def free_seats(room: Room) -> int:
    return room.options.max_players - len(room.seating.seated())


def waiting_lobby(room: Room) -> bool:
    """Open, in the lobby, with a free seat and somebody in it: a table a stranger can join."""
    return room.door.open and room.phase is Phase.LOBBY and free_seats(room) > 0 and room.has_people()


class OpenTables:
    def __init__(
        self,
        rooms: dict[str, RoomHandle],
        outbox: Outbox,
        settings: Settings,
        clock: Callable[[], float],
        bot_count: Callable[[], int],
        after_change: Callable[[RoomHandle], None],
    ) -> None:
        self.rooms = rooms  # the hub's own dict
        self.outbox = outbox
        self.settings = settings
        self.clock = clock
        self.wall: Callable[[], float] = time.time  # injectable: room tests move the time
        self._bot_count = bot_count
        self._after_change = after_change  # a round may be counting down now
        # Spends `n` bots of an address's budget; False when spent (the web edge's
        # `Budgets.bots`). None: nothing is charged (tests of the hub alone).
        self.charge: Callable[[str, int], bool] | None = None
        self.payers: dict[str, str] = {}  # room code -> the address that opened it (this run only)
        self._timers: dict[str, asyncio.TimerHandle] = {}

    # ------------------------------------------------------------ matching

    def best_lobby(self, game: str, language: str, address: str) -> RoomHandle | None:
        """The open lobby of `game` this address should sit at: the same language first,
        then the fullest, then the oldest. Lobbies that removed this address are skipped."""
        best: tuple[bool, int, float] | None = None
        found = None
        for handle in self.rooms.values():
            room = handle.room
            if room.options.game != game or not waiting_lobby(room):
                continue
            if room.door.removed and room.door.refuses(address_mark(room.code, address)):
                continue
            key = (room.door.language != language, -len(room.seating.seated()), room.created_at)
            if best is None or key < best:
                best, found = key, handle
        return found

    def waiting_seats(self, address: str) -> int:
        """Seats this address holds in play-now lobbies still waiting for players."""
        count = 0
        for handle in self.rooms.values():
            room = handle.room
            if room.door.play_now and waiting_lobby(room):
                mark = address_mark(room.code, address)
                count += sum(1 for mark_ in room.door.marks.values() if mark_ == mark)
        return count

    # ------------------------------------------------------------ a play-now lobby's time

    def opened(self, handle: RoomHandle, level: str, payer: str | None) -> None:
        """`handle`'s room is a new play-now table: its bots come in `PLAY_NOW_WAIT_S`."""
        door = handle.room.door
        door.play_now = True
        door.fill_level = level
        door.fill_at = self.wall() + PLAY_NOW_WAIT_S
        if payer is not None:
            self.payers[handle.room.code] = payer
        self.watch(handle)

    def restored(self, handle: RoomHandle) -> None:
        """A room the store gave back: its play-now time, if it has one, is kept, but not
        sooner than `RESTORED_WAIT_S` from now (its people are reconnecting)."""
        door = handle.room.door
        if door.fill_at is not None:
            door.fill_at = max(door.fill_at, self.wall() + RESTORED_WAIT_S)
            self.watch(handle)

    def watch(self, handle: RoomHandle) -> None:
        """Wake the room when its `fill_at` comes (at once if it passed: a restored room).
        Without a running loop (room tests), `tick` is called by hand."""
        fill_at = handle.room.door.fill_at
        if fill_at is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        old = self._timers.pop(handle.room.code, None)
        if old is not None:
            old.cancel()
        delay = max(0.0, fill_at - self.wall())
        self._timers[handle.room.code] = loop.call_later(delay, self._wake, handle.room.code)

    def _wake(self, code: str) -> None:
        self._timers.pop(code, None)
        handle = self.rooms.get(code)
        if handle is None:
            self.payers.pop(code, None)
            return
        fill_at = handle.room.door.fill_at
        if fill_at is not None and fill_at > self.wall():
            # Moved on, or early: uvloop's timers keep whole milliseconds and may fire
            # just before `fill_at` by the wall clock. Wait again rather than forget it.
            self.watch(handle)
            return
        self.fill_if_due(handle)

    def stop(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    def tick(self) -> None:
        """Every play-now lobby whose time has come, filled now (what the timers do one by one)."""
        for handle in list(self.rooms.values()):
            self.fill_if_due(handle)

    def fill_if_due(self, handle: RoomHandle) -> None:
        room = handle.room
        door = room.door
        if door.fill_at is None or door.fill_at > self.wall():
            return
        door.fill_at = None
        handle.unsaved = SAVE_ALL  # the door changed: the meta is rewritten
        self.outbox.mark_changed(handle)
        if room.phase is not Phase.LOBBY or not door.play_now:
            return
        self._fill(handle)

    def _fill(self, handle: RoomHandle) -> None:
        room, now = handle.room, self.clock()
        for person in room.seating.seated():
            away = person.dropped_at is None or now - person.dropped_at >= AWAY_S
            if person.bot is None and not person.connected and away:
                self.outbox.publish(handle, room.leave(person, now))  # pressed and went away
        host = room.seating.by_id(room.host) if room.host else None
        if host is None or host.bot is not None or not room.has_people():
            self.outbox.publish(handle, Outcome(events=[room.room_event()]))
            log_event("play_now_empty", code=room.code)
            return
        wanted = free_seats(room)
        payer = self.payers.get(room.code)
        granted = self._bot_count() + wanted <= self.settings.max_bots and (
            payer is None or self.charge is None or self.charge(payer, wanted)
        )
        if granted:
            for _ in range(wanted):
                self.outbox.publish(handle, room.add_bot(host, room.door.fill_level, now)[0])
        if len(room.seating.seated()) >= 2:
            self._start(handle)
            log_event("play_now_filled", code=room.code, bots=wanted if granted else 0)
            return
        self.outbox.publish(handle, Outcome(events=[room.room_event()]))  # `fill_at` is gone
        for pipe in handle.pipes.values():
            self.outbox.reply(pipe, out.error("no_bots", NO_BOTS))
        log_event("play_now_no_bots", code=room.code)

    def _start(self, handle: RoomHandle) -> None:
        room = handle.room
        host = room.seating.by_id(room.host) if room.host else None
        if host is None:
            return
        try:
            self.outbox.publish(handle, room.start(host, self.clock()))
        except RoomError:  # fewer than two after all, or not in the lobby: nothing starts
            return
        room.door.fill_at = None
        self._after_change(handle)

    def seated(self, handle: RoomHandle) -> None:
        """Somebody sat down or opened their socket: a play-now lobby whose every seat is
        taken by people who are all here starts now (nobody waits for bots then)."""
        room = handle.room
        if not room.door.play_now or room.phase is not Phase.LOBBY or room.door.fill_at is None:
            return
        seated = room.seating.seated()
        if len(seated) >= room.options.max_players and all(p.connected for p in seated):
            self._start(handle)
            log_event("play_now_full", code=room.code)
