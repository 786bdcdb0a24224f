"""The baseline for bench/server.py: a bare WebSocket fan-out server, and nothing else.

    python bench/bare_server.py --port 8765 [--impl starlette|websockets] [--loop auto|uvloop|asyncio]

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

`--loop` picks the event loop as `DEMON_LOOP` does for ours (app/server/loop/choice.py):
`auto` (uvloop when it imports, else asyncio's), `uvloop` or `asyncio`; bench/server.py
passes the loop our server runs on, so the two differ by the application only. Once
the loop runs, the server prints `bare relay loop: NAME` (read from the running loop,
not the option) to its output, where bench/server.py reads it.

Any TCP connection that completes means the server is ready.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
from collections.abc import AsyncIterator, Callable


def loop_factory(choice: str) -> Callable[[], asyncio.AbstractEventLoop]:
    """The loop `--loop` asks for (an ImportError for `uvloop` without it)."""
    if choice != "asyncio":
        try:
            uvloop = importlib.import_module("uvloop")  # by name: mypy need not find it where it is missing
        except ImportError:
            if choice == "uvloop":
                raise
        else:
            factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
            return factory
    return asyncio.new_event_loop


def say_loop() -> None:
    """The line bench/server.py reads: which loop runs, from the loop's own class."""
    module = type(asyncio.get_running_loop()).__module__.split(".")[0]
    print(f"bare relay loop: {module}", flush=True)


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

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        say_loop()
        yield

    return Starlette(routes=[WebSocketRoute("/ws/{room}", fan_out)], lifespan=lifespan)


def run_starlette(host: str, port: int, loop: str) -> None:
    import uvicorn

    factory = loop_factory(loop)  # fails here, as ours does, when the loop asked for is missing
    uvicorn.run(
        starlette_app(),
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=4096,
        ws_per_message_deflate=False,
        log_level="warning",
        lifespan="on",  # only to print the loop's line once it runs
        loop="asyncio" if factory is asyncio.new_event_loop else "uvloop",
    )


def run_websockets(host: str, port: int, loop: str) -> None:
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
        say_loop()
        async with serve(fan_out, host, port, compression=None, max_size=4096) as server:
            await server.serve_forever()

    try:
        with asyncio.Runner(loop_factory=loop_factory(loop)) as runner:
            runner.run(main())
    except KeyboardInterrupt:
        pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--impl", choices=("starlette", "websockets"), default="starlette")
    ap.add_argument("--loop", choices=("auto", "uvloop", "asyncio"), default="auto")
    args = ap.parse_args()
    if args.impl == "starlette":
        run_starlette(args.host, args.port, args.loop)
    else:
        run_websockets(args.host, args.port, args.loop)


if __name__ == "__main__":
    main()
