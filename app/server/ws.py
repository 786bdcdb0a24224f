"""The WebSocket endpoint: one socket per seat, authenticated by its first frame.

This layer only enforces the transport's rules (origin, hello, frame size, rate, JSON
shape) and hands validated messages to the hub. The token travels in the first frame,
not in the URL, so it never reaches an access log.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, cast
from urllib.parse import urlsplit

from pydantic import ValidationError
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from app.config import Settings
from app.demon.hub.connection import CLOSE_OUTDATED, OUTDATED_REASON, Pipe
from app.demon.hub.hub import CLOSE_POLICY, Hub
from app.protocol import messages as m
from app.protocol import server as out
from app.protocol.fast_action import read_client_message
from app.server.guard import ADMISSION
from app.support.logfmt import log_event
from app.support.rate import RateLimiter
from app.support.secrets_util import normalise_code

CLOSE_TOO_BIG = 1009
CLOSE_TRY_LATER = 1013
SOCKET_PREFIX = "/ws/"


def socket_room_code(scope: Scope) -> str | None:
    """The room code of a socket scope for `/ws/{code}` (behind the app's root path,
    if any), or None for any other path."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if root and path.startswith(root):
        path = path[len(root) :]
    if path.startswith(SOCKET_PREFIX):
        code = path[len(SOCKET_PREFIX) :]
        if code and "/" not in code:
            return code
    return None


def origin_allowed(origin: str | None, host: str | None, settings: Settings) -> bool:
    """Same origin by default, plus the configured allow-list. Non-browser clients send
    no Origin at all; they are not the cross-site threat this check exists for."""
    if origin is None:
        return True
    origin = origin.rstrip("/")
    if origin in settings.origin_allow_list:
        return True
    if not host:
        return False
    return urlsplit(origin).netloc.lower() == host.lower()


def explain(error: ValidationError) -> str:
    """The first problem pydantic found, as `field.path: what is wrong`."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first.get("loc", ()))
    message = first.get("msg", "invalid message")
    return f"{where}: {message}" if where else message


def _claim_established_place(scope: Scope) -> bool:
    """Whether the connection guard (app/server/guard.py) has a place left for one more
    authenticated socket; without the guard (an app run by another server) there is no
    such cap."""
    admission = scope.get("extensions", {}).get(ADMISSION)
    return admission is None or bool(admission["establish"]())


async def _refuse(websocket: WebSocket, code: int, reason: str) -> None:
    log_event("socket_refused", reason=reason)
    await websocket.close(code, reason)


class _Frames:
    """What a seat's `Pipe` writes to. Text frames go straight to the server's ASGI
    `send`: Starlette's `send_text` would wrap each one in two more coroutines and its
    state checks, on the path every broadcast takes (docs/performance.md). A close goes
    through Starlette's WebSocket (after a disconnect it has not seen, that close fails,
    and the pipe takes the socket as gone)."""

    __slots__ = ("_send", "close")

    def __init__(self, websocket: WebSocket, send: Send) -> None:
        self._send = send
        self.close = websocket.close

    def send_text(self, text: str) -> Coroutine[Any, Any, None]:
        # The ASGI server's `send` is an async function, so its call is a coroutine,
        # which the pipe runs by hand (connection.start); ASGI only promises an awaitable.
        return cast(Coroutine[Any, Any, None], self._send({"type": "websocket.send", "text": text}))


async def room_socket(scope: Scope, receive: Receive, send: Send, code: str) -> None:
    """One seat's socket, from the handshake to the end. Starlette's WebSocket does the
    handshake and the `hello`; once the seat is live, messages are read from the ASGI
    `receive` itself, for the same reason `_Frames` writes to `send`."""
    websocket = WebSocket(scope, receive, send)
    settings: Settings = websocket.app.state.settings
    hub: Hub = websocket.app.state.hub
    await websocket.accept()
    if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"), settings):
        return await _refuse(websocket, CLOSE_POLICY, "origin not allowed")
    try:
        first = await asyncio.wait_for(websocket.receive_text(), settings.hello_timeout_s)
    except (TimeoutError, KeyError):  # KeyError: a binary frame has no text
        return await _refuse(websocket, CLOSE_POLICY, "hello expected")
    except (WebSocketDisconnect, RuntimeError):
        return
    if len(first.encode()) > settings.max_frame_bytes:
        return await _refuse(websocket, CLOSE_TOO_BIG, "frame too large")
    try:
        hello = m.client_message.validate_json(first)
    except ValidationError:
        hello = None
    if not isinstance(hello, m.Hello):
        return await _refuse(websocket, CLOSE_POLICY, "hello expected")
    handle = hub.rooms.get(normalise_code(code))
    player = handle.room.seating.by_token(hello.token) if handle else None
    if handle is None or player is None or player.left:
        return await _refuse(websocket, CLOSE_POLICY, "unknown room or token")
    protocol = hello.protocol or 1
    if protocol < handle.room.options.protocol:
        return await _refuse(websocket, CLOSE_OUTDATED, OUTDATED_REASON)
    if not _claim_established_place(scope):
        return await _refuse(websocket, CLOSE_TRY_LATER, "server full: try again later")

    pipe = Pipe(_Frames(websocket, send), settings.send_queue)
    pipe.protocol = protocol
    limiter = RateLimiter(settings.rate_per_s, settings.rate_burst)
    attached = False
    try:
        attached = hub.attach(handle, player, pipe, hello.v, hello.epoch)
        if not attached:
            pipe.close(CLOSE_POLICY, "unknown room or token")
        while not pipe.closed:
            frame = await receive()
            if frame["type"] != "websocket.receive":  # websocket.disconnect
                break
            text = frame.get("text")
            if text is None:
                hub.reply(pipe, out.error("invalid", "Send JSON text frames."))
                continue
            if len(text.encode()) > settings.max_frame_bytes:
                pipe.close(CLOSE_TOO_BIG, "frame too large")
                log_event("socket_closed", code=handle.room.code, player=player.id, reason="frame too large")
                break
            if not limiter.allow():
                pipe.close(CLOSE_POLICY, "too many messages")
                log_event("socket_closed", code=handle.room.code, player=player.id, reason="flood")
                break
            try:
                msg = read_client_message(handle.room.options.rules.client_messages, text)
            except ValidationError as err:
                hub.reply(pipe, out.error("invalid", explain(err)))
                log_event("input_rejected", code=handle.room.code, player=player.id, reason="invalid")
                continue
            if isinstance(msg, m.Hello):
                hub.reply(pipe, out.error("invalid", "Already authenticated."))
                continue
            hub.handle_message(handle, player, pipe, msg)
            if isinstance(msg, m.Leave):
                break
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        if attached:
            hub.detach(handle, player, pipe)
        await pipe.drain_and_stop()
