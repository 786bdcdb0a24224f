"""HTTP side of replays: a finished Demon round's frames, the rounds of a room
one may watch, and the host's "anyone with the link may watch".

Who may watch is decided in one place, `may_watch`: the people who played the round
(the browser shows the seat token it keeps for the room, as `Authorization: Bearer`),
or anyone once the host shared it. A round of today's daily race (its room's code is in
the day's entries) is the exception while the day lasts: besides its own racer, only a
browser whose own race of today has ended may watch it (`daily_embargo`; the page sends the
browser's id as `X-Demon-Browser`), so nobody can learn the deal before racing it
(docs/daily.md). Frames are made here from the kept record by the
engine (app/records/frames.py): the browser holds no Demon rule.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Header, HTTPException, Request
from pydantic import BaseModel, ConfigDict

from app.common.errors import InvalidRecord
from app.daily.race import race_day
from app.records.frames import race_frames
from app.server.daily_http import may_see_today
from app.server.deps import BudgetsDep
from app.server.limits import request_address
from app.storage.replay_store import ReplayRow, ReplayStore
from app.support.secrets_util import hash_token, normalise_code, token_matches

router = APIRouter(prefix="/api/replays")

NO_REPLAY = "No replay with that id, or not one you may watch."
DAILY_FIRST = "A round of today's daily race: it opens once your own race of today's deal has ended."


class ShareReplay(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    shared: bool


def bearer(authorization: str | None) -> str | None:
    if authorization and authorization.startswith("Bearer "):
        return authorization[len("Bearer ") :].strip() or None
    return None


def _holds(token: str | None, hashes: list[str]) -> bool:
    return token is not None and any(token_matches(token, bytes.fromhex(h)) for h in hashes)


def may_watch(row: ReplayRow, token: str | None) -> bool:
    """The one rule (the recent games' rule): a player of the round, by the seat token
    their browser keeps, or anyone when the host shared it."""
    return row["shared"] or _holds(token, row["watchers"])


async def daily_embargo(request: Request, row: ReplayRow, token: str | None, browser: str | None) -> bool:
    """True when `row` is a round of today's daily race that this browser may not watch
    yet: it did not play the round (no seat token of it) and has not raced today's deal to
    its end (asked of every process: `may_see_today`)."""
    store = request.app.state.hub.store
    today = race_day().isoformat()
    if store is None or store.demon.daily.day_of_code(row["code"]) != today or _holds(token, row["watchers"]):
        return False
    player = hash_token(browser).hex() if browser else None
    return not await may_see_today(request, today, player)


def _replays(request: Request) -> ReplayStore:
    store = request.app.state.hub.store
    if store is None:
        raise HTTPException(503, "This server keeps no replays (it has no database).")
    replays: ReplayStore = store.demon.replays
    return replays


def _summary(row: ReplayRow) -> dict[str, Any]:
    return {
        "id": row["id"],
        "code": row["code"],
        "round_no": row["round_no"],
        "finished_at": row["finished_at"],
        "players": row["players"],
        "shared": row["shared"],
        "bots_finish": row["bots_finish"],
    }


@router.get("")
async def replays_of_room(
    code: str,
    request: Request,
    budgets: BudgetsDep,
    authorization: str | None = Header(default=None),
    x_demon_browser: str | None = Header(default=None, max_length=64),
) -> dict[str, Any]:
    """The rounds of room `code` this browser may watch, newest first."""
    budgets.check_misses(request_address(request))
    token = bearer(authorization)
    rows = [r for r in _replays(request).of_room(normalise_code(code)) if may_watch(r, token)]
    if rows and await daily_embargo(request, rows[0], token, x_demon_browser):
        rows = [r for r in rows if _holds(token, r["watchers"])]
    return {"replays": [_summary(r) for r in rows]}


@router.get("/{replay_id}")
async def replay(
    replay_id: str,
    request: Request,
    budgets: BudgetsDep,
    authorization: str | None = Header(default=None),
    x_demon_browser: str | None = Header(default=None, max_length=64),
) -> dict[str, Any]:
    address = request_address(request)
    budgets.check_misses(address)
    token = bearer(authorization)
    row = _replays(request).load(replay_id[:64])
    if row is None or not may_watch(row, token):
        budgets.miss(address)
        raise HTTPException(404, NO_REPLAY)  # the same answer: an id is not confirmed to a stranger
    if await daily_embargo(request, row, token, x_demon_browser):
        raise HTTPException(403, DAILY_FIRST)  # the day's table already says the race exists
    try:
        frames = race_frames(row["record"])
    except InvalidRecord as err:  # a kept record always replays; say so if one does not
        raise HTTPException(500, f"This round's record does not replay: {err}") from err
    return {**_summary(row), "may_share": _holds(token, [row["host"]] if row["host"] else []), **frames}


@router.post("/{replay_id}/share")
async def share_replay(
    replay_id: str,
    body: ShareReplay,
    request: Request,
    budgets: BudgetsDep,
    authorization: str | None = Header(default=None),
) -> dict[str, Any]:
    """The host lets anyone with the link watch the round (or takes it back)."""
    address = request_address(request)
    budgets.check_misses(address)
    replays = _replays(request)
    row = replays.load(replay_id[:64])
    token = bearer(authorization)
    if row is None or not may_watch(row, token):
        budgets.miss(address)
        raise HTTPException(404, NO_REPLAY)
    if not _holds(token, [row["host"]] if row["host"] else []):
        raise HTTPException(403, "Only the host of the round can share it.")
    replays.share(row["id"], body.shared)
    return {"id": row["id"], "shared": body.shared}
