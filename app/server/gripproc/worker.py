"""The Devil's Grip worker: `python -m app.server.gripproc FD` (`__main__.py`), started by the
server (`relay.py`) with one end of a socketpair as file descriptor FD.

It reads the server's settings from the first frame, opens its own connection to the
server's SQLite file (WAL: one writer at a time, each waiting its turn, docs/architecture.md),
builds the Devil's Grip service (`parts.py`) and a FastAPI app with the same router the
server would otherwise serve (`app/server/grip_http.py`), says "ready", then answers
every request frame as an ASGI request to that app, several at once. The rooms' process
has already applied what sits in front of every route there (the connection guard, the
body's size and JSON checks, the security headers): the worker runs what used to run on
the rooms' loop behind them (routing, validation, the game, the hint's wait, encoding).

It ends when the server closes its end of the socket (a stop, or the server dying),
so a killed server leaves no worker behind. It starts at the server's priority (at nice 5
the first hint after start-up, the search pool's cold start, missed its deadline on a
loaded test machine) and lowers it to nice `SERVING_NICE` once warm, just before "ready":
with 10 hint-following clients on a 2-core machine, Demon's open-loop p99 was 2.5x the run
without them at the server's priority and 1.6x at nice 5 (nice 10: the same), with hints'
p99 still 200-230 ms (bench/results/2026-12-03-grip-worker-process.md). The searches themselves run at the
lowest priority, as before (app/grip/service/advisor.py).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import sys
from typing import Any

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.types import Message

from app.config import Settings
from app.ops import instruments, jsonlog
from app.server import grip_http
from app.server.gripproc import frames
from app.server.gripproc.parts import GripParts
from app.server.limits import Budgets, validation_error
from app.storage.store import Store

log = logging.getLogger("demon.grip_worker")
WAL_CHECK_S = 0.1  # how often the WAL's size is looked at (one stat)
WARM_TIMEOUT_S = 30.0  # the search pools' start, before "ready" (parts.py)
SERVING_NICE = 5  # the worker's niceness once warm (see the module docstring)
_ERROR = (500, [(b"content-type", b"application/json")], b'{"detail":"Internal Server Error"}')


def grip_app(settings: Settings, parts: GripParts) -> FastAPI:
    """The Devil's Grip routes alone, with the state they read (app/server/deps.py)."""
    app = FastAPI(title="Devil's Grip worker", openapi_url=None, docs_url=None, redoc_url=None)
    app.state.settings = settings
    app.state.budgets = Budgets(settings)
    parts.install(app.state)
    # Registered for RequestValidationError only, so that is all it is ever given.
    app.add_exception_handler(RequestValidationError, validation_error)  # type: ignore[arg-type]
    app.include_router(grip_http.router)
    return app


async def answer(app: FastAPI, meta: dict[str, Any], body: bytes) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """One request, as the server relayed it, answered by `app`: status, headers, body."""
    jsonlog.REQUEST_ID.set(meta.get("request_id") or jsonlog.new_request_id())
    client = meta.get("client")
    scope: dict[str, Any] = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": meta.get("http_version", "1.1"),
        "method": meta["method"],
        "scheme": meta.get("scheme", "http"),
        "path": meta["path"],
        "raw_path": meta["raw_path"].encode("latin-1"),
        "root_path": "",
        "query_string": meta.get("query", "").encode("latin-1"),
        "headers": frames.headers_in(meta["headers"]),
        "client": tuple(client) if client else None,
        "server": tuple(meta["server"]) if meta.get("server") else None,
    }
    start: dict[str, Any] = {}
    chunks: list[bytes] = []
    finished = asyncio.Event()
    delivered = False

    async def receive() -> Message:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        await finished.wait()  # as a live connection would: no disconnect before the answer
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            start.update(message)
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                finished.set()

    try:
        await app(scope, receive, send)
    except Exception:  # FastAPI has answered 500 (and logged) if it could; never end the worker
        log.exception("a Devil's Grip request failed")
        if not start:
            return _ERROR
    finally:
        finished.set()
    return start["status"], list(start.get("headers", [])), b"".join(chunks)


