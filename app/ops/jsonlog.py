"""One JSON object per log line (`DEMON_LOG_FORMAT=json`), for a log shipper (Loki, Vector,
journald's JSON export, ...). Plain text stays the default: it is what a person reads.

Why the standard library's `logging` with a formatter of our own, not structlog: every
line the server writes already goes through `logging` (uvicorn's, ours), and its events
are already structured (`log_event(event, **fields)`, app/support/logfmt.py, hands its
fields over with the record). A formatter turns what is there into JSON with no new
dependency and no change to a single call; structlog would have meant either rewriting
the calls or running it as a stdlib formatter anyway.

Each object has `ts` (UTC, ISO 8601), `level`, `logger`, `msg`, the event's own fields
(`event`, `code` for a room, `game` for a Devil's Grip game, ...), `shard` when the
process has one, and `request_id`: the id of the HTTP request or WebSocket the line was
written while serving (`REQUEST_ID`, set by the web edge; a proxy's `X-Request-ID` is
kept when it looks like one, and every answer carries it back).
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import time
from contextvars import ContextVar

REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
_GIVEN_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
# The names a LogRecord has of its own: anything else on a record was passed as `extra`.
_CORE = ("ts", "level", "logger", "msg")


def new_request_id(given: bytes | None = None) -> str:
    """The id for a request: the proxy's `X-Request-ID` when it is a sane token, else a new one."""
    if given:
        text = given.decode("latin-1")
        if _GIVEN_ID.match(text):
            return text
    return secrets.token_hex(8)


class JsonFormatter(logging.Formatter):
    def __init__(self, shard: str = "") -> None:
        super().__init__()
        self.shard = shard

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        fields = getattr(record, "event_fields", None)
        if isinstance(fields, dict):
            entry.update((k, v) for k, v in fields.items() if k not in _CORE)
        if self.shard:
            entry["shard"] = self.shard
        request_id = REQUEST_ID.get()
        if request_id is not None:
            entry["request_id"] = request_id
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


def configure(level: str, shard: str, *, as_json: bool) -> None:
    """The root logger's handler, once per process (a second app in the same process,
    as in tests, keeps the first one's, as `logging.basicConfig` always has)."""
    if not as_json:
        tag = f" shard={shard}" if shard else ""  # one log line, one process
        logging.basicConfig(level=level.upper(), format=f"%(asctime)s %(levelname)s %(name)s{tag} %(message)s")
        return
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter(shard))
    logging.basicConfig(level=level.upper(), handlers=[handler])
