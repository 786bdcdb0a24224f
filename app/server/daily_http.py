"""HTTP side of the daily race: today's results and a start.

`POST /api/daily` seats the person at a practice table of `DAILY_BOTS` bots of their
level, dealt the day's deal (app/daily/race.py), one round with the server's daily time
limit; the first start of a browser's id each day is its counted attempt, a second is
refused (409). `GET /api/daily` lists a day's entries, each with its replay (the daily
race's replays are shared: app/storage/daily_store.py).

With several processes (docs/self-hosting.md, "Several processes") each keeps the
entries of the races it dealt, so both answers ask every peer (`DEMON_PEERS`):

* the table is every process's entries in one list (`scope=local` is what one process asks
  another: its own entries, and when the browser's hashed id is given, when it started);
* a start asks every peer, afresh, whether the browser has started today's race there, and
  is refused (409) if it has, or (503, try again) if a peer does not answer: an attempt
  that cannot be checked is not counted. Two starts of one browser on two processes at the
  same moment both write their entry, then ask again: the later start (by its time, then
  the process's letter) withdraws its own and is refused, so one attempt is counted.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from app.daily.race import DAILY_BOTS, daily_race_seed, parse_day, race_day
from app.demon.hub.hub import HubFull
from app.demon.room.room import RoomError
from app.protocol.messages import BotLevel, Name, PracticeRoom, SeatGrant
from app.server.cluster import Peers
from app.server.deps import BudgetsDep, HubDep, RoomWatchDep
from app.server.limits import request_address
from app.storage.daily_store import DailyStore
from app.support.secrets_util import hash_token

router = APIRouter(prefix="/api/daily")

ALREADY = "This browser has already raced today's deal: one counted attempt a day."
MAX_ENTRIES = 500


class StartDaily(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Name
    level: BotLevel = "medium"
    browser: Annotated[str, Field(min_length=16, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


def _daily(request: Request) -> DailyStore:
    store = request.app.state.hub.store
    if store is None:
        raise HTTPException(503, "This server keeps no daily race (it has no database).")
    daily: DailyStore = store.demon.daily
    return daily


def _order(entry: dict[str, Any]) -> tuple[bool, int, float]:
    """The table's order: finished entries first, best score first, then the earliest start."""
    score = entry.get("score")
    return (score is None, -(score or 0), entry.get("started") or 0.0)


@router.get("")
async def daily_results(
    request: Request,
    day: str | None = None,
    browser: str | None = None,
    scope: Literal["all", "local"] = "all",
    player: Annotated[str | None, Query(pattern=r"^[0-9a-f]{64}$")] = None,
) -> dict[str, Any]:
    """A day's entries (today by default), every process's; `played`: whether `browser` has
    raced that day. `scope=local` (what a peer asks): this process's only, and with
    `player` (the browser's hashed id) when it started here."""
    settings = request.app.state.settings
    today = race_day()
    when = today if day is None else parse_day(day)
    if when is None or when > today:
        raise HTTPException(422, "day must be a date (YYYY-MM-DD), today or before.")
    daily = _daily(request)
    iso = when.isoformat()
    if player is None and browser is not None:
        player = hash_token(browser).hex()
    entries: list[dict[str, Any]] = [dict(e) for e in daily.entries(iso)]
    started = daily.started_at(iso, player) if player is not None else None
    if scope == "local":
        return {"day": iso, "shard": settings.shard, "entries": entries, "started": started}
    played = started is not None
    complete = True
    if settings.peer_list:
        query = f"/api/daily?scope=local&day={iso}" + (f"&player={player}" if player is not None else "")
        for _peer, answer in await _peers(request).ask(query):
            if answer is None:
                complete = False
            elif answer.get("shard") != settings.shard:
                entries.extend(answer.get("entries", []))
                played = played or answer.get("started") is not None
        entries.sort(key=_order)
    return {
        "day": iso,
        "today": today.isoformat(),
        "bots": DAILY_BOTS,
        "time_limit_s": settings.daily_time_limit_s,
        "played": played,
        "entries": entries[:MAX_ENTRIES],
        "complete": complete,
    }


def _peers(request: Request) -> Peers:
    peers: Peers = request.app.state.peers
    return peers


async def _started_elsewhere(request: Request, day: str, player: str) -> list[tuple[float, str]]:
    """When (and on which process) the browser started `day`'s race on the other processes,
    asked afresh; 503 when a process does not answer."""
    shard = request.app.state.settings.shard
    found = []
    for _peer, answer in await _peers(request).ask(f"/api/daily?scope=local&day={day}&player={player}", fresh=True):
        if answer is None:
            raise HTTPException(
                503,
                "The daily race cannot be started now: a process of this server does not answer, and your "
                "one attempt a day could not be checked. Try again in a minute.",
                headers={"Retry-After": "30"},
            )
        if answer.get("shard") != shard and answer.get("started") is not None:
            found.append((float(answer["started"]), str(answer.get("shard", ""))))
    return found


@router.post("", response_model=SeatGrant)
async def start_daily(
    body: StartDaily, request: Request, hub: HubDep, budgets: BudgetsDep, watch: RoomWatchDep
) -> SeatGrant:
    budgets.spend(budgets.rooms, request_address(request), "new rooms")
    daily = _daily(request)
    today = race_day()
    player = hash_token(body.browser).hex()
    day = today.isoformat()
    shard = request.app.state.settings.shard
    if daily.has_started(day, player) or await _started_elsewhere(request, day, player):
        raise HTTPException(409, ALREADY)
    try:
        handle, seat, token = hub.create_practice(
            PracticeRoom(name=body.name, bots=DAILY_BOTS, level=body.level, rounds=1),
            seed=daily_race_seed(today),
            time_limit_s=request.app.state.settings.daily_time_limit_s,
        )
    except HubFull as err:
        raise HTTPException(
            503, "The server holds as many rooms as it allows: try again later.", headers={"Retry-After": "60"}
        ) from err
    except RoomError as err:
        raise HTTPException(503, err.message) from err
    watch.created(handle.room.code)  # swept unless its seat opens a socket, refused or not
    if not daily.start(day, player, seat.name, body.level, handle.room.code):
        raise HTTPException(409, ALREADY)
    if request.app.state.settings.peer_list:  # a start of the same browser elsewhere at the same moment
        mine = (daily.started_at(day, player) or 0.0, shard)
        if any(theirs < mine for theirs in await _started_elsewhere(request, day, player)):
            daily.withdraw(day, player, handle.room.code)
            raise HTTPException(409, ALREADY)
    return SeatGrant(code=handle.room.code, token=token, you=seat.id, seat=seat.seat, spectator=False)
