"""The flush: one commit and one frame per socket per turn of the event loop.

Nothing leaves at once. Every change `publish`es its events (serialised once) into an
outbox per socket, and replies wait in another; once per turn of the event loop `flush`
does, for everything that happened in that turn: work out which seats' legal actions
changed, hand each socket all that is for it, in order (events, then its `legal`, then
its replies), as one frame, and save every changed room in one SQLite transaction
(group commit) after the onlookers' frames and before the movers'. So an `ack` never
leaves before its move is on disk, a move costs one commit shared by all the moves of
its turn, and a socket gets one frame per turn however busy its room is; under light
load a turn holds one move and nothing waits longer than one turn. Nothing here awaits a
client's network (see `connection.Pipe`). docs/architecture.md, "The flush", says why.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from time import perf_counter

from app.demon.hub.connection import Pipe
from app.demon.hub.handle import SAVE_ALL, SAVE_MOVES, SAVED, RoomHandle, RoomStore
from app.demon.room.room import Outcome
from app.ops import instruments
from app.protocol import server as out
from app.support.logfmt import log_event

log = logging.getLogger("demon.hub")

Seat = tuple[RoomHandle, str]  # a socket's room and player id


class Outbox:
    """What the next flush sends and saves, and the flush itself."""

    def __init__(self, store: RoomStore | None, after_flush: Callable[[RoomHandle], None]) -> None:
        self.store = store
        self._after_flush = after_flush  # each changed room, once its frames have left
        # What the next flush sends, per socket in order: the room stream (welcome,
        # snapshots, events) and the direct replies. Dicts keep insertion order.
        self._stream: dict[Pipe, list[str]] = {}
        self._replies: dict[Pipe, list[str]] = {}
        self._changed: dict[int, RoomHandle] = {}  # rooms to save and to look at legal actions of
        self._pending = False

    # ------------------------------------------------------------ filling it

    def publish(self, handle: RoomHandle, outcome: Outcome) -> None:
        """Queue the events for every socket of the room; the flush saves and sends."""
        if not outcome.events:
            return
        moves_only = all(e["event"]["kind"] == "move" for e in outcome.events)
        handle.unsaved = max(handle.unsaved, SAVE_MOVES if moves_only else SAVE_ALL)
        self.mark_changed(handle)
        for event in outcome.events:
            text = handle.room.log.text(event)
            for pipe in handle.pipes.values():
                stream = self._stream.get(pipe)
                if stream is None:
                    self._stream[pipe] = [text]
                else:
                    stream.append(text)
            body = event["event"]
            if body["kind"] == "round_ended":
                result = body["result"]
                log_event(
                    "round_ended",
                    code=handle.room.code,
                    round_no=result["round_no"],
                    reason=result["reason"],
                    match_over=result["match_over"],
                )
            elif body["kind"] == "round_started":
                log_event(
                    "round_started", code=handle.room.code, round_no=body["round_no"], players=len(handle.room.players)
                )

    def stream(self, pipe: Pipe, texts: Iterable[str]) -> None:
        """Room news for one socket only (its welcome, a snapshot, an emote), in order
        with the events of the turn."""
        self._stream.setdefault(pipe, []).extend(texts)
        self.schedule()

    def reply(self, pipe: Pipe, message: out.Reply) -> None:
        """A message for one socket only (ack, rejection, error, pong): it leaves with the
        next flush, after the events and legal actions of the same turn."""
        self._replies.setdefault(pipe, []).append(out.encode(message))
        self.schedule()

    def mark_changed(self, handle: RoomHandle) -> None:
        self._changed[id(handle)] = handle
        self.schedule()

    def forget(self, handle: RoomHandle) -> None:
        """The room is gone: a flush must not save it back."""
        self._changed.pop(id(handle), None)

    def schedule(self) -> None:
        if not self._pending:
            self._pending = True
            asyncio.get_running_loop().call_soon(self.flush)

    # ------------------------------------------------------------ emptying it

    def flush(self) -> None:
        """Send to the onlookers, save, then answer the movers.

        Sockets with only room news go first, each as soon as its own legal actions are
        known: a broadcast does not wait for the disk (lichess's order too). Then every
        room the turn changed is saved in one transaction, and only then do the sockets
        with replies (the movers, whose legal actions are the ones that take work to
        recompute) get their frame: an `ack` is the promise that the move is on disk, and
        a mover still reads its new legal actions before its `ack`. A crash between the
        two can leave onlookers with events that were never saved; when they come back,
        the server's new `epoch` makes them start again from a snapshot (`Hub.attach`)."""
        self._pending = False
        started = perf_counter()
        changed, self._changed = self._changed, {}
        stream, self._stream = self._stream, {}
        replies, self._replies = self._replies, {}
        seats: dict[Pipe, Seat] = {}  # the sockets whose legal actions may have changed
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
        sent = perf_counter()
        self.save(list(changed.values()))
        saved = perf_counter()
        self._send_turns(replies, stream, seats, replies)
        done = perf_counter()
        instruments.FANOUT_SECONDS.observe(sent - started + done - saved)
        instruments.FLUSH_SECONDS.observe(done - started)
        # Only now, after every frame of this turn has left: what comes after (the bots'
        # look at the table) costs work that people must not wait for to see a move.
        for handle in changed.values():
            self._after_flush(handle)

    def _send_turns(
        self,
        pipes: Iterable[Pipe],
        stream: dict[Pipe, list[str]],
        seats: dict[Pipe, Seat],
        replies: dict[Pipe, list[str]],
    ) -> None:
        for pipe in pipes:
            try:
                self._send_turn(pipe, stream.get(pipe), seats.get(pipe), replies.get(pipe))
            except Exception:  # a bug about one socket must not keep the others' news back
                log.exception(
                    "could not send to a socket of room %s", seats[pipe][0].room.code if pipe in seats else "?"
                )

    def _send_turn(self, pipe: Pipe, events: list[str] | None, seat: Seat | None, replies: list[str] | None) -> None:
        """One socket's share of a turn, as one frame: its events, its `legal`, its replies."""
        texts = events or []
        if seat is not None:
            legal = _legal_message(*seat)
            if legal is not None:
                texts = texts + [legal]
        if replies:
            texts = texts + replies
        if texts:
            pipe.send_many(texts)

    def save(self, handles: list[RoomHandle]) -> None:
        """Save the rooms that have something to save, in one transaction. A failed write
        (disk full…) is logged and the game goes on: the room keeps its mark, the tick
        tries again, and since the store only counts what it wrote, the next successful
        save catches up with everything."""
        todo = [h for h in handles if h.unsaved]
        if not todo:
            return
        failed: set[str] = set()
        if self.store is not None:
            started = perf_counter()
            failed = self.store.save_rooms([(h.room, h.unsaved == SAVE_MOVES) for h in todo])
            instruments.SAVE_SECONDS.observe(perf_counter() - started)
        for h in todo:
            if h.room.code not in failed:
                h.unsaved = SAVED


def _legal_message(handle: RoomHandle, pid: str) -> str | None:
    """The seat's `legal` message when its legal actions changed since it was last told."""
    room = handle.room
    player = room.seating.by_id(pid)
    if player is None:
        return None
    legal = room.legal_news(player)
    return None if legal is None else out.encode(out.legal(room.v, legal))
