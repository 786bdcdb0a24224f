"""JSON text for the wire and the database: one function, so every message is encoded alike.

orjson rather than the standard library's `json`: a move is encoded several times over
(its event, the legal actions of the seats it changed, the ack, its saved step), and
orjson does that in a fraction of the time (docs/performance.md). Its output is compact
JSON with non-ASCII characters as UTF-8 rather than `\\u` escapes, and like any JSON
encoder it escapes newlines inside strings, so a message is always one line (frames
carry several messages one per line, docs/protocol.md).
"""

from __future__ import annotations

from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    """`value` as one line of compact JSON text."""
    return orjson.dumps(value, option=_OPTIONS).decode()
