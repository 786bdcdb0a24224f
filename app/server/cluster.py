"""One process among several: health, draining, and the answers that cover every process.

A deployment may run several server processes behind a load balancer (docs/self-hosting.md,
"Several processes"). Each owns the rooms and Devil's Grip games whose code or id starts
with one of its shard letters (`DEMON_SHARD`) and keeps them in its own SQLite file; the
balancer reads the letter from the path. What no single process knows on its own is
asked of the others, listed in `DEMON_PEERS`:

    GET /health            this process: status, version, database schema version, uptime, rooms,
                           bots, shard, accepting, grip (its Devil's Grip worker's state)
    GET /health/accepting  200 while it takes new rooms, 503 while draining: the check the
                           balancer's new-room backend runs
    GET /health/all        every process's /health and the totals (503 if one is down)
    GET /api/history       recent games of listed rooms, every process's, newest first
                           (a visitor's own games: POST /api/rooms/{code}/history)

The daily race's table and its one attempt a day are asked of every process too
(app/server/daily_http.py); replays are kept by the room's process and their ids start
with the room code's letter (app/storage/replay_store.py), so the balancer routes them.

A request that names a room, game or replay of another process's letter never reaches a
handler here (`ShardGate`): it is answered 404 and not counted as a wrong guess against
the address, since the id may well exist, on its owner. Only an id whose letter no
process holds (one that can exist nowhere) goes on to be looked up and counted.

Draining: SIGUSR1 makes the process stop accepting new rooms (its /health/accepting turns
503, so the balancer sends new rooms elsewhere within a check interval) while its rooms
play on and their requests and sockets still reach it; SIGUSR2 undoes it. A peer that does
not answer within `DEMON_PEER_TIMEOUT_S` is left out (and named in /health/all): one dead
process must not take the home page's recent games away from the others.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from typing import Any
from urllib.parse import parse_qs

import httpx
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

import app as app_pkg
from app.server.loop import choice as loop_choice
from app.storage.replay_store import replay_letter
from app.support.logfmt import log_event
from app.support.secrets_util import normalise_code

router = APIRouter()

# httpx logs every request at info: each /api/history or /api/daily would write a line per
# peer (and /api/daily's the browser's hashed id). A peer that does not answer is still
# seen: /health/all names it, and the answers say "complete": false.
logging.getLogger("httpx").setLevel(logging.WARNING)

HISTORY_LIMIT = 10
PEER_HEALTH = "/health?from=peer"  # a peer's ask, told apart in the access log (guard.py `QuietHealth`)


class Drain:
    """Whether this process takes new rooms and Devil's Grip games. It is the balancer
    that stops sending them (it checks /health/accepting); a request that arrives in the
    meantime is still served, since refusing it would only show a player an error."""

    def __init__(self) -> None:
        self.accepting = True

    def set(self, accepting: bool) -> None:
        if accepting != self.accepting:
            self.accepting = accepting
            log_event("accepting_new_rooms" if accepting else "draining")

    def install_signals(self) -> None:
        """SIGUSR1: drain; SIGUSR2: accept again (`kill -USR1 PID`, `docker kill -s USR1`)."""
        loop = asyncio.get_running_loop()
        try:
            loop.add_signal_handler(signal.SIGUSR1, self.set, False)
            loop.add_signal_handler(signal.SIGUSR2, self.set, True)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or no signals here
            pass


def own_health(request: Request) -> dict[str, Any]:
    state = request.app.state
    store = state.store
    return {
        "status": "ok",
        "version": app_pkg.__version__,
        "schema": store.version if store is not None else None,
        "uptime_s": round(time.monotonic() - state.started, 3),
        "rooms": len(state.hub.rooms),
        "bots": state.hub.bot_count(),
        "shard": state.settings.shard,
        "accepting": state.drain.accepting,
        # the Devil's Grip worker (app/server/gripproc): "ready", "starting" (its
        # requests wait), "restarting" (503); "in-process" without one
        "grip": state.grip_relay.state if state.grip_relay is not None else "in-process",
        # the rooms' event loop: which one runs, read from the loop itself
        # (app/server/loop/choice.py), its stalls of 0.1 s or more since start and the
        # longest wait (app/server/loop/watch.py)
        "loop": {
            "impl": loop_choice.running(),
            "stalls": state.loop_watch.stalls,
            "worst_ms": round(state.loop_watch.worst_s * 1e3, 1),
        },
    }


def own_history(request: Request) -> list[dict[str, Any]]:
    store = request.app.state.hub.store
    return store.recent_matches(HISTORY_LIMIT) if store is not None else []


# (peer, its JSON answer or None), one per peer
Answers = list[tuple[str, dict[str, Any] | None]]


class Peers:
    """Asks the other processes (DEMON_PEERS). Their answers are kept for a second: the
    home page asks for recent games on every visit, and a client hammering /health/all
    must not turn each of its requests into a request to every peer."""

    KEEP_S = 1.0

    def __init__(self, urls: list[str], timeout_s: float) -> None:
        self.urls = urls
        self.timeout_s = timeout_s
        self._kept: dict[str, tuple[float, asyncio.Future[Answers]]] = {}

    async def ask(self, path: str, *, fresh: bool = False) -> Answers:
        """(peer, its JSON answer or None) for every peer, asked at once; `fresh`: not an
        answer kept from the last second (what a decision, not a display, needs)."""
        if not self.urls:
            return []
        kept = self._kept.get(path)
        if fresh or kept is None or time.monotonic() - kept[0] >= self.KEEP_S:
            kept = (time.monotonic(), asyncio.ensure_future(self._ask_all(path)))
            self._kept[path] = kept
        return await asyncio.shield(kept[1])

    async def _ask_all(self, path: str) -> Answers:
        async def ask(client: httpx.AsyncClient, peer: str) -> tuple[str, dict[str, Any] | None]:
            try:
                answer = await client.get(peer + path)
                return peer, answer.json() if answer.status_code == 200 else None
            except (httpx.HTTPError, ValueError):
                return peer, None

        async with httpx.AsyncClient(timeout=self.timeout_s) as client:
            return list(await asyncio.gather(*(ask(client, peer) for peer in self.urls)))


class Shards:
    """Which process holds an id, told by its first letter: this one (`DEMON_SHARD`; every
    letter when it is empty), a peer (its /health names its letters), or none."""

    def __init__(self, own: str, peers: Peers) -> None:
        self.own = own
        self.peers = peers

    def mine(self, letter: str) -> bool:
        return not self.own or letter in self.own

    async def elsewhere(self, letter: str) -> bool:
        """True when `letter` is not this process's but may be another's: a peer holds it,
        or a peer did not answer (its letters are unknown, so the id may be its)."""
        if self.mine(letter):
            return False
        return any(
            answer is None or letter in str(answer.get("shard", "")) for _, answer in await self.peers.ask(PEER_HEALTH)
        )


def held_letter(path: str, query: bytes) -> str | None:
    """The first letter of the room code, Devil's Grip id or replay id a request names (the
    letter that tells its process), or None when it names none. The same paths as the
    balancer's routing rules (docker/haproxy-cfg.sh)."""
    parts = path.split("/")
    if len(parts) < 4 or parts[1] != "api" or not parts[3]:
        if path == "/api/replays":
            code = parse_qs(query.decode("latin-1")).get("code", [""])[0]
            return normalise_code(code)[:1] or None
        return None
    kind, name = parts[2], parts[3]
    if kind == "rooms" and name != "practice":
        return normalise_code(name)[:1] or None
    if kind == "grip":
        return name[0]
    if kind == "replays":
        return replay_letter(name)
    return None


