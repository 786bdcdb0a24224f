"""The ASGI application: routers, static files, security headers and the lifespan.

`create_app(settings)` builds a fresh app (tests use it with their own settings); uvicorn
runs it with `--factory` or through `python -m app`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import app as app_pkg
from app.config import Settings
from app.daily.secret import daily_secret
from app.demon.hub.hub import Hub
from app.ops import jsonlog
from app.server import (
    cluster,
    daily_http,
    grip_http,
    invite_http,
    metrics_http,
    replays_http,
    rooms_http,
    static_assets,
    ws,
)
from app.server.gripproc.parts import GripParts
from app.server.gripproc.relay import GripRelay, RelayGrip
from app.server.guard import ForwardedFor
from app.server.limits import BodyGuard, Budgets, RoomWatch, SocketGate, validation_error
from app.server.loop import choice as loop_choice
from app.server.loop.collector import Collector
from app.server.loop.watch import LoopWatch
from app.server.tables import http as tables_http
from app.server.tables.snapshot import TablesSnapshot
from app.storage.store import PRUNE_BATCH, Store

PROJECT_ROOT = Path(app_pkg.__file__).resolve().parent.parent
STATIC_DIR = PROJECT_ROOT / "static"

# No inline script or style anywhere in static/, so the policy can be this strict; the
# pages' one inline script (the theme before the first paint) is allowed by its hash.
CSP = (
    f"default-src 'self'; script-src 'self' {static_assets.BOOT_SCRIPT_HASH}; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; media-src 'self' data: blob:; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'"
)


class SecurityHeaders:
    """Adds the security headers (and `X-Request-ID`) to every HTTP answer, as plain ASGI: it only edits the
    `http.response.start` message. `@app.middleware("http")` did the same through
    Starlette's BaseHTTPMiddleware, which streams every answer through a task group; on
    the event loop every room shares, `/health` cost the server 1.4-2.4 ms of CPU with it
    and 0.6-1.7 ms with this (a loaded 2-core machine;
    bench/results/2026-12-01-grip-hints-on-server.md)."""

    HEADERS = [  # noqa: RUF012 (read, never changed)
        (b"content-security-policy", CSP.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
    ]
    NAMES = frozenset(name for name, _ in HEADERS)

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() not in self.NAMES]
                request_id = jsonlog.REQUEST_ID.get()
                extra = [(b"x-request-id", request_id.encode())] if request_id is not None else []
                message = {**message, "headers": headers + self.HEADERS + extra}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class DemonApp(FastAPI):
    """FastAPI, with the room sockets (`/ws/{code}`) taken straight to their endpoint.

    Nothing in the HTTP stack applies to them (the middleware here only sets response
    headers; routing is one prefix), and it is not free: a socket's handler is resumed
    once per message it receives, through every layer it was called through, so each
    layer of middleware and routing costs every message of every seat (about 10 µs of
    a 170 µs move under load; docs/performance.md). Other socket paths still go through
    the router (and are refused there)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            # The client's address behind trusted proxies, before anything reads it.
            self.state.forwarded.apply(scope)
            # Every log line written while serving this request or socket names it
            # (app/ops/jsonlog.py); one id per socket, not per message.
            jsonlog.REQUEST_ID.set(jsonlog.new_request_id(_header(scope, b"x-request-id")))
        if scope["type"] == "websocket":
            code = ws.socket_room_code(scope)
            if code is not None:
                scope["app"] = self
                await self.state.socket_gate(scope, receive, send, code, ws.room_socket)
                return
        await super().__call__(scope, receive, send)


def _header(scope: Scope, name: bytes) -> bytes | None:
    return next((value for key, value in scope.get("headers", ()) if key == name), None)


