"""HTTP side of rooms: create, look up, join. The token is returned once, here."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request

from app.protocol.messages import CreateRoom, JoinRoom, PracticeRoom, SeatGrant
from app.rooms.hub import HubFull
from app.rooms.room import RoomError
from app.rooms.secrets_util import normalise_code

router = APIRouter(prefix="/api/rooms")


def _grant(code: str, player, token: str) -> SeatGrant:
    return SeatGrant(code=code, token=token, you=player.id, seat=player.seat,
                     spectator=player.seat is None)


@router.post("", response_model=SeatGrant)
async def create_room(body: CreateRoom, request: Request) -> SeatGrant:
    try:
        handle, player, token = request.app.state.hub.create_room(body)
    except HubFull as err:
        raise HTTPException(503, str(err)) from err
    return _grant(handle.room.code, player, token)


@router.post("/practice", response_model=SeatGrant)
async def practice_room(body: PracticeRoom, request: Request) -> SeatGrant:
    """"Play against bots": a room of you and 1-7 bots, its countdown already running."""
    try:
        handle, player, token = request.app.state.hub.create_practice(body)
    except HubFull as err:
        raise HTTPException(503, str(err)) from err
    except RoomError as err:  # too_many_bots: the server's DEMON_MAX_BOTS is reached
        raise HTTPException(503, err.message) from err
    return _grant(handle.room.code, player, token)


@router.get("/{code}")
async def room_summary(code: str, request: Request) -> dict:
    handle = request.app.state.hub.rooms.get(normalise_code(code))
    if handle is None:
        raise HTTPException(404, "No room with that code.")
    return handle.room.to_public_summary()


@router.post("/{code}/join", response_model=SeatGrant)
async def join_room(code: str, body: JoinRoom, request: Request) -> SeatGrant:
    try:
        joined = request.app.state.hub.join_room(normalise_code(code), body.name)
    except RoomError as err:
        raise HTTPException(409, err.message) from err
    if joined is None:
        raise HTTPException(404, "No room with that code.")
    handle, player, token = joined
    return _grant(handle.room.code, player, token)
