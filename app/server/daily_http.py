"""HTTP side of the daily race: today's results and a start.

`POST /api/daily` seats the person at a practice table of `DAILY_BOTS` bots of their
level, dealt the day's deal (app/daily/race.py, keyed by the server's daily secret), one
round with the server's daily time limit, marked as the day's race (`Room.daily`: no
coach, no "let the bots finish", no rematch); the first start of a browser's id each day is
its counted attempt, a second is refused (409). Its bots count against the address's bot
budget as a practice room's do. `GET /api/daily` lists a day's entries.

Nothing of today's deal reaches a browser that has not raced it (docs/daily.md, "What
makes it fair"). "This browser raced today" is the hash of the id the page sends
(`browser`; the replay page sends it as the `X-Demon-Browser` header): its entry of today
exists and has ended (`DailyStore.ended`: the round's replay is kept). Until then today's
table shows names, levels and scores only: no room code (a live race cannot be found to
watch) and no replay; afterwards, and for every past day, each finished entry's replay
(`may_see_today`, which app/server/replays_http.py asks too, and app/server/rooms_http.py
before it shows one of today's daily rooms or seats a spectator in it).

With several processes (docs/self-hosting.md, "Several processes") each keeps the
entries of the races it dealt, so both answers ask every peer (`DEMON_PEERS`):

* the table is every process's entries in one list (`scope=local` is what one process asks
  another: its own entries, with whether the browser's hashed `player` started and ended
  there). Anyone can ask `scope=local`, so it hides today's codes and replays too, unless
  the asker shows `key`, the day's peer key (`peer_key`: an HMAC of the day under the
  daily secret, which every process shares and no browser has);
* a start asks every peer, afresh, whether the browser has started today's race there, and
  is refused (409) if it has, or (503, try again) if a peer does not answer: an attempt
  that cannot be checked is not counted. Two starts of one browser on two processes at the
  same moment both write their entry, then ask again: the later start (by its time, then
  the process's letter) withdraws its own and is refused, so one attempt is counted.
"""

from __future__ import annotations

import hashlib
import hmac
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
from app.storage.daily_store import DailyEntry, DailyStore
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


def _secret(request: Request) -> bytes:
    secret: bytes | None = request.app.state.daily_secret
    if secret is None:  # no database, no daily race (`_daily` says so first)
        raise HTTPException(503, "This server keeps no daily race (it has no database).")
    return secret


def peer_key(secret: bytes, day: str) -> str:
    """What one process shows another to be given `day`'s whole local table."""
    return hmac.new(secret, b"demon-daily-peer:" + day.encode(), hashlib.sha256).hexdigest()


def _shown(entry: DailyEntry, player: str | None, reveal: bool) -> dict[str, Any]:
    """An entry as the table sends it: never the hashed id; the room code only with the
    replay (a finished round's), and both only when `reveal`; `mine` for the asker's."""
    shown: dict[str, Any] = {k: v for k, v in entry.items() if k != "player"}
    if not reveal or entry["replay_id"] is None:
        shown["code"] = shown["replay_id"] = None
    shown["mine"] = player is not None and hmac.compare_digest(entry["player"], player)
    return shown


async def may_see_today(request: Request, day: str, player: str | None) -> bool:
    """Whether the browser (its hashed id) has raced `day`'s deal to its end, here or on
    any process (a peer that does not answer counts as "no": the answer opens the deal)."""
    if player is None:
        return False
    if _daily(request).ended(day, player):
        return True
    if not request.app.state.settings.peer_list:
        return False
    shard = request.app.state.settings.shard
    answers = await _peers(request).ask(f"/api/daily?scope=local&day={day}&player={player}", fresh=True)
    return any(a is not None and a.get("shard") != shard and a.get("ended") is True for _p, a in answers)


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
    key: Annotated[str | None, Query(max_length=64)] = None,
) -> dict[str, Any]:
    """A day's entries (today by default), every process's; `played`: whether `browser` has
    started that day's race, `raced`: whether it has ended (today's replays show only then).
    `scope=local` (what a peer asks): this process's only, with `player` (the browser's
    hashed id) when it started here and whether it ended."""
    settings = request.app.state.settings
    today = race_day()
    when = today if day is None else parse_day(day)
    if when is None or when > today:
        raise HTTPException(422, "day must be a date (YYYY-MM-DD), today or before.")
    daily = _daily(request)
    iso = when.isoformat()
    if player is None and browser is not None:
        player = hash_token(browser).hex()
    started = daily.started_at(iso, player) if player is not None else None
    ended = player is not None and daily.ended(iso, player)
    if scope == "local":
        is_peer = key is not None and hmac.compare_digest(key, peer_key(_secret(request), iso))
        local = [_shown(e, player, reveal=is_peer or when < today) for e in daily.entries(iso)]
        return {"day": iso, "shard": settings.shard, "entries": local, "started": started, "ended": ended}
    played, raced = started is not None, ended
    complete = True
    theirs: list[dict[str, Any]] = []
    if settings.peer_list:
        query = f"/api/daily?scope=local&day={iso}&key={peer_key(_secret(request), iso)}"
        query += f"&player={player}" if player is not None else ""
        for _peer, answer in await _peers(request).ask(query):
            if answer is None:
                complete = False
            elif answer.get("shard") != settings.shard:
                theirs.extend(answer.get("entries", []))
                played = played or answer.get("started") is not None
                raced = raced or answer.get("ended") is True
    reveal = when < today or raced
    entries = [_shown(e, player, reveal) for e in daily.entries(iso)]
    for entry in theirs:
        if not reveal:
            entry["code"] = entry["replay_id"] = None
        entries.append(entry)
    entries.sort(key=_order)
    return {
        "day": iso,
        "today": today.isoformat(),
        "bots": DAILY_BOTS,
        "time_limit_s": settings.daily_time_limit_s,
        "played": played,
        "raced": raced,
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
    address = request_address(request)
    budgets.spend(budgets.rooms, address, "new rooms")
    daily = _daily(request)
    today = race_day()
    player = hash_token(body.browser).hex()
    day = today.isoformat()
    shard = request.app.state.settings.shard
    if daily.has_started(day, player) or await _started_elsewhere(request, day, player):
        raise HTTPException(409, ALREADY)  # seats no bot, so spends none: "already raced" is the answer
    budgets.spend(budgets.bots, address, "bots", cost=DAILY_BOTS)  # as a practice room's bots
    try:
        handle, seat, token = hub.create_practice(
            PracticeRoom(name=body.name, bots=DAILY_BOTS, level=body.level, rounds=1),
            seed=daily_race_seed(today, _secret(request)),
            time_limit_s=request.app.state.settings.daily_time_limit_s,
            daily=day,
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