def create_app(settings: Settings | None = None, *, on_loop: Callable[[str], None] | None = None) -> FastAPI:
    """The app. `on_loop`, if given, is told at start-up which event loop runs it
    (`python -m app` prints it as a start-up line: app/server/loop/choice.py)."""
    settings = settings or Settings()
    jsonlog.configure(settings.log_level, settings.shard, as_json=settings.log_format == "json")
    store = (
        Store.open(settings.data_dir, wal_limit_bytes=int(settings.wal_limit_mb * 1024 * 1024))
        if settings.persist
        else None
    )
    hub = Hub(settings, store)
    budgets = Budgets(settings)
    room_watch = RoomWatch(settings.unused_room_ttl_s)
    # Devil's Grip's API: in a worker process of its own (the default; app/server/gripproc),
    # or here, on the rooms' loop, with DEMON_GRIP_WORKER=false.
    grip: GripRelay | GripParts = GripRelay(settings) if settings.grip_worker else GripParts.build(settings, store)

    def prune_replays() -> None:
        """Forget finished rounds' replays and the daily race's entries past their time
        (Devil's Grip games are pruned by whoever holds them: `GripParts.prune`)."""
        if store is not None:
            while (
                store.demon.expire_replays(settings.replay_expiry_days * 86400, settings.replay_max_stored)
                >= PRUNE_BATCH
            ):
                pass

    async def maintain() -> None:
        """Once a second, rooms nobody opened go to the hub's sweep; now and then, replays,
        daily entries and (when they are kept here) old Devil's Grip games are pruned (a few
        milliseconds, on the loop, in batches)."""
        every = max(1.0, min(60.0, settings.grip_unplayed_ttl_s / 2))
        last_prune = time.monotonic()
        while True:
            await asyncio.sleep(1.0)
            try:
                room_watch.sweep(hub)
                if time.monotonic() - last_prune >= every:
                    last_prune = time.monotonic()
                    prune_replays()
                    if isinstance(grip, GripParts):
                        grip.prune()
            except Exception:  # a failed sweep must not end the sweeping
                logging.getLogger("demon.app").exception("maintenance failed")

    prune_replays()  # at creation too: a server restarted after weeks away starts clean
    collector = Collector(busy=hub.racing)
    loop_watch = LoopWatch()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await grip.start()  # a worker process starts in the background (its first requests wait for it)
        await hub.start()
        app.state.drain.install_signals()
        # Every collection stops every room at once: what start-up built (modules,
        # restored rooms) leaves the collector's view, and so, a tenth of a second
        # later, does whatever survives (app/server/loop/collector.py says why).
        collector.start()
        loop_watch.start()
        if on_loop is not None:
            on_loop(loop_choice.running())
        maintenance = asyncio.create_task(maintain())
        yield
        maintenance.cancel()
        loop_watch.stop()
        collector.stop()
        await grip.stop()
        await hub.stop()
        if store is not None:
            store.close()

    app = DemonApp(title="Demon & Devil's Grip", version=app_pkg.__version__, lifespan=lifespan)
    app.state.settings = settings
    app.state.hub = hub
    app.state.store = store  # None without persistence
    app.state.grip_relay = grip if isinstance(grip, GripRelay) else None
    if isinstance(grip, GripParts):
        grip.install(app.state)
    app.state.collector = collector
    app.state.loop_watch = loop_watch
    app.state.budgets = budgets
    app.state.room_watch = room_watch
    peers = cluster.Peers(settings.peer_list, settings.peer_timeout_s)
    shards = cluster.Shards(settings.shard, peers)
    app.state.socket_gate = SocketGate(settings, budgets, room_watch, shards)
    app.state.forwarded = ForwardedFor(settings.trusted_proxy_list)
    app.state.started = time.monotonic()
    app.state.drain = cluster.Drain()
    app.state.peers = peers
    # The daily race's key (app/daily/secret.py): refuses to start a cluster without a shared one.
    app.state.daily_secret = (
        daily_secret(settings.daily_secret, settings.data_dir, clustered=bool(settings.peer_list))
        if store is not None
        else None
    )
    app.state.tables = TablesSnapshot(hub, peers, settings.shard, settings.open_tables)
    # A play-now lobby's bots are paid for by the address that opened it (docs/security.md).
    hub.open_tables.charge = lambda address, bots: budgets.bots.allow(address, bots)
    metrics_http.install(app.state, hub, grip, store, settings.shard, settings.metrics_allow)

    # Starlette types every handler as taking any Exception; this one is registered for
    # RequestValidationError, so that is all it is ever given.
    app.add_exception_handler(RequestValidationError, validation_error)  # type: ignore[arg-type]
    if isinstance(grip, GripRelay):  # innermost: behind the body checks and the headers, like the routes
        app.add_middleware(RelayGrip, relay=grip)
    # Another process's room, game or replay: answered before the Devil's Grip relay and the routes.
    app.add_middleware(cluster.ShardGate, shards=shards)
    app.add_middleware(BodyGuard, max_bytes=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders)

    app.include_router(cluster.router)  # /health, /health/accepting, /health/all, /api/history
    app.include_router(rooms_http.router)
    app.include_router(grip_http.router)  # answered by the worker (RelayGrip) when there is one; /docs either way
    app.include_router(invite_http.router)
    app.include_router(replays_http.router)  # /api/replays: finished rounds watched again
    app.include_router(daily_http.router)  # /api/daily: the daily race
    app.include_router(tables_http.router)  # /api/tables, /api/play-now: open tables
    app.include_router(metrics_http.router)  # /metrics, to the allowed addresses only

    static_assets.install(app, static_assets.StaticShell(STATIC_DIR))
    return app
