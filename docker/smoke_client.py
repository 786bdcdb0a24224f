"""The client half of docker/smoke.sh: talks to a running server like a browser would.

    python docker/smoke_client.py http BASE_URL VERSION LABEL
        /health, the home page and a rules text; one PASS/FAIL line per check.
    python docker/smoke_client.py ws BASE_URL LABEL
        creates a room, opens its WebSocket, says hello, expects welcome then snapshot;
        adds a second player and a second room, starts a round; prints READY and then
        waits for the server to close the sockets (smoke.sh stops the container
        meanwhile): every close code must be 1001 or 1012.

Standard library only, plus `websockets` for the ws command (the server's own dependency,
so the image has it: smoke.sh runs this inside a container of the image when the host's
python lacks it). Exit status: the number of failed checks (0 = all passed).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
import urllib.error
import urllib.request

failures = 0


def check(label: str, ok: bool, what: str, detail: str = "") -> bool:
    global failures
    failures += 0 if ok else 1
    line = f"{'PASS' if ok else 'FAIL'}  [{label}] {what}"
    if detail and not ok:
        line += f" -- {detail}"
    print(line, flush=True)
    return ok


def get(url: str) -> tuple[int, dict, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


def http_checks(base: str, version: str, label: str) -> None:
    try:
        status, _, body = get(base + "/health")
        health = json.loads(body)
        check(
            label,
            status == 200 and health.get("status") == "ok" and health.get("version") == version,
            f"GET /health -> 200 JSON with status ok, version {version}",
            f"status {status}, body {body[:200]!r}",
        )
        loop = (health.get("loop") or {}).get("impl")
        check(label, loop == "uvloop", "the server runs on uvloop (/health loop.impl)", f"loop.impl {loop!r}")
    except Exception as err:  # noqa: BLE001 - any failure is a FAIL line
        check(label, False, "GET /health", repr(err))
    try:
        status, headers, body = get(base + "/")
        ctype = {k.lower(): v for k, v in headers.items()}.get("content-type", "")
        check(
            label,
            status == 200 and ctype.startswith("text/html") and b"<html" in body.lower(),
            "GET / -> 200 text/html page (static/ found next to the package)",
            f"status {status}, content-type {ctype!r}, body {body[:120]!r}",
        )
    except Exception as err:  # noqa: BLE001
        check(label, False, "GET /", repr(err))
    try:
        status, _, body = get(base + "/static/rules/en/demon.md")
        check(
            label,
            status == 200 and body.startswith(b"#") and len(body) > 1000,
            f"GET /static/rules/en/demon.md -> 200 with the rules text ({len(body)} bytes, static/rules/ found)",
            f"status {status}, body {body[:120]!r}",
        )
    except Exception as err:  # noqa: BLE001
        check(label, False, "GET /static/rules/en/demon.md", repr(err))


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(
        url, method="POST", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.load(r)


async def until_closed(ws) -> str:
    """Read (and drop) whatever comes until the server closes; say how it closed."""
    import websockets

    try:
        while True:
            await asyncio.wait_for(ws.recv(), 30)
    except websockets.ConnectionClosed as closed:
        if closed.rcvd is None:
            return "1006 (no close frame: the connection just dropped)"
        return str(closed.rcvd.code)
    except TimeoutError:
        return "still open after 30 s"


class Messages:
    """The server's messages in order: a frame carries one or more, one JSON object per
    line (docs/protocol.md)."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.waiting: list[dict] = []

    async def next(self, timeout: float) -> dict:
        while not self.waiting:
            frame = await asyncio.wait_for(self.ws.recv(), timeout)
            self.waiting.extend(json.loads(line) for line in frame.split("\n"))
        return self.waiting.pop(0)


async def ws_checks(base: str, label: str) -> None:
    """Three sockets in two rooms, one of them starting a round, are all open when the
    server is stopped: every one must be closed with 1001 or 1012."""
    import websockets

    ws_base = "ws" + base[len("http") :] + "/ws/"
    try:
        room = post(base + "/api/rooms", {"name": "Smoke"})
        check(
            label,
            bool(room.get("code")) and bool(room.get("token")),
            f"POST /api/rooms -> room {room.get('code')}",
            repr(room),
        )
        ws = await websockets.connect(ws_base + room["code"], open_timeout=10)
        await ws.send(json.dumps({"type": "hello", "token": room["token"], "v": None}))
        inbox = Messages(ws)
        first = await inbox.next(10)
        check(
            label,
            first.get("type") == "welcome" and first.get("code") == room["code"],
            "WebSocket hello -> welcome",
            repr(first)[:200],
        )
        second = await inbox.next(10)
        check(label, second.get("type") == "snapshot", "then snapshot", repr(second)[:200])
    except Exception as err:  # noqa: BLE001 - any failure is a FAIL line
        check(label, False, "a room and its WebSocket (hello -> welcome, snapshot)", repr(err))
        return

    # Two more sockets: a second player in this room, and the host of another room.
    sockets = [ws]
    try:
        for grant in (
            post(base + f"/api/rooms/{room['code']}/join", {"name": "Smoke 2"}),
            post(base + "/api/rooms", {"name": "Smoke 3"}),
        ):
            other = await websockets.connect(ws_base + grant["code"], open_timeout=10)
            sockets.append(other)
            await other.send(json.dumps({"type": "hello", "token": grant["token"], "v": None}))
            hello = await Messages(other).next(10)
            assert hello.get("type") == "welcome", hello
        await ws.send(json.dumps({"type": "start"}))
        while True:  # the host sees the round's countdown begin
            message = await inbox.next(10)
            if message.get("type") == "event" and message["event"].get("kind") == "countdown":
                break
        check(label, True, "2 more WebSockets (a 2nd player, a 2nd room) welcomed; round started")
    except Exception as err:  # noqa: BLE001
        check(label, False, "2 more WebSockets (a 2nd player, a 2nd room) welcomed; round started", repr(err))

    print("READY", flush=True)  # smoke.sh now stops the server
    closes = await asyncio.gather(*(until_closed(s) for s in sockets))
    print(f"CLOSED_AT {time.time():.3f}", flush=True)
    check(
        label,
        all(c in ("1001", "1012") for c in closes),
        f"all {len(sockets)} WebSockets closed by the server with 1001 or 1012 (got {', '.join(closes)})",
    )


def main(argv: list[str]) -> int:
    if len(argv) == 4 and argv[0] == "http":
        http_checks(argv[1].rstrip("/"), argv[2], argv[3])
    elif len(argv) == 3 and argv[0] == "ws":
        asyncio.run(ws_checks(argv[1].rstrip("/"), argv[2]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return failures


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
