"""`GET /api/invite`: the address the lobby puts in its invite link (app/server/invite.py).

The page asks instead of using its own `location.origin` because only the server knows
whether it listens on the network, on which local address, and whether the self-hoster
set a public URL; the page only knows the address the host typed.
"""

from __future__ import annotations

from fastapi import APIRouter, Request

from app.server.deps import SettingsDep
from app.server.invite import InviteJson, invite_for, lan_addresses

router = APIRouter()


@router.get("/api/invite")
async def invite(request: Request, settings: SettingsDep) -> InviteJson:
    host = request.headers.get("host") or f"{settings.host}:{settings.port}"
    page_origin = f"{request.url.scheme}://{host}"
    lan = lan_addresses() if settings.share_lan_address else []
    return invite_for(
        page_origin, public_url=settings.public_url, listen_host=settings.host, port=settings.port, lan=lan
    ).to_json()
