"""HTTP side of solo Devil's Grip: new deal, look, and act (action/undo/redo/hint/end)."""

from __future__ import annotations

from fastapi import APIRouter, Header, HTTPException, Request

from app.protocol.messages import GripRequest, NewGrip
from app.rooms.grip_sessions import GripError, GripSessions

router = APIRouter(prefix="/api/grip")


def _bearer(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


@router.post("")
async def new_game(body: NewGrip, request: Request) -> dict:
    grips: GripSessions = request.app.state.grips
    session, token = grips.new(body.number, body.daily, body.passes)
    return grips.describe(session, token)


@router.get("/{game_id}")
async def get_game(game_id: str, request: Request, authorization: str | None = Header(None)) -> dict:
    grips: GripSessions = request.app.state.grips
    try:
        return grips.describe(grips.get(game_id, _bearer(authorization)))
    except GripError as err:
        raise HTTPException(err.status, err.message) from err


@router.post("/{game_id}")
async def act(game_id: str, body: GripRequest, request: Request,
              authorization: str | None = Header(None)) -> dict:
    grips: GripSessions = request.app.state.grips
    try:
        session = grips.get(game_id, _bearer(authorization))
        return grips.describe(grips.operate(session, body.op, body.action))
    except GripError as err:
        raise HTTPException(err.status, err.message) from err
