"""Per-client budgets and input hygiene at the app's edge (docs/security.md).

* `Budgets`: token buckets per client address for creating rooms, seating bots in
  practice rooms (a bot is a unit), joining, starting Devil's Grip games, and *misses* (an unknown room code, a join to no room, a WebSocket
  token that opens no seat, a Devil's Grip id or token that is not a game). An address
  whose miss budget is spent gets 429 (a socket: close 1008) for every such request,
  right or wrong, until it refills: a right guess must not be told apart from a wrong
  one. Hits cost nothing, so players using their real codes never meet the limit.
* `RoomWatch`: rooms created over HTTP whose seats have not opened a socket yet; past
  `DEMON_UNUSED_ROOM_TTL_S` (a practice room: `DEMON_UNOPENED_PRACTICE_TTL_S`) such a
  room is handed to the hub's idle sweep.
* `BodyGuard`: request bodies over `DEMON_MAX_BODY_BYTES` get 413, and a body that is
  not strict JSON (NaN, Infinity, lone surrogates, invalid UTF-8) 422, before FastAPI's
  lenient `json.loads` lets such values into a handler.
* `validation_error`: a 422 that never echoes a large input back.
* `SocketGate`: the `/ws/{code}` side: sockets per client address and per its /24 or
  /48 (behind a trusted proxy, per forwarded address and prefix), the miss budget for socket tokens, and which rooms
  were opened. A socket to another process's room (app/server/cluster.py `Shards`) is
  closed at once and is no guess.

The client address is `scope["client"]`, which uvicorn's proxy-header middleware has
already replaced by the forwarded one when (and only when) the connection comes from a
trusted proxy (`DEMON_TRUSTED_PROXIES`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Awaitable, Callable

import orjson
from fastapi import HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.config import Settings
from app.demon.hub.hub import Hub
from app.grip.service.limits import KeyedLimiter
from app.server.cluster import Shards
from app.server.guard import Throttled, address_key, prefix_key
from app.support.logfmt import log_event
from app.support.secrets_util import normalise_code

CLOSE_POLICY = 1008
MISSED_TOKEN_REASON = "unknown room or token"  # what app/server/ws.py closes a wrong hello with
MISDIRECTED_REASON = "room held by another process"  # a socket the balancer sent to the wrong process
MAX_ECHO_CHARS = 40  # of an input quoted back in a 422


def scope_address(scope: Scope) -> str:
    client = scope.get("client")
    return address_key(client[0] if client else None)


def request_address(request: Request) -> str:
    return scope_address(request.scope)


class Budgets:
    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        def per_min(rate: float, burst: int) -> KeyedLimiter:
            return KeyedLimiter(rate / 60.0, burst, clock=clock)

        self.rooms = per_min(settings.room_create_per_min, settings.room_create_burst)
        self.joins = per_min(settings.join_per_min, settings.join_burst)
        self.grips = per_min(settings.grip_create_per_min, settings.grip_create_burst)
        self.misses = per_min(settings.miss_per_min, settings.miss_burst)
        self.bots = per_min(settings.bot_create_per_min, settings.bot_create_burst)
        self.refusals = Throttled("over_budget", settings.refusal_log_interval_s)

    def spend(self, limiter: KeyedLimiter, address: str, what: str, cost: int = 1) -> None:
        """`cost` more `what` from `address`, or 429 with Retry-After when its budget is spent."""
        if not limiter.allow(address, cost):
            self.refusals.note(what.replace(" ", "_"), address)
            raise HTTPException(
                429,
                f"Too many {what} from your address: try again in a minute.",
                headers={"Retry-After": str(limiter.retry_after(cost))},
            )

    def check_misses(self, address: str) -> None:
        """429 when this address has guessed wrong too often (hit or miss alike)."""
        if self.misses.exhausted(address):
            self.refusals.note("misses", address)
            raise HTTPException(
                429,
                "Too many unknown codes, tokens or games from your address: try again in a minute.",
                headers={"Retry-After": str(self.misses.retry_after())},
            )

    def miss(self, address: str) -> None:
        self.misses.allow(address)


class RoomWatch:
    """Rooms created over HTTP that no seat has opened a socket to yet."""

    def __init__(self, ttl_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl_s = ttl_s
        self.clock = clock
        self.pending: dict[str, float] = {}

    def created(self, code: str, ttl_s: float | None = None) -> None:
        """A new room; `ttl_s` (shorter than the default) for a practice room, whose bots
        are the server's to pay for."""
        self.pending[code] = self.clock() + (self.ttl_s if ttl_s is None else ttl_s)  # its deadline

    def opened(self, code: str) -> None:
        self.pending.pop(code, None)

    def sweep(self, hub: Hub) -> list[str]:
        """Hand the rooms unused past their TTL to the hub's idle sweep: their last activity
        is set back by the hub's empty-room TTL, so its next tick removes them the way it
        removes any room nobody is connected to (and keeps one a socket has meanwhile
        joined). Returns their codes."""
        now = self.clock()
        expired = [code for code, deadline in self.pending.items() if now >= deadline]
        for code in expired:
            del self.pending[code]
            handle = hub.rooms.get(code)
            if handle is None or handle.pipes:
                continue
            handle.room.last_active = min(handle.room.last_active, hub.clock() - hub.settings.empty_room_ttl_s - 1.0)
            log_event("room_unused", code=code)
        return expired