def metrics_snapshot(parts: GripParts) -> dict[str, Any]:
    """The process's instruments (the Devil's Grip ones and its CPU and memory) and the
    service's state, for the server's /metrics (relay.py turns them back into families)."""
    families = [
        {
            "name": f.name,
            "doc": f.documentation,
            "type": f.type,
            "samples": [[s.name, s.labels, s.value] for s in f.samples],
        }
        for f in instruments.REGISTRY.collect()
        if f.name.startswith("devils_grip") or f.name.startswith("process")
    ]
    return {"kind": "metrics", "families": families, "figures": list(parts.figures())}


async def _prune(parts: GripParts) -> None:
    while True:
        await asyncio.sleep(parts.prune_every_s)
        try:
            parts.prune()
        except Exception:  # a failed prune must not end the pruning
            log.exception("pruning Devil's Grip games failed")


async def _keep_wal(store: Store) -> None:
    """The WAL's bound with two writing processes. The server's hub checkpoints the file
    every few seconds and as soon as the WAL passes a quarter of its limit, and catches
    up on its own connection, where "nothing is written meanwhile" held while it was the
    only writer; a flood of Devil's Grip writes from here kept its checkpoints from ever
    catching up (tests/persistence/test_wal_limit.py: the WAL passed its limit). So this
    process does the same for its own writes: past a quarter of the limit, a checkpoint
    in a thread, then the rest on its writing connection, its loop (not the rooms')
    waiting meanwhile."""
    while True:
        await asyncio.sleep(WAL_CHECK_S)
        try:
            if store.wal_wants_checkpoint():
                await asyncio.to_thread(store.checkpoint)
                if store.wal_wants_checkpoint():
                    store.finish_checkpoint()
        except Exception:  # a failed checkpoint is tried again at the next look
            log.exception("checkpoint failed")


async def serve(sock: socket.socket) -> None:
    reader, writer = await asyncio.open_unix_connection(sock=sock)
    _, meta, _ = await frames.read(reader)
    settings = Settings.model_validate(meta["settings"])
    jsonlog.configure(settings.log_level, settings.shard, as_json=settings.log_format == "json")
    # The server checked the file's integrity a moment ago (a scan of the whole file).
    store = (
        Store.open(settings.data_dir, wal_limit_bytes=int(settings.wal_limit_mb * 1024 * 1024), check=False)
        if settings.persist
        else None
    )
    parts = GripParts.build(settings, store)
    app = grip_app(settings, parts)
    await parts.start()
    await parts.warmed(WARM_TIMEOUT_S)
    os.nice(SERVING_NICE)  # warm: from now on the rooms' process comes first on a busy machine
    pruning = asyncio.create_task(_prune(parts))
    checkpoints = asyncio.create_task(_keep_wal(store)) if store is not None else None
    writer.write(frames.pack(0, {"kind": "ready", "pid": os.getpid()}))
    requests: set[asyncio.Task[None]] = set()

    async def reply(number: int, meta: dict[str, Any], body: bytes) -> None:
        status, headers, content = await answer(app, meta, body)
        writer.write(frames.pack(number, {"status": status, "headers": frames.headers_out(headers)}, content))
        await writer.drain()

    try:
        while True:
            try:
                number, meta, body = await frames.read(reader)
            except (asyncio.IncompleteReadError, ConnectionError, frames.FrameError):
                break  # the server is gone, or stopping
            if number == 0:
                if meta.get("kind") == "metrics":
                    writer.write(frames.pack(0, metrics_snapshot(parts)))
                continue
            task = asyncio.create_task(reply(number, meta, body))
            requests.add(task)
            task.add_done_callback(requests.discard)
    finally:
        pruning.cancel()
        if checkpoints is not None:
            checkpoints.cancel()
        for task in list(requests):
            task.cancel()
        await parts.stop()
        if store is not None:
            store.close()
        writer.close()


def main() -> None:
    # Ctrl-C reaches the whole process group: the server stops the worker itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sock = socket.socket(fileno=int(sys.argv[1]))
    asyncio.run(serve(sock))


if __name__ == "__main__":
    main()
