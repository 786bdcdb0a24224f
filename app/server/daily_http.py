"""HTTP side of the daily race: today's results and a start.

`POST /api/daily` seats the person at a practice table of `DAILY_BOTS` bots of their
level, dealt the day's deal (app/daily/race.py), one round with the server's daily time
limit; the first start of a browser's id each day is its counted attempt, a second is
refused (409). `GET /api/daily` lists a day's entries, each with its replay (the daily
race's replays are shared: app/storage/daily_store.py).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from app.daily.race import DAILY_BOTS, daily_race_seed, parse_day, race_day
from app.demon.hub.hub import HubFull
from app.demon.room.room import RoomError
from app.protocol.messages import BotLevel, Name, PracticeRoom, SeatGrant
from app.server.deps import BudgetsDep, HubDep, RoomWatchDep
from app.server.limits import request_address
from app.storage.daily_store import DailyStore
from app.support.secrets_util import hash_token

router = APIRouter(prefix="/api/daily")


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


@router.get("")
async def daily_results(request: Request, day: str | None = None, browser: str | None = None) -> dict[str, Any]:
    """A day's entries (today by default); `played`: whether `browser` has raced that day."""
    today = race_day()
    when = today if day is None else parse_day(day)
    if when is None or when > today:
        raise HTTPException(422, "day must be a date (YYYY-MM-DD), today or before.")
    daily = _daily(request)
    played = browser is not None and daily.has_started(when.isoformat(), hash_token(browser).hex())
    return {
        "day": when.isoformat(),
        "today": today.isoformat(),
        "bots": DAILY_BOTS,
        "time_limit_s": request.app.state.settings.daily_time_limit_s,
        "played": played,
        "entries": daily.entries(when.isoformat()),
    }


@router.post("", response_model=SeatGrant)
async def start_daily(
    body: StartDaily, request: Request, hub: HubDep, budgets: BudgetsDep, watch: RoomWatchDep
) -> SeatGrant:
    budgets.spend(budgets.rooms, request_address(request), "new rooms")
    daily = _daily(request)
    today = race_day()
    player = hash_token(body.browser).hex()
    if daily.has_started(today.isoformat(), player):
        raise HTTPException(409, "This browser has already raced today's deal: one counted attempt a day.")
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
    if not daily.start(today.isoformat(), player, seat.name, body.level, handle.room.code):
        raise HTTPException(409, "This browser has already raced today's deal: one counted attempt a day.")
    watch.created(handle.room.code)
    return SeatGrant(code=handle.room.code, token=token, you=seat.id, seat=seat.seat, spectator=False)
