"""The frames the server and its Devil's Grip worker exchange over their socketpair.

A frame is a fixed header (request number, length of the JSON part, length of the body)
followed by a small JSON object (orjson) and raw body bytes. The body travels as it is, not
inside the JSON, so a Devil's Grip answer of ~30 KB is neither escaped nor copied into a
string on the rooms' loop. Request number 0 is for the two sides' own messages (the
settings, "ready", a metrics read); every HTTP request has a number of its own, so that
several requests can be in flight on the one connection (a hint waits for the search
while a look is answered).
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any

import orjson

HEADER = struct.Struct("!III")  # request number, JSON length, body length
MAX_JSON = 1 << 20  # headers and metrics; a larger meta part means the stream is garbled
MAX_BODY = 64 << 20  # a Devil's Grip answer is tens of KB


class FrameError(Exception):
    """The other side sent something that is not a frame: the connection is dropped."""


def pack(number: int, meta: dict[str, Any], body: bytes = b"") -> bytes:
    data = orjson.dumps(meta)
    return HEADER.pack(number, len(data), len(body)) + data + body


async def read(reader: asyncio.StreamReader) -> tuple[int, dict[str, Any], bytes]:
    """The next frame; `asyncio.IncompleteReadError` at the end of the stream."""
    number, meta_len, body_len = HEADER.unpack(await reader.readexactly(HEADER.size))
    if meta_len > MAX_JSON or body_len > MAX_BODY:
        raise FrameError(f"frame of {meta_len} + {body_len} bytes")
    meta = orjson.loads(await reader.readexactly(meta_len))
    if not isinstance(meta, dict):
        raise FrameError("frame meta is not an object")
    body = await reader.readexactly(body_len) if body_len else b""
    return number, meta, body


def headers_out(headers: list[tuple[bytes, bytes]]) -> list[list[str]]:
    """ASGI headers as JSON (latin-1 maps every byte to one character and back)."""
    return [[name.decode("latin-1"), value.decode("latin-1")] for name, value in headers]


def headers_in(headers: list[list[str]]) -> list[tuple[bytes, bytes]]:
    return [(name.encode("latin-1"), value.encode("latin-1")) for name, value in headers]
