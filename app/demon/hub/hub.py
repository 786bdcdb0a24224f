"""The hub: every live room in this process, their sockets, and the door into them.

One writer per room (boardgame.io's match queue, concurrency 1): every change to a room
is one synchronous call here, run on the event loop's only thread and never awaiting in
the middle, so no two changes interleave and the order in which messages arrive is the
order in which they are applied; that decides every race (Demon rule 14). No lock is
needed for that, and none is taken: an `asyncio.Lock` per message would only add a
coroutine and its bookkeeping to every move (docs/performance.md).

The hub puts together the parts that each do one job, and keeps the rooms and the
sockets' comings and goings itself:

* `dispatch.Dispatcher`: a client message to its handler (one table, by class);
* `flush.Outbox`: nothing leaves at once; once per turn of the event loop, one frame per
  socket and one commit for every room the turn changed;
* `timers.Timers`: the countdown, the tick, idle rooms, the WAL checkpoint;
* `open_tables.OpenTables`: "Play now"'s choice of lobby, and a play-now lobby's bots;
* `bot_driver.BotDriver`: seats without sockets. The flush, once its frames have left,
  tells the driver which rooms changed, and a bot's message comes back in through
  `bot_message`, the same dispatch a socket's message goes through.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable

from app.config import Settings
from app.demon.hub.bot_driver import BotDriver
from app.demon.hub.connection import Pipe
from app.demon.hub.dispatch import Dispatcher
from app.demon.hub.flush import Outbox
from app.demon.hub.handle import SAVE_ALL, RoomHandle, RoomStore
from app.demon.hub.open_tables import PLAY_NOW_SEATS, OpenTables
from app.demon.hub.timers import Timers
from app.demon.room.errors import Removed, TooManyBots
from app.demon.room.fixed_layout import load_test_layout
from app.demon.room.phases import Phase
from app.demon.room.room import Options, Outcome, Player, Room
from app.demon.room.seating import address_mark
from app.protocol import messages as m
from app.protocol import server as out
from app.support.logfmt import log_event
from app.support.secrets_util import hash_token, new_code, new_token

__all__ = ["CLOSE_POLICY", "CLOSE_RESTART", "Hub", "HubFull", "RoomHandle"]

CLOSE_RESTART = 1012
CLOSE_POLICY = 1008


class HubFull(Exception):
    """The process holds `DEMON_MAX_ROOMS` rooms: no room is created (HTTP 503)."""


class Hub:
    def __init__(
        self, settings: Settings, store: RoomStore | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.settings = settings
        self.store = store
        self.clock = clock
        self.rooms: dict[str, RoomHandle] = {}
        # This run of the server: a version means something only within the run that
        # sent it (see `attach`), so every `welcome` names the run and a resuming client
        # sends the name back.
        self.epoch = secrets.token_urlsafe(6)
        self.bots = BotDriver(self, settings.bot_think_scale)
        self.outbox = Outbox(store, self._after_flush)
        self.timers = Timers(self.rooms, self.outbox, settings, store, clock, self.bots.forget)
        self.dispatcher = Dispatcher(self.outbox, store, clock, self._check_bot_room, self._after_change)
        self.dispatcher.open_tables = settings.open_tables
        self.open_tables = OpenTables(self.rooms, self.outbox, settings, clock, self.bot_count, self._after_change)
        self.test_layout = load_test_layout(settings.test_layout)  # testing only

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        if self.store is not None:
            for room in self.store.load_rooms(
                countdown_s=self.settings.countdown_s,
                replay_window=self.settings.replay_window,
                grace_s=self.settings.reconnect_grace_s,
                test_seed=self.settings.test_seed,
            ):
                room.clock = self.clock
                handle = RoomHandle(room)
                self.rooms[room.code] = handle
                self.bots.poke(handle)  # a restored room's bots carry on
                self.open_tables.restored(handle)  # a play-now lobby's bots come when due
                log_event("room_restored", code=room.code, phase=room.phase.value, v=room.v, bots=len(room.bots()))
        self.timers.start()

    async def stop(self) -> None:
        """Graceful stop: tell every socket to come back later (1012) and flush."""
        self.timers.stop()  # a room counting down resumes its countdown on restart
        self.open_tables.stop()  # a play-now lobby's `fill_at` is saved: the next run keeps it
        self.bots.stopped = True
        for handle in self.rooms.values():
            if handle.room.bots():
                self.bots.forget(handle)
                # A bot's memory and random state live in the meta, which a move alone does
                # not rewrite: write it whole now, so a restart resumes them exactly.
                handle.unsaved = SAVE_ALL
                self.outbox.mark_changed(handle)
        self.outbox.flush()  # what the last turn changed is saved (and sent to sockets still open)
        pipes = [p for h in self.rooms.values() for p in h.pipes.values()]
        for pipe in pipes:
            pipe.close(CLOSE_RESTART, "server restarting")
        await asyncio.gather(*(p.drain_and_stop(1.0) for p in pipes), return_exceptions=True)

    def _new_room(self, options: Options) -> Room:
        code = new_code(self.settings.shard)
        while code in self.rooms:
            code = new_code(self.settings.shard)
        room = Room(
            code,
            options,
            countdown_s=self.settings.countdown_s,
            replay_window=self.settings.replay_window,
            grace_s=self.settings.reconnect_grace_s,
            test_seed=self.settings.test_seed,
            test_layout=self.test_layout,
        )
        room.clock = self.clock
        return room

    # ------------------------------------------------------------ HTTP-side entry points

    def create_room(self, body: m.CreateRoom, address: str | None = None) -> tuple[RoomHandle, Player, str]:
        """`address`: the creator's, kept (as `address_mark`) so the host's removal of a
        person bars that person's address; None where nobody can be removed (practice)."""
        if len(self.rooms) >= self.settings.max_rooms:
            raise HubFull("The server is full; try again later.")
        room = self._new_room(
            Options.chosen(body.rounds, body.time_limit_s, body.max_players, body.game, body.house_rules)
        )
        room.listed = body.listed
        room.door.set_open(body.open)
        room.door.language = body.language
        handle = RoomHandle(room)
        self.rooms[room.code] = handle
        token = new_token()
        player = room.join(body.name, hash_token(token))
        if address is not None:
            room.door.marks[player.id] = address_mark(room.code, address)
        handle.unsaved = SAVE_ALL
        self.outbox.save([handle])  # on disk before its creator hears of it
        log_event("room_created", code=room.code, game=body.game, max_players=body.max_players, rounds=body.rounds)
        return handle, player, token

    def join_room(self, code: str, name: str, address: str | None = None) -> tuple[RoomHandle, Player, str] | None:
        """None when there is no such room; RoomError("room_full") when it cannot take more,
        Removed when the host removed this address from it."""
        handle = self.rooms.get(code)
        if handle is None:
            return None
        door = handle.room.door
        mark = address_mark(code, address) if address is not None else None
        if mark is not None and door.refuses(mark):
            raise Removed("You were removed from this table.")
        token = new_token()
        player = handle.room.join(name, hash_token(token))
        if mark is not None:
            door.marks[player.id] = mark
        handle.room.last_active = self.clock()
        self.outbox.publish(handle, Outcome(events=[handle.room.room_event()]))
        self.outbox.save([handle])  # the new seat is on disk before its token is handed out
        self.open_tables.seated(handle)
        return handle, player, token

    def play_now(self, body: m.PlayNow, address: str) -> tuple[RoomHandle, Player, str]:
        """ "Play now" (app/demon/hub/open_tables.py): a seat at the best open lobby, or a
        new open table of four that fills with bots. One synchronous call: two presses at
        the same moment land at the same table. HubFull as `create_room`."""
        handle = self.open_tables.best_lobby(body.game, body.language, address)
        if handle is not None:
            joined = self.join_room(handle.room.code, body.name, address)
            assert joined is not None  # the room is in `self.rooms`: we looked there, nothing ran since
            return joined
        create = m.CreateRoom(
            name=body.name, max_players=PLAY_NOW_SEATS, game=body.game, open=True, language=body.language
        )
        handle, player, token = self.create_room(create, address)
        self.open_tables.opened(handle, body.level, address)
        handle.unsaved = SAVE_ALL
        self.outbox.save([handle])  # its `fill_at` is on disk with it
        log_event("play_now_opened", code=handle.room.code, game=body.game, language=body.language)
        return handle, player, token

    def create_practice(
        self,
        body: m.PracticeRoom,
        *,
        seed: int | None = None,
        time_limit_s: int | None = None,
        daily: str | None = None,
    ) -> tuple[RoomHandle, Player, str]:
        """ "Play against bots": one person and `body.bots` bots, the countdown started.
        The daily race (app/server/daily_http.py) names the deal (`seed`, which also
        seeds the bots), a time limit and its day (`Room.daily`: what it refuses)."""
        self._check_bot_room(body.bots)
        handle, player, token = self.create_room(
            m.CreateRoom(
                name=body.name,
                rounds=body.rounds,
                max_players=body.bots + 1,
                game=body.game,
                house_rules=body.house_rules,
            )
        )
        room, now = handle.room, self.clock()
        if seed is not None:
            room.test_seed = seed
        room.daily = daily
        if time_limit_s is not None:  # the server's own setting, not a player's (no 60 s floor)
            room.options.time_limit_s = time_limit_s
        for _ in range(body.bots):
            room.add_bot(player, body.level, now)
        self.outbox.publish(handle, room.start(player, now))
        self._after_change(handle)
        self.outbox.save([handle])
        log_event("practice_created", code=room.code, bots=body.bots, level=body.level)
        return handle, player, token

    def bot_count(self) -> int:
        """Bots at a table in this process, every room together (`DEMON_MAX_BOTS`)."""
        return sum(len(h.room.bots()) for h in self.rooms.values())

    def _check_bot_room(self, more: int) -> None:
        if self.bot_count() + more > self.settings.max_bots:
            raise TooManyBots("The server has as many bots playing as it allows; try again later.")

    # ------------------------------------------------------------ sockets

    def attach(
        self, handle: RoomHandle, player: Player, pipe: Pipe, last_v: int | None, epoch: str | None = None
    ) -> bool:
        """A socket authenticated as `player`: send what it missed, then go live. False
        when the room was removed or the player left while the socket was opening.

        The missed events are sent only to a client whose `last_v` comes from this run of
        the server (`epoch`); any other gets a snapshot. The other seats receive a move
        before it is committed (`Outbox.flush`), so a crash can leave a client holding versions
        that were never saved, which the restored room then hands out again for other
        events: the version alone cannot tell them apart, the run can."""
        room = handle.room
        if self.rooms.get(room.code) is not handle or player.left:
            return False
        old = handle.pipes.pop(player.id, None)
        if old is not None:
            old.close(CLOSE_POLICY, "opened in another tab")
        self.outbox.publish(handle, room.connect(player, self.clock()))  # the others see us arrive
        if player.bot is None and player.seat is not None:
            handle.person_seen = True  # its bots may play now (bot_driver.BotDriver.poke)
        handle.pipes[player.id] = pipe
        pipe.on_drop = lambda dropped: self._drop(handle, player, dropped)
        missed = room.log.since(last_v) if last_v is not None and epoch == self.epoch else None
        welcome = out.encode(out.welcome(room.code, player.id, player.seat, room.v, self.epoch))
        self.outbox.stream(
            pipe, [welcome] + (missed if missed is not None else [out.encode(room.snapshot(self.clock()))])
        )
        room.answers.forget_sent(player.id)
        self.outbox.mark_changed(handle)
        self.open_tables.seated(handle)  # a full play-now lobby of people all here starts
        log_event("seat_connected", code=room.code, player=player.id, resumed=missed is not None)
        return True

    def detach(self, handle: RoomHandle, player: Player, pipe: Pipe) -> None:
        self._drop(handle, player, pipe)

    def _drop(self, handle: RoomHandle, player: Player, pipe: Pipe) -> None:
        """The socket is gone (or was closed for being too slow): the others see the
        player as disconnected. Synchronous, so a pipe can call it when it gives up on
        its socket (`Pipe.on_drop`), with the socket's own loop still waiting for input.
        That can happen inside a flush, while the pipe is being written to; what it
        publishes then is saved and sent by the flush it schedules."""
        if handle.pipes.get(player.id) is not pipe:
            return  # replaced by a newer socket of the same seat, or already dropped
        del handle.pipes[player.id]
        handle.room.answers.forget_sent(player.id)
        if player.left:
            return
        self.outbox.publish(handle, handle.room.disconnect(player, self.clock()))

    def handle_message(self, handle: RoomHandle, player: Player, pipe: Pipe, msg: m.RoomMessage) -> None:
        """Dispatch one validated client message from `pipe`'s socket; all room changes
        happen here. Replies go to the socket that asked."""
        outcome = self.dispatcher.dispatch(handle, player, pipe, msg)
        if outcome.reply is not None:
            self.outbox.reply(pipe, outcome.reply)
        if isinstance(msg, m.Leave):
            if handle.pipes.get(player.id) is pipe:
                del handle.pipes[player.id]
            pipe.close(1000, "left")

    def bot_message(self, handle: RoomHandle, player: Player, msg: m.RoomMessage) -> out.Reply | None:
        """A bot's message: the same dispatch as a socket's (`handle_message`), in the
        same order of arrival; the reply is returned to the bot instead of sent."""
        return self.dispatcher.dispatch(handle, player, None, msg).reply

    def reply(self, pipe: Pipe, message: out.Reply) -> None:
        """A message for one socket only, with the next flush (`Outbox.reply`)."""
        self.outbox.reply(pipe, message)

    def racing(self) -> bool:
        """Whether someone is connected to a round in play somewhere in this process:
        then a pause of the whole process would be felt in a race (the collector waits
        for a moment when it is not: app/server/loop/collector.py)."""
        return any(handle.pipes and handle.room.phase is Phase.PLAYING for handle in self.rooms.values())

    def tick(self) -> None:
        """Every room's deadlines, now (`Timers.tick`; the ticker calls it 4 times a second)."""
        self.timers.tick()

    def _after_change(self, handle: RoomHandle) -> None:
        if self.timers.count_down_if_due(handle):
            log_event("round_countdown", code=handle.room.code, players=len(handle.room.players))

    def _after_flush(self, handle: RoomHandle) -> None:
        """The table changed and its frames have left: its bots look at it (and act a
        think time later). A bot's look costs a view and a decision per bot, and people
        must not wait for the bots' thinking to see a move."""
        if handle.room.players and handle.room.bots():
            self.bots.poke(handle)
