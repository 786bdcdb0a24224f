"""`python -m app`: run the server with the settings from the environment.

One uvicorn worker: a room lives in exactly one process (docs/design.md). Frames over
the limit are refused by the WebSocket layer itself (close 1009), and permessage-deflate
is off (compression costs CPU per message and opens compression side channels).

uvicorn runs its h11 HTTP protocol and websockets-sansio protocol wrapped by the
connection guard (`app/server/guard.py`): a deadline for each request, caps on connections
overall and per address, refusals logged once per interval. X-Forwarded-For is believed
from `DEMON_TRUSTED_PROXIES` only (docs/security.md).
"""

from __future__ import annotations

import logging
import sys

import uvicorn
from pydantic import ValidationError

from app.server.app import create_app
from app.server.guard import ConnectionGuard, QuietAccept, QuietRefusals, effective_max_connections, protocols
from app.server.invite import lan_addresses, startup_lines
from app.config import Settings
from app.storage.store import StoreError


def _settings() -> Settings:
    """The settings, or a short message naming the bad variable instead of a traceback."""
    try:
        return Settings()
    except ValidationError as err:
        for problem in err.errors():
            name = "DEMON_" + "_".join(str(part) for part in problem["loc"]).upper()
            print(f"error: {name}: {problem['msg']}", file=sys.stderr)
        raise SystemExit(2) from None


def main() -> None:
    settings = _settings()
    try:
        app = create_app(settings)
    except StoreError as err:
        print(f"error: {err}", file=sys.stderr)
        raise SystemExit(2) from err
    guard = ConnectionGuard(settings, max_connections=effective_max_connections(settings.max_connections))
    http_protocol, ws_protocol = protocols(guard)
    quiet = QuietAccept(settings.refusal_log_interval_s)
    logging.getLogger("asyncio").addFilter(quiet)
    logging.getLogger("uvicorn.error").addFilter(quiet)
    logging.getLogger("uvicorn.access").addFilter(QuietRefusals(settings.refusal_log_interval_s))
    lan = lan_addresses() if settings.share_lan_address else []
    for line in startup_lines(public_url=settings.public_url, listen_host=settings.host,
                              port=settings.port, lan=lan):
        print(line, flush=True)
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        http=http_protocol,
        ws=ws_protocol,
        forwarded_allow_ips=settings.trusted_proxy_list,
        ws_max_size=settings.max_frame_bytes,
        ws_per_message_deflate=False,
        proxy_headers=bool(settings.trusted_proxy_list),
        log_level=settings.log_level,
        timeout_graceful_shutdown=3,
    )


if __name__ == "__main__":
    main()
