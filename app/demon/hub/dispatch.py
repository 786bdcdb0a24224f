"""The hub's door: one handler per client message type, found by the message's class.

A socket's message and a bot's go through the same `Dispatcher.dispatch`, so both meet
the same checks, in the same order of arrival (the first-come rule, Demon rule 14). A
handler calls the room and returns its `Outcome`, or raises `RoomError`, which becomes
an `error` reply carrying the error's code. `HANDLERS` is the table; every client message
but `hello` (the socket endpoint's) has a row (tests/rooms/test_protocol_shapes.py).
"""

from __future__ import annotations

from collections.abc import Callable
from time import perf_counter
from typing import TypeVar

from pydantic import BaseModel

from app.demon.hub import coach
from app.demon.hub.connection import CLOSE_OUTDATED, OUTDATED_REASON, Pipe
from app.demon.hub.flush import Outbox
from app.demon.hub.handle import RoomHandle, RoomStore
from app.demon.room.errors import Invalid, RoomError
from app.demon.room.room import Options, Outcome, Player
from app.ops import instruments
from app.protocol import messages as m
from app.protocol import server as out
from app.support.logfmt import log_event

M = TypeVar("M", bound=BaseModel)  # one of m.RoomMessage's classes

CLOSE_REMOVED = 4003  # the host removed this seat's person (`remove_player`)
REMOVED_REASON = "removed by the host"
NO_OPEN_TABLES = "This server has no open tables."


class Dispatcher:
    def __init__(
        self,
        outbox: Outbox,
        store: RoomStore | None,
        clock: Callable[[], float],
        check_bot_cap: Callable[[int], None],
        after_change: Callable[[RoomHandle], None],
    ) -> None:
        self.outbox = outbox
        self.store = store
        self.clock = clock
        self.check_bot_cap = check_bot_cap  # raises TooManyBots past the server's DEMON_MAX_BOTS
        self._after_change = after_change  # the room may have started counting down
        self.open_tables = True  # DEMON_OPEN_TABLES: false refuses `set_open` to true

    def dispatch(self, handle: RoomHandle, player: Player, pipe: Pipe | None, msg: m.RoomMessage) -> Outcome:
        """Run the message's handler; `pipe` is the sender's socket, None for a bot. The
        events are published; the reply is the caller's to deliver."""
        room = handle.room
        handler = HANDLERS.get(type(msg))
        try:
            if handler is None:
                raise Invalid("Unexpected message.")
            outcome = handler(self, handle, player, pipe, msg, self.clock())
        except RoomError as err:
            outcome = Outcome(reply=out.error(err.code, err.message))
            log_event("request_refused", code=room.code, player=player.id, reason=err.code)
            if isinstance(msg, m.Action):  # a move refused before the rules saw it (not playing...)
                instruments.move_refused(err.code)
        self.outbox.publish(handle, outcome)
        self._after_change(handle)
        return outcome


# One handler per client message type: (dispatcher, handle, player, pipe, msg, now),
# where pipe is None for a bot; each returns the room's Outcome or raises RoomError.


def _on_action(
    d: Dispatcher, handle: RoomHandle, player: Player, pipe: Pipe | None, msg: m.Action, now: float
) -> Outcome:
    started = perf_counter()
    outcome = handle.room.act(player, msg.id, msg.action, now)
    for pid, note in outcome.direct:  # a race's winner hears its margin (a bot has no socket)
        winner_pipe = handle.pipes.get(pid)
        if winner_pipe is not None:
            d.outbox.stream(winner_pipe, [out.encode(note)])
    reply = outcome.reply
    if reply is not None and reply["type"] == "rejected" and not reply.get("duplicate"):
        log_event("action_rejected", code=handle.room.code, player=player.id, reason=reply["code"])
        instruments.move_refused(reply["code"])
    elif reply is not None and reply["type"] == "ack":
        instruments.MOVES_APPLIED.inc()
    instruments.MOVE_SECONDS.observe(perf_counter() - started)
    return outcome


def _on_start(
    d: Dispatcher, handle: RoomHandle, player: Player, pipe: Pipe | None, msg: m.Start, now: float
) -> Outcome:
    return handle.room.start(player, now)


def _on_next_round(
    d: Dispatcher, handle: RoomHandle, player: Player, pipe: Pipe | None, msg: m.NextRound, now: float
) -> Outcome:
    return handle.room.next_round(player, now)


def _on_options(
    d: Dispatcher, handle: RoomHandle, player: Player, pipe: Pipe | None, msg: m.SetOptions, now: float
) -> Outcome:
    options = Options.chosen(msg.rounds, msg.time_limit_s, msg.max_players, msg.game, msg.house_rules)
    outcome = handle.room.set_options(player, options)
    for pipe_ in list(handle.pipes.values()):  # a page too old for the game is told to reload
        if pipe_.protocol < options.protocol:
            pipe_.close(CLOSE_OUTDATED, OUTDATED_REASON)
    return outcome


def _on_vote(d: Dispatcher, handle: RoomHandle, player: Player, pipe: Pipe | None, msg: m.Vote, now: float) -> Outcome:
    return handle.room.vote(player, msg.end, msg.bots_finish)


