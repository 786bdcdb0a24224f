"""A small WebSocket client (RFC 6455) for the load generator in bench/server.py.

The benchmark shares two cores with the server it measures, so the client has to be
cheap: this is a plain `asyncio.Protocol` whose `data_received` splits frames and calls
`on_text(text, t)` synchronously, with no task, future or queue per message, and `t`
taken once per read (every frame of one read arrived at the same moment). Sending is a
synchronous `transport.write` of one masked frame. No extensions are offered, so
permessage-deflate is off, as it is on the servers.

It answers pings (uvicorn pings every 20 s) and close frames; it does not validate UTF-8
or enforce a size limit: it only ever talks to the two servers of the benchmark.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import struct
import time
from collections.abc import Callable

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA


def _mask(payload: bytes, key: bytes) -> bytes:
    n = len(payload)
    if not n:
        return payload
    keys = (key * ((n >> 2) + 1))[:n]
    return (int.from_bytes(payload, "little") ^ int.from_bytes(keys, "little")).to_bytes(n, "little")


class WSClient(asyncio.Protocol):
    def __init__(
        self,
        host: str,
        port: int,
        path: str,
        on_text: Callable[[str, float], None],
        on_close: Callable[[WSClient], None] | None = None,
    ) -> None:
        self.host, self.port, self.path = host, port, path
        self.on_text = on_text
        self.on_close = on_close
        self.transport: asyncio.Transport | None = None
        self.opened: asyncio.Future = asyncio.get_running_loop().create_future()
        self.close_code: int | None = None
        self.closed = False
        self._key = base64.b64encode(os.urandom(16))
        self._accept = base64.b64encode(hashlib.sha1(self._key + _GUID).digest()).decode()
        self._in_handshake = True
        self._buf = b""
        self._frag: list[bytes] | None = None
        self._frag_op = OP_TEXT
        self._close_sent = False

    # ------------------------------------------------------------ asyncio callbacks

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        request = (
            f"GET {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {self._key.decode()}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        transport.write(request.encode())  # type: ignore[attr-defined]

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.close_code is None:
            self.close_code = 1006
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(f"connection lost during handshake: {exc}"))
        if self.on_close is not None:
            self.on_close(self)

    def data_received(self, data: bytes) -> None:
        t = time.monotonic()
        if self._buf:
            data = self._buf + data
            self._buf = b""
        if self._in_handshake:
            end = data.find(b"\r\n\r\n")
            if end < 0:
                self._buf = data
                return
            head = data[:end].decode("latin-1")
            status = head.split(" ", 2)[1] if " " in head else ""
            if status != "101" or self._accept not in head:
                self.opened.set_exception(ConnectionError(f"handshake refused: {head.splitlines()[0]!r}"))
                assert self.transport is not None  # data comes only after connection_made
                self.transport.close()
                return
            self._in_handshake = False
            self.opened.set_result(None)
            data = data[end + 4 :]
        self._frames(data, t)

    # ------------------------------------------------------------ frames

    def _frames(self, data: bytes, t: float) -> None:
        n = len(data)
        i = 0
        while n - i >= 2:
            b0 = data[i]
            b1 = data[i + 1]
            length = b1 & 0x7F
            j = i + 2
            if length == 126:
                if n - j < 2:
                    break
                length = (data[j] << 8) | data[j + 1]
                j += 2
            elif length == 127:
                if n - j < 8:
                    break
                length = int.from_bytes(data[j : j + 8], "big")
                j += 8
            key = None
            if b1 & 0x80:  # servers do not mask, but be lenient
                if n - j < 4:
                    break
                key = data[j : j + 4]
                j += 4
            if n - j < length:
                break
            payload = data[j : j + length]
            if key is not None:
                payload = _mask(payload, key)
            i = j + length
            op = b0 & 0x0F
            if op in (OP_TEXT, OP_BINARY, OP_CONT):
                if op != OP_CONT:
                    self._frag_op = op
                    self._frag = None
                if not b0 & 0x80:  # not the final fragment
                    if self._frag is None:
                        self._frag = []
                    self._frag.append(payload)
                    continue
                if self._frag is not None:
                    self._frag.append(payload)
                    payload = b"".join(self._frag)
                    self._frag = None
                if self._frag_op == OP_TEXT:
                    self.on_text(payload.decode(), t)
            elif op == OP_PING:
                self._send_frame(OP_PONG, payload)
            elif op == OP_CLOSE:
                self.close_code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
                if not self._close_sent:
                    self._send_frame(OP_CLOSE, payload[:2])
                    self._close_sent = True
                assert self.transport is not None
                self.transport.close()
                return
        if i < n:
            self._buf = data[i:]

    def _send_frame(self, op: int, payload: bytes) -> None:
        if self.closed or self.transport is None or self.transport.is_closing():
            return
        n = len(payload)
        if n < 126:
            head = bytes((0x80 | op, 0x80 | n))
        elif n < 65536:
            head = struct.pack("!BBH", 0x80 | op, 0xFE, n)
        else:
            head = struct.pack("!BBQ", 0x80 | op, 0xFF, n)
        key = os.urandom(4)
        self.transport.write(head + key + _mask(payload, key))

    # ------------------------------------------------------------ API

    def send_text(self, text: str) -> None:
        self._send_frame(OP_TEXT, text.encode())

    def close(self, code: int = 1000) -> None:
        if not self._close_sent and not self.closed:
            self._send_frame(OP_CLOSE, code.to_bytes(2, "big"))
            self._close_sent = True
        if self.transport is not None:
            self.transport.close()


async def connect(
    host: str,
    port: int,
    path: str,
    on_text: Callable[[str, float], None],
    on_close: Callable[[WSClient], None] | None = None,
    timeout: float = 10.0,
) -> WSClient:
    loop = asyncio.get_running_loop()
    _, client = await asyncio.wait_for(
        loop.create_connection(lambda: WSClient(host, port, path, on_text, on_close), host, port), timeout
    )
    await asyncio.wait_for(client.opened, timeout)
    return client
