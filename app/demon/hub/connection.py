"""One outgoing pipe per socket: a bounded backlog of messages, written without waiting.

A broadcast only hands each pipe its messages, so it never awaits anybody's network
(the `websockets` broadcast guide's advice). A client whose backlog passes `max_queue`
messages is too far behind to be worth waiting for: its pipe closes it with 1013 (the
close frame leaves once the socket takes data again), tells the room at once through
`on_drop`, and the client resyncs when it reconnects. The socket object only needs
`send_text` (returning an awaitable) and `close(code, reason)`: the socket endpoint's
`_Frames` (app/server/ws.py), or in tests anything that records frames.

Two things make a broadcast cheap (docs/performance.md):

* Whatever waits for a socket leaves as one text frame, the messages one per line
  (docs/protocol.md): a frame costs the server far more than its bytes do.
* The write happens at once, inside the hub's flush, not in a task per socket that the
  event loop wakes later. A send to a socket whose buffer has room never waits (uvicorn
  only waits while the transport is paused), so `start` runs it to the end right
  there; only a send that does have to wait is finished by a task (`_carry_on`), which
  then sends whatever piled up meanwhile. This is what Python 3.12 calls eager task
  execution, done by hand because the project supports 3.11. Waking one task per
  socket per move cost more than the writes themselves.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Iterable
from typing import Any, Protocol

log = logging.getLogger("demon.connection")

CLOSE_TOO_SLOW = 1013
# A page older than the room's game (its `hello` named no `protocol`, or a lower one
# than the game needs): it is told to reload rather than misread the table.
CLOSE_OUTDATED = 4001
OUTDATED_REASON = "outdated page: reload"
MAX_FRAME_CHARS = 64 * 1024  # a longer backlog leaves as several frames


class _Socket(Protocol):
    def send_text(self, data: str, /) -> Coroutine[Any, Any, None]: ...
    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


def take_frame(pending: list[str], limit: int = MAX_FRAME_CHARS) -> tuple[str, int]:
    """The first messages of `pending` that fit in `limit` characters (at least one),
    joined one per line, and how many were taken."""
    size, n = len(pending[0]), 1
    while n < len(pending) and size + 1 + len(pending[n]) <= limit:
        size += 1 + len(pending[n])
        n += 1
    return (pending[0] if n == 1 else "\n".join(pending[:n])), n


# (a coroutine `start` began, what it waits on: the future asyncio's coroutines yield,
# or None for a bare yield)
Suspended = tuple[Coroutine[Any, Any, None], "asyncio.Future[Any] | None"]


def start(coro: Coroutine[Any, Any, None]) -> Suspended | None:
    """Run `coro` now, up to the first time it has to wait. None when it finished
    (its exception, if any, is raised here); else what `finish` needs to finish it."""
    try:
        waits_on = coro.send(None)
    except StopIteration:
        return None
    return coro, waits_on


async def finish(coro: Coroutine[Any, Any, None], waits_on: asyncio.Future[Any] | None) -> None:
    """Drive a coroutine that `start` began: wait for what it waits on, resume it, repeat
    (what a Task does). The coroutine reads the outcome of what it waited on itself."""
    try:
        while True:
            if waits_on is None:  # a bare yield (asyncio.sleep(0))
                await asyncio.sleep(0)
            else:
                await asyncio.wait([waits_on])
            try:
                waits_on = coro.send(None)
            except StopIteration:
                return
    except asyncio.CancelledError:
        coro.close()
        raise


class Pipe:
    def __init__(self, socket: _Socket, max_queue: int) -> None:
        self.socket = socket
        self.max_queue = max_queue
        self.pending: list[str] = []
        self.closed = False
        self.close_code: int | None = None
        self._close_with: tuple[int, str] | None = None
        self._task: asyncio.Task[None] | None = None  # finishes a write that had to wait, or the close
        self._suspended: Suspended | None = None  # that write, until the task takes it
        self.on_drop: Callable[[Pipe], None] | None = None  # called when it gives up (1013)
        self.protocol = 1  # what the page's `hello` said it speaks (messages.PROTOCOL)

    def send_many(self, texts: Iterable[str]) -> None:
        if self.closed:
            return
        self.pending.extend(texts)
        if self._task is None:
            self._write_now()
        if len(self.pending) > self.max_queue:  # what the socket could not take yet
            log.info("socket too slow, dropping it")
            self.close(CLOSE_TOO_SLOW, "too far behind: reconnect")
            if self.on_drop is not None:  # its socket loop may be idle: tell the room now
                self.on_drop(self)

    def _write_now(self) -> None:
        try:
            while self.pending:
                suspended = start(self.socket.send_text(self._next_frame()))
                if suspended is not None:  # the socket's buffer is full: go on in a task
                    self._suspended = suspended
                    self._task = asyncio.ensure_future(self._carry_on())
                    return
        except Exception:  # WebSocketDisconnect, or RuntimeError on send-after-close
            self._gone()

    def _next_frame(self) -> str:
        frame, n = take_frame(self.pending)
        del self.pending[:n]
        return frame

    def close(self, code: int, reason: str = "") -> None:
        """Close after nothing else: drops whatever is still waiting."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        self.pending.clear()
        self._close_with = (code, reason)
        if self._task is None:
            self._task = asyncio.ensure_future(self._carry_on())

    def _gone(self) -> None:
        self.closed = True
        self.pending.clear()

    async def _carry_on(self) -> None:
        try:
            suspended, self._suspended = self._suspended, None
            if suspended is not None:
                await finish(*suspended)
            while self.pending and self._close_with is None:
                await self.socket.send_text(self._next_frame())
            if self._close_with is not None:
                await self.socket.close(*self._close_with)
        except asyncio.CancelledError:
            raise
        except Exception:
            self._gone()
        finally:
            if self._task is asyncio.current_task():
                self._task = None

    async def drain_and_stop(self, timeout: float = 1.0) -> None:  # noqa: ASYNC109 (a budget for the close)
        """Let a close we asked for reach the client; a socket that is simply gone has
        nothing left to receive, so its writes stop at once (and a server stop is quick)."""
        task = self._task
        if not self.closed:
            self._gone()
            self._stop(task)
            return
        if task is None:
            return
        try:
            await asyncio.wait_for(asyncio.shield(task), timeout)
        except (TimeoutError, Exception):
            self._stop(task)

    def _stop(self, task: asyncio.Task[None] | None) -> None:
        if task is not None:
            task.cancel()
        if self._suspended is not None:  # its task never started: end the send it held
            self._suspended[0].close()
            self._suspended = None
