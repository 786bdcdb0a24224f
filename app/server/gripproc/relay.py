"""The server's side of the Devil's Grip worker: start it, watch it, restart it, and relay
`/api/grip` requests to it (docs/architecture.md, "Devil's Grip in a worker process").

What the rooms' loop still does for a Devil's Grip request: uvicorn's HTTP parsing, the
connection guard, the middleware in front of every route (security headers, the body's
size and JSON checks), then one frame written to the worker and one read back. Routing,
validation, the game, the hint's wait and the answer's encoding happen in the worker.

* **Start and stop** with the server's lifespan: the worker is started first, in the
  background; the server does not wait for it (Demon is served as soon as the rooms
  are restored: at load 40 a second interpreter's imports took 10 s more), and a
  Devil's Grip request that arrives before the worker's first "ready" waits for it (at
  most `DEMON_GRIP_WORKER_TIMEOUT_S`) instead of being refused; at shutdown the socket is closed, the worker stops its
  search pools and closes its database, and is killed if it has not within `STOP_S`. A
  worker still starting (importing, not yet "ready": a stop in the first seconds after a
  start) holds nothing to save and is ended at once (SIGTERM), so that a stop never waits
  for a start: the whole stop fits in Docker's grace period.
* **Restarts.** A worker that dies (killed, out of memory, a crash) is started again
  after `RESTART_S`, doubling up to `MAX_RESTART_S` while it keeps dying young. Its
  requests in flight and every request until it is back are answered at once with 503
  and a Retry-After; none waits. Games are in SQLite: a restarted worker reloads them on
  their next request.
* **A stuck worker** (alive, answering nothing) costs a request at most
  `DEMON_GRIP_WORKER_TIMEOUT_S`, then a 503.
* **Metrics.** `/metrics` asks the worker for its Devil's Grip instruments, state and
  process figures (`refresh_metrics`), so a scrape still counts every Devil's Grip request
  (`metric_families`).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import math
import socket
import sys
import time
from collections.abc import Iterable
from typing import Any

import orjson
from prometheus_client import Metric
from starlette.types import ASGIApp, Receive, Scope, Send

from app.config import Settings
from app.ops import jsonlog
from app.server.gripproc import frames
from app.server.gripproc.parts import GripFigures
from app.support.logfmt import log_event

log = logging.getLogger("demon.grip_relay")

PREFIX = "/api/grip"
START_TIMEOUT_S = 60.0  # a cold interpreter on a loaded 2-core machine takes seconds
STOP_S = 4.0  # with uvicorn's 3 s for open connections, well inside a 10 s stop_grace_period
RESTART_S = 1.0
MAX_RESTART_S = 10.0
YOUNG_S = 30.0  # a worker that dies younger than this is restarted more slowly each time
METRICS_TIMEOUT_S = 2.0


class WorkerGone(Exception):
    """The worker died (or was stopped) before it answered."""


def is_grip_path(path: str) -> bool:
    return path == PREFIX or path.startswith(PREFIX + "/")


class GripRelay:
    """One worker process and the requests waiting for it."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.timeout_s = settings.grip_worker_timeout_s
        self.pid: int | None = None
        self.starts = 0
        self._process: asyncio.subprocess.Process | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._pending: dict[int, asyncio.Future[tuple[dict[str, Any], bytes]]] = {}
        self._numbers = itertools.count(1)
        self._control: asyncio.Future[dict[str, Any]] | None = None
        self._control_lock = asyncio.Lock()
        self._up = asyncio.Event()
        self._stopping = False
        self._next_start = 0.0
        self._supervisor: asyncio.Task[None] | None = None
        self.snapshot: dict[str, Any] | None = None  # the worker's metrics at the last scrape

    @property
    def state(self) -> str:
        """For /health: "ready", "starting" (requests wait for it) or "restarting" (503)."""
        if self._writer is not None:
            return "ready"
        return "restarting" if self._up.is_set() else "starting"

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Start the worker in the background: the server serves Demon at once, and the
        first Devil's Grip requests wait for the worker's first "ready" (`__call__`)."""
        self._supervisor = asyncio.create_task(self._supervise())

    async def stop(self) -> None:
        self._stopping = True
        process = self._process
        if self._writer is not None:
            self._writer.close()  # the worker reads the end of the stream and stops
        elif process is not None and process.returncode is None:
            process.terminate()  # still starting: nothing of its own to save yet
        if process is not None and process.returncode is None:
            try:
                await asyncio.wait_for(process.wait(), STOP_S)
            except TimeoutError:
                process.kill()
                await process.wait()
        if self._supervisor is not None:
            self._supervisor.cancel()
            try:
                await self._supervisor
            except asyncio.CancelledError:
                pass

    async def _supervise(self) -> None:
        delay = RESTART_S
        while True:
            born = time.monotonic()
            try:
                await self._run_once()
            except Exception:
                log.exception("the Devil's Grip worker failed")
            self._down()
            if self._stopping:
                return
            delay = RESTART_S if time.monotonic() - born > YOUNG_S else min(delay * 2, MAX_RESTART_S)
            self._next_start = time.monotonic() + delay
            log_event("grip_worker_restart", in_s=delay)
            await asyncio.sleep(delay)

    async def _run_once(self) -> None:
        ours, theirs = socket.socketpair()
        try:
            self._process = process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "app.server.gripproc", str(theirs.fileno()), pass_fds=(theirs.fileno(),)
            )
        finally:
            theirs.close()
        self.starts += 1
        try:
            reader, writer = await asyncio.open_unix_connection(sock=ours)
            writer.write(frames.pack(0, {"kind": "settings", "settings": self.settings.model_dump(mode="json")}))
            _, hello, _ = await asyncio.wait_for(frames.read(reader), START_TIMEOUT_S)
            self.pid = int(hello.get("pid", process.pid))
            self._writer = writer
            self._up.set()
            log_event("grip_worker_ready", pid=self.pid, start=self.starts)
            await self._read_answers(reader)
        except (TimeoutError, asyncio.IncompleteReadError, ConnectionError, frames.FrameError) as err:
            if not self._stopping:
                log_event("grip_worker_lost", error=type(err).__name__)
        finally:
            self._down()
            if process.returncode is None and not self._stopping:
                process.kill()  # its stream ended or broke: no half-alive worker is kept
            code = await process.wait()
            if not self._stopping:
                log.warning("the Devil's Grip worker (pid %s) ended with code %s", process.pid, code)

    async def _read_answers(self, reader: asyncio.StreamReader) -> None:
        while True:
            number, meta, body = await frames.read(reader)
            if number == 0:
                if self._control is not None and not self._control.done():
                    self._control.set_result(meta)
                continue
            waiting = self._pending.pop(number, None)
            if waiting is not None and not waiting.done():
                waiting.set_result((meta, body))

    def _down(self) -> None:
        """Every request waiting for the worker is answered 503 now."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        pending, self._pending = self._pending, {}
        for waiting in pending.values():
            if not waiting.done():
                waiting.set_exception(WorkerGone())
        if self._control is not None and not self._control.done():
            self._control.set_exception(WorkerGone())

    # ------------------------------------------------------------------ requests

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Relay one `/api/grip` request; answer 503 when the worker cannot."""
        body = await _read_body(receive)
        if body is None:
            return  # the client went away
        if self._writer is None and not self._up.is_set():  # the first start: wait for it, not a restart
            try:
                await asyncio.wait_for(self._up.wait(), self.timeout_s)
            except TimeoutError:
                pass
        writer = self._writer
        if writer is None:
            await self._unavailable(send, "Devil's Grip is restarting: try again in a moment.")
            return
        number = next(self._numbers)
        loop = asyncio.get_running_loop()
        waiting: asyncio.Future[tuple[dict[str, Any], bytes]] = loop.create_future()
        self._pending[number] = waiting
        client, server = scope.get("client"), scope.get("server")
        meta = {
            "method": scope["method"],
            "path": scope["path"],
            "raw_path": (scope.get("raw_path") or scope["path"].encode()).decode("latin-1"),
            "query": scope.get("query_string", b"").decode("latin-1"),
            "headers": frames.headers_out(scope["headers"]),
            "client": list(client) if client else None,
            "server": list(server) if server else None,
            "scheme": scope.get("scheme", "http"),
            "http_version": scope.get("http_version", "1.1"),
            "request_id": jsonlog.REQUEST_ID.get(),
        }
        timer = loop.call_later(self.timeout_s, _expire, waiting)
        try:
            writer.write(frames.pack(number, meta, body))
            answer, content = await waiting
        except WorkerGone:
            await self._unavailable(send, "Devil's Grip is restarting: try again in a moment.")
            return
        except TimeoutError:
            log_event("grip_worker_slow", timeout_s=self.timeout_s, path=scope["path"])
            await self._unavailable(send, "Devil's Grip did not answer in time: try again in a moment.")
            return
        finally:
            timer.cancel()
            self._pending.pop(number, None)
        await send(
            {"type": "http.response.start", "status": answer["status"], "headers": frames.headers_in(answer["headers"])}
        )
        await send({"type": "http.response.body", "body": content})

    def retry_after_s(self) -> int:
        return max(1, math.ceil(self._next_start - time.monotonic()) + 1)

    async def _unavailable(self, send: Send, detail: str) -> None:
        body = orjson.dumps({"detail": detail})
        await send(
            {
                "type": "http.response.start",
                "status": 503,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"retry-after", str(self.retry_after_s()).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    # ------------------------------------------------------------------ metrics

    async def refresh_metrics(self) -> None:
        """Ask the worker for its figures (one scrape, one frame each way); None when it
        is down, so its families are left out rather than shown stale."""
        async with self._control_lock:
            writer = self._writer
            if writer is None:
                self.snapshot = None
                return
            self._control = asyncio.get_running_loop().create_future()
            writer.write(frames.pack(0, {"kind": "metrics"}))
            try:
                self.snapshot = await asyncio.wait_for(self._control, METRICS_TIMEOUT_S)
            except (TimeoutError, WorkerGone):
                self.snapshot = None

    def figures(self) -> GripFigures | None:
        if self.snapshot is None:
            return None
        return GripFigures(*self.snapshot["figures"])

    def metric_families(self) -> Iterable[Metric]:
        """The worker's instruments as of the last `refresh_metrics`: its Devil's Grip
        counters as they are, its process figures as `devils_grip_worker_process_*` (the
        server's own `process_*` are the rooms' process)."""
        for family in (self.snapshot or {}).get("families", []):
            rename = family["name"].startswith("process")
            name = ("devils_grip_worker_" + family["name"]) if rename else family["name"]
            metric = Metric(name, family["doc"] + (" (the Devil's Grip worker)" if rename else ""), family["type"])
            for sample, labels, value in family["samples"]:
                metric.add_sample(("devils_grip_worker_" + sample) if rename else sample, labels, value)
            yield metric


def _expire(waiting: asyncio.Future[Any]) -> None:
    if not waiting.done():
        waiting.set_exception(TimeoutError())


async def _read_body(receive: Receive) -> bytes | None:
    """The request's body (BodyGuard, in front, has already bounded and checked it)."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


class RelayGrip:
    """Plain ASGI, the innermost middleware: `/api/grip` requests go to the worker,
    everything else on to the routes."""

    def __init__(self, app: ASGIApp, relay: GripRelay) -> None:
        self.app = app
        self.relay = relay

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and is_grip_path(scope["path"]):
            await self.relay(scope, receive, send)
        else:
            await self.app(scope, receive, send)