def _short(value: object) -> bool | int | str | None:
    """An input as a 422 may quote it: a short scalar as it is, anything else abridged."""
    if isinstance(value, bool) or value is None or (isinstance(value, int) and abs(value) < 10**15):
        return value
    text = value if isinstance(value, str) else repr(value)
    text = text.encode("utf-8", "replace").decode("utf-8")
    return text if len(text) <= MAX_ECHO_CHARS else text[:MAX_ECHO_CHARS] + "…"


async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    """FastAPI's 422, minus what can make it huge or unencodable: each error keeps its
    type, location and message, and its input only when short (a 10 MB name used to come
    back whole; a NaN could not be encoded at all, a 500)."""
    errors = []
    for error in exc.errors()[:10]:
        item = {
            "type": error.get("type"),
            "loc": [_short(part) for part in error.get("loc", ())],
            "msg": str(error.get("msg", "invalid"))[:200],
        }
        if "input" in error:
            item["input"] = _short(error["input"])
        errors.append(item)
    return JSONResponse({"detail": errors}, status_code=422)


class BodyGuard:
    """Plain ASGI, in front of the routes: bounds and checks JSON request bodies."""

    METHODS = frozenset({"POST", "PUT", "PATCH"})

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in self.METHODS:
            await self.app(scope, receive, send)
            return
        length = next((v for k, v in scope["headers"] if k == b"content-length"), None)
        if length is not None and (not length.isdigit() or int(length) > self.max_bytes):
            await self._answer(send, 413, f"The request body is over {self.max_bytes} bytes.")
            return
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._answer(send, 413, f"The request body is over {self.max_bytes} bytes.")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body:
            try:
                orjson.loads(body)
            except orjson.JSONDecodeError as err:
                await self._answer(send, 422, f"The body is not valid JSON ({_short(str(err))}).")
                return
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def _answer(send: Send, status: int, detail: str) -> None:
        await JSONResponse({"detail": detail}, status_code=status)({"type": "http"}, _nothing, send)


async def _nothing() -> Message:
    return {"type": "http.disconnect"}


class SocketGate:
    """What `/ws/{code}` passes through before the room's handler (app/server/ws.py)."""

    def __init__(self, settings: Settings, budgets: Budgets, watch: RoomWatch, shards: Shards | None = None) -> None:
        self.shards = shards
        self.max_per_addr = settings.max_connections_per_addr
        self.max_per_prefix = settings.max_connections_per_prefix
        self.budgets = budgets
        self.watch = watch
        self.open: Counter[str] = Counter()
        self.open_per_prefix: Counter[str] = Counter()

    async def __call__(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        code: str,
        handler: Callable[[Scope, Receive, Send, str], Awaitable[None]],
    ) -> None:
        address = scope_address(scope)
        if self.budgets.misses.exhausted(address):
            self.budgets.refusals.note("socket_misses", address)
            return await _refuse(receive, send, "too many unknown codes or tokens")
        room = normalise_code(code)
        if self.shards is not None and room and await self.shards.elsewhere(room[0]):
            return await _refuse(receive, send, MISDIRECTED_REASON)
        if self.open[address] >= self.max_per_addr:
            self.budgets.refusals.note("sockets_per_addr", address)
            return await _refuse(receive, send, "too many connections from your address")
        client = scope.get("client")
        prefix = prefix_key(client[0] if client else None)
        if self.open_per_prefix[prefix] >= self.max_per_prefix:
            self.budgets.refusals.note("sockets_per_prefix", prefix)
            return await _refuse(receive, send, "too many connections from your network")
        sent = False

        def watched_send(message: Message) -> Awaitable[None]:
            # A plain function handing back the server's own awaitable: every frame of a
            # live seat passes here, and a coroutine per frame is what app.py avoids.
            nonlocal sent
            kind = message["type"]
            if kind == "websocket.send":
                if not sent:
                    sent = True  # the first frame after a good hello is the `welcome`
                    self.watch.opened(room)
            elif (
                kind == "websocket.close"
                and message.get("code") == CLOSE_POLICY
                and message.get("reason") == MISSED_TOKEN_REASON
            ):
                self.budgets.miss(address)
            return send(message)

        self.open[address] += 1
        self.open_per_prefix[prefix] += 1
        try:
            await handler(scope, receive, watched_send, code)
        finally:
            for counter, key in ((self.open, address), (self.open_per_prefix, prefix)):
                counter[key] -= 1
                if counter[key] <= 0:
                    del counter[key]


async def _refuse(receive: Receive, send: Send, reason: str) -> None:
    """Accept, then close with 1008 and a reason (a refused handshake would tell a
    browser nothing)."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": CLOSE_POLICY, "reason": reason})
