"""`python -m app`: run the server with the settings from the environment.

One uvicorn worker: a room lives in exactly one process (docs/design.md). Frames over
the limit are refused by the WebSocket layer itself (close 1009), and permessage-deflate
is off (compression costs CPU per message and opens compression side channels).
"""

from __future__ import annotations

import sys

import uvicorn

from app.api.app import create_app
from app.config import Settings
from app.rooms.store import StoreError


def main() -> None:
    settings = Settings()
    try:
        app = create_app(settings)
    except StoreError as err:
        print(f"error: {err}", file=sys.stderr)
        raise SystemExit(2) from err
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        ws="websockets-sansio",
        ws_max_size=settings.max_frame_bytes,
        ws_per_message_deflate=False,
        proxy_headers=True,
        log_level=settings.log_level,
        timeout_graceful_shutdown=3,
    )


if __name__ == "__main__":
    main()
