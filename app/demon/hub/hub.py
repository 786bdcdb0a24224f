"""The hub: every live room in this process, their sockets and timers.

One writer per room (boardgame.io's match queue, concurrency 1): every change to a room
is one synchronous call here, run on the event loop's only thread and never awaiting in
the middle, so no two changes interleave and the order in which messages arrive is the
order in which they are applied; that decides every race (Demon rule 14). No lock is
needed for that, and none is taken: an `asyncio.Lock` per message would only add a
coroutine and its bookkeeping to every move (docs/performance.md).

Nothing leaves at once. Every change `_publish`es its events (serialised once) into an
outbox, and replies wait there too; once per turn of the event loop `_flush` does, for
everything that happened in that turn: work out which seats' legal actions changed,
hand each socket all that is for it, in order (events, then its `legal`, then its
replies), as one frame, and save every changed room in one SQLite transaction (group
commit) after the onlookers' frames and before the movers' (see `_flush`). So an `ack`
never leaves before its move is on disk, a move costs one commit shared by all the
moves of its turn, and a socket gets one frame per turn however busy its room is;
under light load a turn holds one move and nothing waits longer than one turn. Nothing
here awaits a client's network (see `connection.Pipe`).

A client message is dispatched by its class through one table (`_HANDLERS`, at the end
of this module), and every message the hub sends is built and encoded by
`app/protocol/server.py`.

Bots (`bots.BotDriver`) are seats without sockets: the flush, once its frames have left,
tells the driver which rooms changed, and a bot's message comes back in through
`bot_message`, the same dispatch a socket's message goes through.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from app.config import Settings
from app.protocol import messages as m
from app.protocol import server as out
from app.demon.room import coach
from app.demon.hub.bot_driver import BotDriver
from app.demon.hub.connection import Pipe
from app.demon.room.emotes import EmoteGate
from app.demon.room.errors import Invalid, RoomError, TooManyBots
from app.support.logfmt import log_event
from app.demon.room.room import Options, Outcome, Player, Room
from app.support.secrets_util import hash_token, new_code, new_token
from app.demon.room.test_layout import load_test_layout

log = logging.getLogger("demon.hub")

CLOSE_RESTART = 1012
CHECKPOINT_EVERY_TICKS = 20  # 5 s
CLOSE_POLICY = 1008


SAVE_MOVES, SAVE_ALL = 1, 2  # what a room's next save must write: its steps, or its meta too


@dataclass(eq=False)
class RoomHandle:
    """A live room and what only a live room has: its sockets, its timers, whether it
    still has to be saved. The room itself knows none of these (it is plain data and
    rules, tested without sockets and saved without them)."""

    room: Room
    pipes: dict[str, Pipe] = field(default_factory=dict)  # player id -> its socket
    countdown: asyncio.Task | None = None
    unsaved: int = 0  # 0, SAVE_MOVES or SAVE_ALL: what the next flush must write
    bot_timers: dict[str, asyncio.TimerHandle] = field(default_factory=dict)  # bot id -> its next look
    emotes: EmoteGate = field(default_factory=EmoteGate)  # per-player cooldowns; never saved


class HubFull(Exception):
    """The process holds `DEMON_MAX_ROOMS` rooms: no room is created (HTTP 503)."""


class Hub:
    def __init__(self, settings: Settings, store: Any = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.store = store
        self.clock = clock
        self.rooms: dict[str, RoomHandle] = {}
        self._ticker: asyncio.Task | None = None
        # What the next flush sends, per socket in order: the room stream (welcome,
        # snapshots, events) and the direct replies. Dicts keep insertion order.
        self._stream: dict[Pipe, list[str]] = {}
        self._replies: dict[Pipe, list[str]] = {}
        self._changed: dict[int, RoomHandle] = {}  # rooms to save and to look at legal actions of
        self._flush_pending = False
        # This run of the server: a version means something only within the run that
        # sent it (see `attach`), so every `welcome` names the run and a resuming client
        # sends the name back.
        self.epoch = secrets.token_urlsafe(6)
        self.bots = BotDriver(self, settings.bot_think_scale)
        self.test_layout = load_test_layout(settings.test_layout)  # testing only

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        if self.store is not None:
            for room in self.store.load_rooms(countdown_s=self.settings.countdown_s,
                                              replay_window=self.settings.replay_window,
                                              grace_s=self.settings.reconnect_grace_s,
                                              test_seed=self.settings.test_seed):
                room.clock = self.clock
                handle = RoomHandle(room)
                self.rooms[room.code] = handle
                self.bots.poke(handle)  # a restored room's bots carry on
                log_event("room_restored", code=room.code, phase=room.phase.value, v=room.v,
                          bots=len(room.bots()))
        self._ticker = asyncio.create_task(self._tick_forever())

    async def stop(self) -> None:
        """Graceful stop: tell every socket to come back later (1012) and flush."""
        if self._ticker:
            self._ticker.cancel()
        self.bots.stopped = True
        for handle in self.rooms.values():
            if handle.countdown is not None:
                handle.countdown.cancel()  # the room stays in its countdown and resumes it on restart
            if handle.room.bots():
                self.bots.forget(handle)
                # A bot's memory and random state live in the meta, which a move alone does
                # not rewrite: write it whole now, so a restart resumes them exactly.
                handle.unsaved = SAVE_ALL
                self._changed[id(handle)] = handle
        self._flush()  # what the last turn changed is saved (and sent to sockets still open)
        pipes = [p for h in self.rooms.values() for p in h.pipes.values()]
        for pipe in pipes:
            pipe.close(CLOSE_RESTART, "server restarting")
        await asyncio.gather(*(p.drain_and_stop(1.0) for p in pipes), return_exceptions=True)

    def _new_room(self, options: Options) -> Room:
        code = new_code(self.settings.shard)
        while code in self.rooms:
            code = new_code(self.settings.shard)
        room = Room(code, options, countdown_s=self.settings.countdown_s,
                    replay_window=self.settings.replay_window, grace_s=self.settings.reconnect_grace_s,
                    test_seed=self.settings.test_seed, test_layout=self.test_layout)
        room.clock = self.clock
        return room

    # ------------------------------------------------------------ HTTP-side entry points

    def create_room(self, body: m.CreateRoom) -> tuple[RoomHandle, Player, str]:
        if len(self.rooms) >= self.settings.max_rooms:
            raise HubFull("The server is full; try again later.")
        room = self._new_room(Options(body.rounds, body.time_limit_s, body.max_players))
        handle = RoomHandle(room)
        self.rooms[room.code] = handle
        token = new_token()
        player = room.join(body.name, hash_token(token))
        handle.unsaved = SAVE_ALL
        self._save_changed([handle])  # on disk before its creator hears of it
        log_event("room_created", code=room.code, max_players=body.max_players, rounds=body.rounds)
        return handle, player, token

    def join_room(self, code: str, name: str) -> tuple[RoomHandle, Player, str] | None:
        """None when there is no such room; RoomError("room_full") when it cannot take more."""
        handle = self.rooms.get(code)
        if handle is None:
            return None
        token = new_token()
        player = handle.room.join(name, hash_token(token))
        handle.room.last_active = self.clock()
        self._publish(handle, Outcome(events=[handle.room.room_event()]))
        self._save_changed([handle])  # the new seat is on disk before its token is handed out
        return handle, player, token

    def create_practice(self, body: m.PracticeRoom) -> tuple[RoomHandle, Player, str]:
        """"Play against bots": one person and `body.bots` bots, the countdown started."""
        self._check_bot_room(body.bots)
        handle, player, token = self.create_room(
            m.CreateRoom(name=body.name, rounds=body.rounds, max_players=body.bots + 1))
        room, now = handle.room, self.clock()
        for _ in range(body.bots):
            room.add_bot(player, body.level, now)
        self._publish(handle, room.start(player, now))
        self._after_change(handle)
        self._save_changed([handle])
        log_event("practice_created", code=room.code, bots=body.bots, level=body.level)
        return handle, player, token

    def bot_count(self) -> int:
        """Bots at a table in this process, every room together (`DEMON_MAX_BOTS`)."""
        return sum(len(h.room.bots()) for h in self.rooms.values())

    def _check_bot_room(self, more: int) -> None:
        if self.bot_count() + more > self.settings.max_bots:
            raise TooManyBots("The server has as many bots playing as it allows; try again later.")

    # ------------------------------------------------------------ sockets

    def attach(self, handle: RoomHandle, player: Player, pipe: Pipe, last_v: int | None,
               epoch: str | None = None) -> bool:
        """A socket authenticated as `player`: send what it missed, then go live. False
        when the room was removed or the player left while the socket was opening.

        The missed events are sent only to a client whose `last_v` comes from this run of
        the server (`epoch`); any other gets a snapshot. The other seats receive a move
        before it is committed (`_flush`), so a crash can leave a client holding versions
        that were never saved, which the restored room then hands out again for other
        events: the version alone cannot tell them apart, the run can."""
        room = handle.room
        if self.rooms.get(room.code) is not handle or player.left:
            return False
        old = handle.pipes.pop(player.id, None)
        if old is not None:
            old.close(CLOSE_POLICY, "opened in another tab")
        self._publish(handle, room.connect(player, self.clock()))  # the others see us arrive
        handle.pipes[player.id] = pipe
        pipe.on_drop = lambda dropped: self._drop(handle, player, dropped)
        stream = self._stream.setdefault(pipe, [])
        stream.append(out.encode(out.welcome(room.code, player.id, player.seat, room.v, self.epoch)))
        missed = room.log.since(last_v) if last_v is not None and epoch == self.epoch else None
        if missed is None:
            stream.append(out.encode(room.snapshot(self.clock())))
        else:
            stream.extend(missed)
        room.answers.forget_sent(player.id)
        self._mark_changed(handle)
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
        self._publish(handle, handle.room.disconnect(player, self.clock()))

    def handle_message(self, handle: RoomHandle, player: Player, pipe: Pipe, msg: Any) -> None:
        """Dispatch one validated client message from `pipe`'s socket; all room changes
        happen here. Replies go to the socket that asked."""
        outcome = self._dispatch(handle, player, pipe, msg)
        if outcome.reply is not None:
            self.reply(pipe, outcome.reply)
        if isinstance(msg, m.Leave):
            if handle.pipes.get(player.id) is pipe:
                del handle.pipes[player.id]
            pipe.close(1000, "left")

    def bot_message(self, handle: RoomHandle, player: Player, msg: Any) -> out.Reply | None:
        """A bot's message: the same dispatch as a socket's (`handle_message`), in the
        same order of arrival; the reply is returned to the bot instead of sent."""
        return self._dispatch(handle, player, None, msg).reply

    def _dispatch(self, handle: RoomHandle, player: Player, pipe: Pipe | None, msg: Any) -> Outcome:
        """Run the message's handler (`_HANDLERS`, by message class); a refusal becomes
        an `error` reply carrying the error's code."""
        room = handle.room
        handler = _HANDLERS.get(type(msg))
        try:
            if handler is None:
                raise Invalid("Unexpected message.")
            outcome = handler(self, handle, player, pipe, msg, self.clock())
        except RoomError as err:
            outcome = Outcome(reply=out.error(err.code, err.message))
            log_event("request_refused", code=room.code, player=player.id, reason=err.code)
        self._publish(handle, outcome)
        self._after_change(handle)
        return outcome

    # One handler per client message type. Each takes (handle, player, pipe, msg, now),
    # where pipe is None for a bot, and returns the room's Outcome or raises RoomError.

    def _on_action(self, handle: RoomHandle, player: Player, pipe: Pipe | None, msg: m.Action,
                   now: float) -> Outcome:
        outcome = handle.room.act(player, msg.id, msg.action, now)
        reply = outcome.reply
        if reply and reply["type"] == "rejected" and not reply.get("duplicate"):
            log_event("action_rejected", code=handle.room.code, player=player.id, reason=reply["code"])
        return outcome

    def _on_start(self, handle, player, pipe, msg: m.Start, now: float) -> Outcome:
        return handle.room.start(player, now)

    def _on_next_round(self, handle, player, pipe, msg: m.NextRound, now: float) -> Outcome:
        return handle.room.next_round(player, now)

    def _on_options(self, handle, player, pipe, msg: m.SetOptions, now: float) -> Outcome:
        return handle.room.set_options(player, Options(msg.rounds, msg.time_limit_s, msg.max_players))

    def _on_vote(self, handle, player, pipe, msg: m.Vote, now: float) -> Outcome:
        return handle.room.vote(player, msg.end)

    def _on_rematch(self, handle, player, pipe, msg: m.Rematch, now: float) -> Outcome:
        outcome = handle.room.rematch(player, now)
        if self.store is not None:
            self.store.reopen_match(handle.room)
        return outcome

    def _on_leave(self, handle, player, pipe, msg: m.Leave, now: float) -> Outcome:
        return handle.room.leave(player, now)

    def _on_add_bot(self, handle, player, pipe, msg: m.AddBot, now: float) -> Outcome:
        self._check_bot_room(1)
        outcome, bot = handle.room.add_bot(player, msg.level, now)
        log_event("bot_added", code=handle.room.code, player=bot.id, level=msg.level)
        return outcome

    def _on_remove_bot(self, handle, player, pipe, msg: m.RemoveBot, now: float) -> Outcome:
        outcome = handle.room.remove_bot(player, msg.player, now)
        log_event("bot_removed", code=handle.room.code, player=msg.player)
        return outcome

    def _on_resync(self, handle, player, pipe, msg: m.Resync, now: float) -> Outcome:
        if pipe is None:  # a bot has no state to resync
            raise Invalid("Unexpected message.")
        self._stream.setdefault(pipe, []).append(out.encode(handle.room.snapshot(now)))
        handle.room.answers.forget_sent(player.id)
        self._mark_changed(handle)
        return Outcome()

    def _on_ping(self, handle, player, pipe, msg: m.Ping, now: float) -> Outcome:
        return Outcome(reply=out.pong())

    def _on_emote(self, handle, player, pipe, msg: m.Emote, now: float) -> Outcome:
        """To every socket of the room, the sender's too; not an event (app/demon/room/emotes.py)."""
        if pipe is None:  # bots do not emote
            raise Invalid("Unexpected message.")
        text = handle.emotes.emote(player, msg.emote, now)
        for other in handle.pipes.values():
            self._stream.setdefault(other, []).append(text)
        self._schedule_flush()
        return Outcome()

    def _on_coach(self, handle, player, pipe, msg: m.Coach, now: float) -> Outcome:
        return Outcome(reply=coach.advice(handle.room, player))

    def _after_change(self, handle: RoomHandle) -> None:
        room = handle.room
        if room.phase.value == "countdown" and handle.countdown is None:
            handle.countdown = asyncio.create_task(self._count_down(handle))
            log_event("round_countdown", code=room.code, players=len(room.players))

    # ------------------------------------------------------------ publishing

    def reply(self, pipe: Pipe, message: out.Reply) -> None:
        """A message for one socket only (ack, rejection, error, pong): it leaves with the
        next flush, after the events and legal actions of the same turn."""
        self._replies.setdefault(pipe, []).append(out.encode(message))
        self._schedule_flush()

    def _publish(self, handle: RoomHandle, outcome: Outcome) -> None:
        """Queue the events for every socket of the room; the flush saves and sends."""
        if not outcome.events:
            return
        moves_only = all(e["event"]["kind"] == "move" for e in outcome.events)
        handle.unsaved = max(handle.unsaved, SAVE_MOVES if moves_only else SAVE_ALL)
        self._mark_changed(handle)
        for event in outcome.events:
            text = handle.room.log.text(event)
            for pipe in handle.pipes.values():
                stream = self._stream.get(pipe)
                if stream is None:
                    self._stream[pipe] = [text]
                else:
                    stream.append(text)
            kind = event["event"]["kind"]
            if kind == "round_ended":
                result = event["event"]["result"]
                log_event("round_ended", code=handle.room.code, round_no=result["round_no"],
                          reason=result["reason"], match_over=result["match_over"])
            elif kind == "round_started":
                log_event("round_started", code=handle.room.code, round_no=event["event"]["round_no"],
                          players=len(handle.room.players))

    def _mark_changed(self, handle: RoomHandle) -> None:
        self._changed[id(handle)] = handle
        self._schedule_flush()

    def _schedule_flush(self) -> None:
        if not self._flush_pending:
            self._flush_pending = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        """Send to the onlookers, save, then answer the movers: one commit and one frame
        per socket per turn.

        Sockets with only room news go first, each as soon as its own legal actions are
        known: a broadcast does not wait for the disk (lichess's order too). Then every
        room the turn changed is saved in one transaction, and only then do the sockets
        with replies (the movers, whose legal actions are the ones that take work to
        recompute) get their frame: an `ack` is the promise that the move is on disk, and
        a mover still reads its new legal actions before its `ack`. A crash between the
        two can leave onlookers with events that were never saved; when they come back,
        the server's new `epoch` makes them start again from a snapshot (`attach`)."""
        self._flush_pending = False
        changed, self._changed = self._changed, {}
        stream, self._stream = self._stream, {}
        replies, self._replies = self._replies, {}
        seats = {}  # the sockets whose legal actions may have changed
        for handle in changed.values():
            room = handle.room
            answers = room.answers
            moved_on = answers.basis_moved_on(room.phase, room.round)
            for pid, pipe in handle.pipes.items():
                if moved_on or pipe in replies or not answers.was_sent(pid):
                    seats[pipe] = (handle, pid)
        onlookers = [p for p in stream if p not in replies]
        onlookers += [p for p in seats if p not in stream and p not in replies]
        self._send_turns(onlookers, stream, seats, replies)
        self._save_changed(list(changed.values()))
        self._send_turns(replies, stream, seats, replies)
        # The table changed: its bots look at it (and act a think time later). Only now,
        # after every frame of this turn has left: a bot's look costs a view and a
        # decision per bot, and people must not wait for the bots' thinking to see a move.
        for handle in changed.values():
            if handle.room.players and handle.room.bots():
                self.bots.poke(handle)

    def _send_turns(self, pipes, stream: dict, seats: dict, replies: dict) -> None:
        for pipe in pipes:
            try:
                self._send_turn(pipe, stream.get(pipe), seats.get(pipe), replies.get(pipe))
            except Exception:  # a bug about one socket must not keep the others' news back
                log.exception("could not send to a socket of room %s", seats[pipe][0].room.code
                              if pipe in seats else "?")

    def _send_turn(self, pipe: Pipe, events: list[str] | None, seat: tuple | None,
                   replies: list[str] | None) -> None:
        """One socket's share of a turn, as one frame: its events, its `legal`, its replies."""
        texts = events or []
        if seat is not None:
            legal = self._legal_message(*seat)
            if legal is not None:
                texts = texts + [legal]
        if replies:
            texts = texts + replies
        if texts:
            pipe.send_many(texts)

    def _legal_message(self, handle: RoomHandle, pid: str) -> str | None:
        """The seat's `legal` message when its legal actions changed since it was last told."""
        room = handle.room
        player = room.seating.by_id(pid)
        if player is None:
            return None
        legal = room.legal_for(player)
        if not room.answers.news(pid, legal):
            return None
        return out.encode(out.legal(room.v, legal))

    def _save_changed(self, handles: list[RoomHandle]) -> None:
        """A failed write (disk full…) is logged and the game goes on: the room keeps its
        mark, the tick tries again, and since the store only counts what it wrote, the
        next successful save catches up with everything."""
        todo = [h for h in handles if h.unsaved]
        if not todo:
            return
        failed: set[str] = set()
        if self.store is not None:
            failed = self.store.save_rooms([(h.room, h.unsaved == SAVE_MOVES) for h in todo])
        for h in todo:
            if h.room.code not in failed:  # a failed room keeps its mark; the tick tries again
                h.unsaved = 0

    # ------------------------------------------------------------ timers

    async def _count_down(self, handle: RoomHandle) -> None:
        try:
            await asyncio.sleep(self.settings.countdown_s)
            self._publish(handle, handle.room.begin_round(self.clock()))
        finally:
            handle.countdown = None

    async def _tick_forever(self) -> None:
        ticks = 0
        while True:
            await asyncio.sleep(0.25)
            ticks += 1
            try:
                self.tick()
                if self.store is not None and ticks % CHECKPOINT_EVERY_TICKS == 0:
                    await asyncio.to_thread(self.store.checkpoint)
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
        if room.phase.value == "countdown" and handle.countdown is None:
            handle.countdown = asyncio.create_task(self._count_down(handle))
        self._publish(handle, room.tick(now))
        if handle.unsaved:  # its last save failed (disk full…): try again, four times a second
            self._mark_changed(handle)
        if not handle.pipes and room.is_idle(now, self.settings.empty_room_ttl_s):
            del self.rooms[code]
            self.bots.forget(handle)
            self._changed.pop(id(handle), None)  # a flush must not save it back
            if self.store is not None:
                self.store.forget_room(room)
            log_event("room_removed", code=code, reason="idle")


_HANDLERS: dict[type, Callable[..., Outcome]] = {
    m.Action: Hub._on_action,
    m.Start: Hub._on_start,
    m.NextRound: Hub._on_next_round,
    m.SetOptions: Hub._on_options,
    m.Vote: Hub._on_vote,
    m.Rematch: Hub._on_rematch,
    m.Leave: Hub._on_leave,
    m.AddBot: Hub._on_add_bot,
    m.RemoveBot: Hub._on_remove_bot,
    m.Resync: Hub._on_resync,
    m.Ping: Hub._on_ping,
    m.Emote: Hub._on_emote,
    m.Coach: Hub._on_coach,
}
