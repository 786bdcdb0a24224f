"""Open tables' routes: the list (`GET /api/tables`) and "Play now" (`POST /api/play-now`).

The list is the shared snapshot (app/server/tables/snapshot.py), answered 304 to a page
that holds its version already. "Play now" asks the hub for the best open lobby of this
process (app/demon/hub/open_tables.py) and compares it with the other processes' lobbies
in the snapshot: a better one elsewhere is answered `{"join": CODE}`, and the page joins
it through the balancer like any link. The other processes are asked *before* the hub
decides, so that the decision and the seating are one synchronous step (two presses at
the same moment land at the same table).

Budgets (docs/security.md): seating at a lobby spends a join, opening a table a room,
and its bots, when they come, the bot budget of the address that opened it; an address
holding `WAITING_SEATS_PER_ADDRESS` seats in waiting play-now lobbies is refused (429).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Request, Response

from app.demon.hub.hub import HubFull
from app.demon.hub.open_tables import WAITING_SEATS_PER_ADDRESS
from app.demon.room.errors import RoomError
from app.demon.room.phases import Phase
from app.protocol.messages import PlayNow, PlayNowElsewhere, PlayNowGrant
from app.server.deps import BudgetsDep, HubDep, RoomWatchDep, SettingsDep
from app.server.limits import request_address
from app.server.tables.snapshot import Built, TablesSnapshot

router = APIRouter()

NO_OPEN_TABLES = "This server has no open tables."


def get_tables(request: Request) -> TablesSnapshot:
    tables: TablesSnapshot = request.app.state.tables
    return tables


TablesDep = Annotated[TablesSnapshot, Depends(get_tables)]


def _answer(request: Request, snapshot: Built) -> Response:
    headers = {"ETag": snapshot.etag, "Cache-Control": "no-cache"}
    asked = request.headers.get("if-none-match")
    if asked is not None and snapshot.etag in (tag.strip().removeprefix("W/") for tag in asked.split(",")):
        return Response(status_code=304, headers=headers)
    return Response(snapshot.body, media_type="application/json", headers=headers)


@router.get("/api/tables")
async def list_tables(request: Request, tables: TablesDep, scope: str = "all") -> Response:
    """Open lobbies with a free seat and open tables that started, every process's unless
    `scope=local` (what one process asks another)."""
    return _answer(request, tables.local() if scope == "local" else await tables.everything())


@router.post("/api/play-now", response_model=None)
async def play_now(
    body: PlayNow,
    request: Request,
    hub: HubDep,
    budgets: BudgetsDep,
    watch: RoomWatchDep,
    settings: SettingsDep,
    tables: TablesDep,
) -> PlayNowGrant | PlayNowElsewhere:
    if not settings.open_tables:
        raise HTTPException(404, NO_OPEN_TABLES)
    address = request_address(request)
    if settings.peer_list:
        await tables.everything()  # the other processes' lobbies, before anything is decided here
    # From here on nothing awaits: the choice and the seating are one step on the loop.
    local = hub.open_tables.best_lobby(body.game, body.language, address)
    here = (local.room.door.language != body.language, -len(local.room.seating.seated())) if local else None
    elsewhere = _better_elsewhere(tables, body, here, {code.upper() for code in body.avoid})
    if elsewhere is not None:
        budgets.spend(budgets.joins, address, "joins")
        return PlayNowElsewhere(join=elsewhere)
    if hub.open_tables.waiting_seats(address) >= WAITING_SEATS_PER_ADDRESS:
        raise HTTPException(
            429,
            "Your address already holds as many seats at open tables waiting for players as it may: play those first.",
            headers={"Retry-After": "20"},
        )
    if local is not None:
        budgets.spend(budgets.joins, address, "joins")
    else:
        budgets.spend(budgets.rooms, address, "new rooms")
    try:
        handle, player, token = hub.play_now(body, address)
    except HubFull as err:
        raise HTTPException(
            503, "The server holds as many rooms as it allows: try again later.", headers={"Retry-After": "60"}
        ) from err
    except RoomError as err:
        raise HTTPException(409, err.message) from err
    room = handle.room
    if local is None:
        watch.created(room.code)
    fill_at = room.door.fill_at if room.phase is Phase.LOBBY else None
    return PlayNowGrant(
        code=room.code,
        token=token,
        you=player.id,
        seat=player.seat,
        spectator=player.seat is None,
        fill_at=int(fill_at * 1000) if fill_at is not None else None,
    )


def _better_elsewhere(
    tables: TablesSnapshot, body: PlayNow, here: tuple[bool, int] | None, avoid: set[str]
) -> str | None:
    """The code of another process's lobby that suits better than this process's best
    (`here`: its key, None when there is none): the same language first, then the
    fuller. A tie stays here (no hop through the balancer). Lobbies in `avoid` are
    skipped: the page could not sit there (the row was a second or two old, or the
    host there removed this address, which only that process knows)."""
    best: tuple[bool, int] | None = None
    code = None
    for row in tables.remote:
        if row["started"] or row["game"] != body.game or row["players"] + row["bots"] >= row["max_players"]:
            continue
        if row["code"] in avoid:
            continue
        key = (row["language"] != body.language, -(row["players"] + row["bots"]))
        if best is None or key < best:
            best, code = key, row["code"]
    if best is None or (here is not None and not best < here):
        return None
    return code
