"""HTTP side of rooms: create, look up, join, and a seat's finished matches. The token is
returned once, here.

Finished matches are private to the people who played them (docs/security.md, "Who sees
which games"): `POST /api/rooms/{code}/history` with a seat's token answers the room's
matches played from that seat. A room of today's daily race refuses its summary and
spectators (403) while the day lasts, but to a browser whose own race of today has ended
(docs/daily.md). Its path starts with the room code, so behind HAProxy it
reaches the process that owns the room and its database, as every room request does.

Each client address has budgets (docs/security.md): rooms created (practice rooms
included), bots seated in practice rooms and daily races, joins, and misses (a code that names no room); past them, 429.
A person the host removed from a room (`remove_player`) is refused its join: 403.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Request

from app.daily.race import race_day
from app.demon.hub.handle import RoomHandle
from app.demon.hub.hub import Hub, HubFull
from app.demon.hub.open_tables import waiting_lobby
from app.demon.room.errors import Removed
from app.demon.room.room import Options, Player, RoomError
from app.demon.room.views import RoomSummary
from app.protocol.messages import CreateRoom, JoinRoom, PracticeRoom, SeatGrant, SeatProof
from app.server.daily_http import may_see_today
from app.server.deps import BudgetsDep, HubDep, RoomWatchDep, SettingsDep
from app.server.limits import request_address
from app.support.secrets_util import hash_token, normalise_code

router = APIRouter(prefix="/api/rooms")

NO_ROOM = "No room with that code."
NO_FREE_SEAT = "This table has no free seat in its lobby any more."
NO_OPEN_TABLES = "This server has no open tables."
DAILY_ROOM = (
    "A room of today's daily race: only those whose own race of today has ended may watch it "
    "while the day lasts (docs/daily.md)."
)
BrowserHeader = Annotated[str | None, Header(max_length=64)]


async def _not_todays_daily(request: Request, handle: RoomHandle, browser: str | None) -> None:
    """Watching one of today's daily races would show the day's deal: only a browser whose
    own race of today has ended may (the `X-Demon-Browser` header, as for the day's
    replays: daily_http.may_see_today). After the day, such a room is a room like any."""
    day = handle.room.daily
    if day is None or day < race_day().isoformat():
        return
    if not await may_see_today(request, day, hash_token(browser).hex() if browser else None):
        raise HTTPException(403, DAILY_ROOM)


def _grant(code: str, player: Player, token: str) -> SeatGrant:
    return SeatGrant(code=code, token=token, you=player.id, seat=player.seat, spectator=player.seat is None)


def _full(err: Exception, hub: Hub) -> HTTPException:
    """The room cap is the server's, not the client's: 503, saying which cap."""
    return HTTPException(
        503,
        f"The server holds as many rooms as it allows ({hub.settings.max_rooms}); "
        "rooms nobody uses are removed within minutes: try again later.",
        headers={"Retry-After": "60"},
    )


def _check_game(game: str, house_rules: Mapping[str, object] | None) -> None:
    """A game and house rules no table deals are the request's fault (422), refused
    before any budget is spent or anything is made."""
    try:
        Options.chosen(3, None, 8, game, house_rules)
    except RoomError as err:
        raise HTTPException(422, err.message) from err


@router.post("", response_model=SeatGrant)
async def create_room(
    body: CreateRoom, request: Request, hub: HubDep, budgets: BudgetsDep, watch: RoomWatchDep, settings: SettingsDep
) -> SeatGrant:
    _check_game(body.game, body.house_rules)
    if body.open and not settings.open_tables:
        raise HTTPException(422, NO_OPEN_TABLES)
    address = request_address(request)
    budgets.spend(budgets.rooms, address, "new rooms")
    try:
        handle, player, token = hub.create_room(body, address)
    except HubFull as err:
        raise _full(err, hub) from err
    watch.created(handle.room.code)
    return _grant(handle.room.code, player, token)


@router.post("/practice", response_model=SeatGrant)
async def practice_room(
    body: PracticeRoom, request: Request, hub: HubDep, budgets: BudgetsDep, watch: RoomWatchDep
) -> SeatGrant:
    """ "Play against bots": a room of you and 1-7 bots, its countdown already running.
    Its bots are paid for by the address that asks, one unit each (a room of 7 costs
    seven times a room of 1), and they play only once its player has opened the room's
    socket; unopened, it is gone after DEMON_UNOPENED_PRACTICE_TTL_S."""
    _check_game(body.game, body.house_rules)
    address = request_address(request)
    budgets.spend(budgets.rooms, address, "new rooms")
    budgets.spend(budgets.bots, address, "bots", cost=body.bots)
    try:
        handle, player, token = hub.create_practice(body)
    except HubFull as err:
        raise _full(err, hub) from err
    except RoomError as err:  # too_many_bots: the server's DEMON_MAX_BOTS is reached
        # Unopened practice rooms give their bots back within this (and the sweep's second).
        retry = math.ceil(hub.settings.unopened_practice_ttl_s) + 2
        raise HTTPException(503, err.message, headers={"Retry-After": str(retry)}) from err
    watch.created(handle.room.code, hub.settings.unopened_practice_ttl_s)
    return _grant(handle.room.code, player, token)


@router.get("/{code}", response_model=None)  # a plain dict (typing.TypedDict is no pydantic model on 3.11)
async def room_summary(
    code: str, request: Request, hub: HubDep, budgets: BudgetsDep, x_demon_browser: BrowserHeader = None
) -> RoomSummary:
    address = request_address(request)
    budgets.check_misses(address)
    handle = hub.rooms.get(normalise_code(code))
    if handle is None:
        budgets.miss(address)
        raise HTTPException(404, NO_ROOM)
    await _not_todays_daily(request, handle, x_demon_browser)
    return handle.room.to_public_summary()


@router.post("/{code}/join", response_model=SeatGrant)
async def join_room(
    code: str,
    body: JoinRoom,
    request: Request,
    hub: HubDep,
    budgets: BudgetsDep,
    x_demon_browser: BrowserHeader = None,
) -> SeatGrant:
    address = request_address(request)
    budgets.check_misses(address)
    code = normalise_code(code)
    if code not in hub.rooms:
        budgets.miss(address)
        raise HTTPException(404, NO_ROOM)
    await _not_todays_daily(request, hub.rooms[code], x_demon_browser)
    budgets.spend(budgets.joins, address, "joins")
    if body.seat_only and not waiting_lobby(hub.rooms[code].room):  # no await since: still true at the join
        raise HTTPException(409, NO_FREE_SEAT)
    try:
        joined = hub.join_room(code, body.name, address)
    except Removed as err:  # the host removed this address from the table
        raise HTTPException(403, err.message) from err
    except RoomError as err:
        raise HTTPException(409, err.message) from err
    if joined is None:
        raise HTTPException(404, NO_ROOM)
    handle, player, token = joined
    return _grant(handle.room.code, player, token)


@router.post("/{code}/history")
async def seat_history(code: str, body: SeatProof, request: Request) -> dict[str, Any]:
    """The room's finished matches played from the seat `body.token` opens; anything
    else gets the same empty list, so the answer tells nothing of whether the room
    exists. Not a miss either: the home page asks this for every seat the browser keeps,
    most of them rooms long gone, and must not spend its visitor's miss budget."""
    store = request.app.state.store
    games = store.matches_seen_by(normalise_code(code), hash_token(body.token)) if store is not None else []
    return {"games": games}