class ShardGate:
    """Plain ASGI, in front of the routes: a request naming another process's room, game
    or replay is answered 404 here, without a lookup and without counting it as a guess
    (the module's docstring says why). The room sockets have the same check in
    app/server/limits.py `SocketGate`."""

    def __init__(self, app: ASGIApp, shards: Shards) -> None:
        self.app = app
        self.shards = shards

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.shards.own:
            letter = held_letter(scope["path"], scope.get("query_string", b""))
            if letter is not None and await self.shards.elsewhere(letter):
                answer = JSONResponse({"detail": misdirected(self.shards.own)}, status_code=404)
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)


def misdirected(own: str) -> str:
    return (
        f"This process (shard {own}) does not hold that: another process does. The load balancer sends "
        'each code to its owner by the first letter (docs/self-hosting.md, "Several processes").'
    )


@router.get("/health")
async def health(request: Request) -> dict[str, Any]:
    return own_health(request)


@router.get("/health/accepting")
async def accepting(request: Request) -> JSONResponse:
    yes = request.app.state.drain.accepting
    return JSONResponse({"accepting": yes, "shard": request.app.state.settings.shard}, status_code=200 if yes else 503)


@router.get("/health/all")
async def health_all(request: Request) -> JSONResponse:
    """Every process: this one, and each peer's /health (a peer that is this process is
    recognised by its shard and not counted twice)."""
    mine = own_health(request)
    processes = [mine]
    down = []
    for peer, answer in await request.app.state.peers.ask(PEER_HEALTH):
        if answer is None:
            down.append(peer)
            processes.append({"status": "down", "peer": peer})
        elif answer.get("shard") != mine["shard"]:
            processes.append({**answer, "peer": peer})
    status = "ok" if not down else "degraded"
    body = {
        "status": status,
        "processes": processes,
        "rooms": sum(p.get("rooms", 0) for p in processes),
        "accepting": sum(1 for p in processes if p.get("accepting")),
    }
    return JSONResponse(body, status_code=200 if not down else 503)


@router.get("/api/history")
async def history(request: Request, scope: str = "all") -> dict[str, Any]:
    """Finished matches of listed rooms, newest first, for the home page's "recent games":
    this process's and, unless `scope=local` (what one peer asks another), every peer's.
    A room is listed only when its host chose so; the other matches are shown only to
    the people who played them (`POST /api/rooms/{code}/history`, app/server/rooms_http.py)."""
    settings = request.app.state.settings
    games = own_history(request)
    if scope == "local" or not settings.peer_list:
        return {"games": games, "shard": settings.shard}
    complete = True
    for _peer, answer in await request.app.state.peers.ask("/api/history?scope=local"):
        if answer is None:
            complete = False
        elif answer.get("shard") != settings.shard:
            games.extend(answer.get("games", []))
    games.sort(key=lambda g: g.get("finished_at") or 0, reverse=True)
    return {"games": games[:HISTORY_LIMIT], "complete": complete}
