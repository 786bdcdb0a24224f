"""Structured log lines (`event=room_created code=KXWPRTM players=2`), one per fact.

Self-hosters grep these; keeping them key=value makes them easy to filter and to feed to
any log shipper. The fields also travel with the record (`event_fields`), so that the
JSON formatter (`DEMON_LOG_FORMAT=json`, app/ops/jsonlog.py) writes them as keys of their
own. Never pass a seat token here.
"""

from __future__ import annotations

import logging

_log = logging.getLogger("demon.events")


def _fmt(value: object) -> str:
    text = str(value)
    if not text or any(ch.isspace() or ch in '"=' for ch in text):
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return text


def log_event(event: str, **fields: object) -> None:
    if not _log.isEnabledFor(logging.INFO):  # rejected plays are logged: no work when filtered
        return
    parts = [f"event={event}"] + [f"{k}={_fmt(v)}" for k, v in fields.items()]
    _log.info(" ".join(parts), extra={"event_fields": {"event": event, **fields}})
