"""One outgoing pipe per socket: a bounded queue drained by a single sender task.

A broadcast only does `put_nowait` on each pipe, so it never awaits anybody's network
(the `websockets` broadcast guide's advice). A client whose queue fills up is too far
behind to be worth waiting for: its pipe closes it with 1013 and it resyncs when it
reconnects. The socket object only needs `send_text` and `close(code, reason)`, which
Starlette's WebSocket has.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Protocol

log = logging.getLogger("demon.connection")

CLOSE_TOO_SLOW = 1013


class _Socket(Protocol):
    async def send_text(self, data: str) -> None: ...
    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Pipe:
    def __init__(self, socket: _Socket, max_queue: int) -> None:
        self.socket = socket
        self.queue: asyncio.Queue[Any] = asyncio.Queue(max_queue)
        self.closed = False
        self.close_code: int | None = None
        self.task = asyncio.create_task(self._run())

    def send(self, text: str) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            log.info("socket too slow, dropping it")
            self.close(CLOSE_TOO_SLOW, "too far behind: reconnect")

    def close(self, code: int, reason: str = "") -> None:
        """Close after nothing else: drops whatever is still queued."""
        if self.closed:
            return
        self.closed = True
        self.close_code = code
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait((code, reason))

    async def _run(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, tuple):
                    await self.socket.close(item[0], item[1])
                    return
                await self.socket.send_text(item)
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
