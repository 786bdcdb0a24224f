"""The baseline for bench/server.py: a bare WebSocket fan-out server, and nothing else.

    python bench/bare_server.py --port 8765 [--impl starlette|websockets]

`/ws/{room}`: every text message a socket sends is sent, unchanged and unparsed, to every
socket of the same room, the sender included (its own copy is its acknowledgement, so a
closed-loop client knows when to send the next one). No authentication, no JSON, no
state but the room's list of sockets.

`--impl starlette` (the default, and the baseline bench/server.py uses) runs a minimal
Starlette app under uvicorn with exactly the transport settings of `python -m app`:
the `websockets-sansio` protocol, 4 KiB frames, permessage-deflate off, one worker.
So the difference between the two servers is our application (FastAPI routing, pydantic
validation, rooms, engine, JSON views, SQLite) and not the HTTP/WebSocket stack.
`--impl websockets` runs the `websockets` library's own asyncio server (no ASGI layer,
`broadcast()` fan-out) for comparison: the floor for a Python WebSocket server.

Any TCP connection that completes means the server is ready.
"""

from __future__ import annotations

import argparse
import asyncio


def starlette_app():
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket

    rooms: dict[str, list[WebSocket]] = {}

    async def fan_out(websocket: WebSocket) -> None:
        await websocket.accept()
        room = rooms.setdefault(websocket.path_params["room"], [])
        room.append(websocket)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    continue
                # uvicorn's send only writes to the transport (it waits only when the
                # socket's buffer is full), so this loop is the whole fan-out.
                for peer in tuple(room):
                    try:
                        await peer.send_text(text)
                    except Exception:  # a peer that just went away
                        pass
        finally:
            room.remove(websocket)
            if not room:
                rooms.pop(websocket.path_params["room"], None)

    return Starlette(routes=[WebSocketRoute("/ws/{room}", fan_out)])


def run_starlette(host: str, port: int) -> None:
    import uvicorn

    uvicorn.run(
        starlette_app(),
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=4096,
        ws_per_message_deflate=False,
        log_level="warning",
        lifespan="off",
    )


def run_websockets(host: str, port: int) -> None:
    from websockets.asyncio.server import broadcast, serve

    rooms: dict[str, set] = {}

    async def fan_out(ws) -> None:
        room = rooms.setdefault(ws.request.path, set())
        room.add(ws)
        try:
            async for text in ws:
                broadcast(room, text)
        finally:
            room.discard(ws)
            if not room:
                rooms.pop(ws.request.path, None)

    async def main() -> None:
        async with serve(fan_out, host, port, compression=None, max_size=4096) as server:
            await server.serve_forever()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--impl", choices=("starlette", "websockets"), default="starlette")
    args = ap.parse_args()
    if args.impl == "starlette":
        run_starlette(args.host, args.port)
    else:
        run_websockets(args.host, args.port)


if __name__ == "__main__":
    main()
