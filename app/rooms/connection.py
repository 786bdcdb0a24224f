"""One outgoing pipe per socket: a bounded list of messages drained by a single sender task.

A broadcast only appends to each pipe, so it never awaits anybody's network (the
`websockets` broadcast guide's advice). A client whose backlog passes `max_queue`
messages is too far behind to be worth waiting for: its pipe closes it with 1013 and it
resyncs when it reconnects. The socket object only needs `send_text` and
`close(code, reason)`, which Starlette's WebSocket has.

Whatever is waiting when the sender runs leaves as one text frame, the messages one per
line (docs/protocol.md): a frame costs the server far more than its bytes do, so a busy
room's events reach each socket in one write instead of one write each.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Iterable, Protocol

log = logging.getLogger("demon.connection")

CLOSE_TOO_SLOW = 1013
MAX_FRAME_CHARS = 64 * 1024  # a longer backlog leaves as several frames


class _Socket(Protocol):
    async def send_text(self, data: str) -> None: ...
    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


def take_frame(pending: list[str], limit: int = MAX_FRAME_CHARS) -> tuple[str, int]:
    """The first messages of `pending` that fit in `limit` characters (at least one),
    joined one per line, and how many were taken."""
    size, n = len(pending[0]), 1
    while n < len(pending) and size + 1 + len(pending[n]) <= limit:
        size += 1 + len(pending[n])
        n += 1
    return (pending[0] if n == 1 else "\n".join(pending[:n])), n


class Pipe:
    def __init__(self, socket: _Socket, max_queue: int) -> None:
        self.socket = socket
        self.max_queue = max_queue
        self.pending: list[str] = []
        self.closed = False
        self.close_code: int | None = None
        self._close_with: tuple[int, str] | None = None
        self._wake = asyncio.Event()
        self.task = asyncio.create_task(self._run())

    def send(self, text: str) -> None:
        self.send_many((text,))

    def send_many(self, texts: Iterable[str]) -> None:
        if self.closed:
            return
        self.pending.extend(texts)
        if len(self.pending) > self.max_queue:
            log.info("socket too slow, dropping it")
            self.close(CLOSE_TOO_SLOW, "too far behind: reconnect")
            return
        self._wake.set()

    def close(self, code: int, reason: str = "") -> None:
        """Close after nothing else: drops whatever is still waiting."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        self.pending.clear()
        self._close_with = (code, reason)
        self._wake.set()

    async def _run(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self.pending and self._close_with is None:
                    frame, n = take_frame(self.pending)
                    del self.pending[:n]
                    await self.socket.send_text(frame)
                if self._close_with is not None:
                    await self.socket.close(*self._close_with)
                    return
        except asyncio.CancelledError:
            raise
        except Exception:  # WebSocketDisconnect, or RuntimeError on send-after-close
            self.closed = True

    async def drain_and_stop(self, timeout: float = 1.0) -> None:
        """Let a close we asked for reach the client; a socket that is simply gone has
        nothing left to receive, so its sender stops at once (and a server stop is quick)."""
        if not self.closed:
            self.closed = True
            self.task.cancel()
            return
        try:
            await asyncio.wait_for(asyncio.shield(self.task), timeout)
        except (asyncio.TimeoutError, Exception):
            self.task.cancel()


class RateLimiter:
    """Token bucket: `rate` messages per second sustained, `burst` at once."""

    def __init__(self, rate: float, burst: int, clock=time.monotonic) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.clock = clock
        self.last = clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
