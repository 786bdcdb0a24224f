"""`python -m app`: run the server with the settings from the environment.

One uvicorn worker: a room lives in exactly one process (docs/design.md). Frames over
the limit are refused by the WebSocket layer itself (close 1009), and permessage-deflate
is off (compression costs CPU per message and opens compression side channels).
"""

from __future__ import annotations

import uvicorn

from app.api.app import create_app
from app.config import Settings


def main() -> None:
    settings = Settings()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        ws="websockets",
        ws_max_size=settings.max_frame_bytes,
        ws_per_message_deflate=False,
        proxy_headers=True,
        log_level=settings.log_level,
        timeout_graceful_shutdown=3,
    )


if __name__ == "__main__":
    main()