def _on_rematch(
    d: Dispatcher, handle: RoomHandle, player: Player, pipe: Pipe | None, msg: m.Rematch, now: float
) -> Outcome:
    outcome = handle.room.rematch(player, now)
    if d.store is not None:
        d.store.reopen_match(handle.room)
    return outcome


def _on_leave(
    d: Dispatcher, handle: RoomHandle, player: Player, pipe: Pipe | None, msg: m.Leave, now: float
) -> Outcome:
    return handle.room.leave(player, now)


def _on_add_bot(
    d: Dispatcher, handle: RoomHandle, player: Player, pipe: Pipe | None, msg: m.AddBot, now: float
) -> Outcome:
    d.check_bot_cap(1)
    outcome, bot = handle.room.add_bot(player, msg.level, now)
    log_event("bot_added", code=handle.room.code, player=bot.id, level=msg.level)
    return outcome


def _on_remove_bot(
    d: Dispatcher, handle: RoomHandle, player: Player, pipe: Pipe | None, msg: m.RemoveBot, now: float
) -> Outcome:
    outcome = handle.room.remove_bot(player, msg.player, now)
    log_event("bot_removed", code=handle.room.code, player=msg.player)
    return outcome


def _on_set_open(
    d: Dispatcher, handle: RoomHandle, player: Player, pipe: Pipe | None, msg: m.SetOpen, now: float
) -> Outcome:
    if msg.open and not d.open_tables:
        raise Invalid(NO_OPEN_TABLES)
    outcome = handle.room.set_open(player, msg.open)
    log_event("table_opened" if msg.open else "table_closed", code=handle.room.code)
    return outcome


def _on_remove_player(
    d: Dispatcher, handle: RoomHandle, player: Player, pipe: Pipe | None, msg: m.RemovePlayer, now: float
) -> Outcome:
    """The removed person's socket closes with 4003; their token opens nothing any more."""
    outcome, removed = handle.room.remove_player(player, msg.seat, now)
    gone = handle.pipes.pop(removed.id, None)
    if gone is not None:
        handle.room.answers.forget_sent(removed.id)
        gone.close(CLOSE_REMOVED, REMOVED_REASON)
    log_event("player_removed", code=handle.room.code, player=removed.id)
    return outcome


def _on_resync(
    d: Dispatcher, handle: RoomHandle, player: Player, pipe: Pipe | None, msg: m.Resync, now: float
) -> Outcome:
    if pipe is None:  # a bot has no state to resync
        raise Invalid("Unexpected message.")
    d.outbox.stream(pipe, [out.encode(handle.room.snapshot(now))])
    handle.room.answers.forget_sent(player.id)
    d.outbox.mark_changed(handle)
    return Outcome()


def _on_ping(d: Dispatcher, handle: RoomHandle, player: Player, pipe: Pipe | None, msg: m.Ping, now: float) -> Outcome:
    return Outcome(reply=out.pong())


def _on_emote(
    d: Dispatcher, handle: RoomHandle, player: Player, pipe: Pipe | None, msg: m.Emote, now: float
) -> Outcome:
    """To every socket of the room, the sender's too; not an event (app/demon/hub/emotes.py)."""
    if pipe is None:  # bots do not emote
        raise Invalid("Unexpected message.")
    text = handle.emotes.emote(player, msg.emote, now)
    for other in handle.pipes.values():
        d.outbox.stream(other, [text])
    return Outcome()


def _on_coach(
    d: Dispatcher, handle: RoomHandle, player: Player, pipe: Pipe | None, msg: m.Coach, now: float
) -> Outcome:
    return Outcome(reply=coach.advice(handle.room, player))


Handler = Callable[[Dispatcher, RoomHandle, Player, "Pipe | None", m.RoomMessage, float], Outcome]


def _row(
    kind: type[M], handler: Callable[[Dispatcher, RoomHandle, Player, Pipe | None, M, float], Outcome]
) -> tuple[type[BaseModel], Handler]:
    """A row of the table: a handler of one message class, callable with any message
    (the table is looked up by the message's class, so the check never fails)."""

    def run(
        d: Dispatcher, handle: RoomHandle, player: Player, pipe: Pipe | None, msg: m.RoomMessage, now: float
    ) -> Outcome:
        assert isinstance(msg, kind)
        return handler(d, handle, player, pipe, msg, now)

    run.__doc__ = handler.__doc__
    return kind, run


HANDLERS: dict[type[BaseModel], Handler] = dict(
    [
        _row(m.Action, _on_action),
        _row(m.NertsAction, _on_action),
        _row(m.Start, _on_start),
        _row(m.NextRound, _on_next_round),
        _row(m.SetOptions, _on_options),
        _row(m.Vote, _on_vote),
        _row(m.Rematch, _on_rematch),
        _row(m.Leave, _on_leave),
        _row(m.AddBot, _on_add_bot),
        _row(m.RemoveBot, _on_remove_bot),
        _row(m.Resync, _on_resync),
        _row(m.Ping, _on_ping),
        _row(m.Emote, _on_emote),
        _row(m.Coach, _on_coach),
        _row(m.SetOpen, _on_set_open),
        _row(m.RemovePlayer, _on_remove_player),
    ]
)
