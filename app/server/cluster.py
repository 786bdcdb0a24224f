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

Draining: SIGUSR1 makes the process stop accepting new rooms (its /health/accepting turns
503, so the balancer sends new rooms elsewhere within a check interval) while its rooms
play on and their requests and sockets still reach it; SIGUSR2 undoes it. A peer that does
not answer within `DEMON_PEER_TIMEOUT_S` is left out (and named in /health/all): one dead
process must not take the home page's recent games away from the others.
"""

from __future__ import annotations

import asyncio
import signal
import time
from typing import Any

import httpx
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

import app as app_pkg
from app.support.logfmt import log_event

router = APIRouter()

HISTORY_LIMIT = 10


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
        # the rooms' event loop (app/server/loop/watch.py): stalls of 0.1 s or more
        # since start, and the longest wait
        "loop": {"stalls": state.loop_watch.stalls, "worst_ms": round(state.loop_watch.worst_s * 1e3, 1)},
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

    async def ask(self, path: str) -> Answers:
        """(peer, its JSON answer or None) for every peer, asked at once."""
        if not self.urls:
            return []
        kept = self._kept.get(path)
        if kept is None or time.monotonic() - kept[0] >= self.KEEP_S:
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
    for peer, answer in await request.app.state.peers.ask("/health"):
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
