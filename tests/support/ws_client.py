"""A scripted player: one real WebSocket, and the client-side state rules of the protocol.

It applies events exactly as docs/protocol.md tells a browser to (drop duplicates, resync
on a gap, a snapshot replaces everything), so tests can compare what different clients
believe with what the server holds.
"""

from __future__ import annotations

import asyncio
import copy
import json
import socket
from typing import Any

import httpx
import websockets


async def create_room(base: str, name: str = "Ann", **options: Any) -> dict:
    async with httpx.AsyncClient() as http:
        r = await http.post(base + "/api/rooms", json={"name": name, **options})
        r.raise_for_status()
        return r.json()


async def join_room(base: str, code: str, name: str) -> dict:
    async with httpx.AsyncClient() as http:
        r = await http.post(f"{base}/api/rooms/{code}/join", json={"name": name})
        r.raise_for_status()
        return r.json()


class Player:
    def __init__(self, ws_base: str, grant: dict) -> None:
        self.ws_base = ws_base
        self.grant = grant
        self.code = grant["code"]
        self.token = grant["token"]
        self.ws: Any = None
        # resync requests sent from the reader: held so the loop does not drop them unfinished
        self._pending: set[asyncio.Future[Any]] = set()
        self.state: dict | None = None
        self.v: int | None = None
        self.epoch: str | None = None  # the server run `v` belongs to (from `welcome`)
        self.legal: list[dict] = []
        self.replies: dict[str, dict] = {}
        self.errors: list[dict] = []
        self.received: list[dict] = []  # every message, in order
        self.frames = 0  # text frames they came in
        self.frame_of: list[int] = []  # for each message of `received`, the frame it came in
        self.gaps = 0
        self.close_code: int | None = None
        self._reader: asyncio.Task | None = None
        self._changed = asyncio.Event()
        self._seq = 0

    @property
    def seat(self) -> int | None:
        me = self.me()
        return me["seat"] if me else None

    def me(self) -> dict | None:
        if not self.state:
            return None
        return next((p for p in self.state["players"] if p["id"] == self.grant["you"]), None)

    async def connect(
        self,
        *,
        resume: bool = False,
        origin: str | None = None,
        tiny_buffers: bool = False,
        protocol: int | None = None,
    ) -> None:
        """`tiny_buffers` makes a client whose socket fills up fast (slow-reader tests);
        `protocol`: what the hello says the client speaks (none: an old page's hello)."""
        headers = {"Origin": origin} if origin else None
        extra: dict[str, Any] = {}
        if tiny_buffers:
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
            host, port = self.ws_base.split("//")[1].split(":")
            sock.connect((host, int(port)))
            sock.setblocking(False)
            extra = {"sock": sock, "max_queue": 1}
        self.ws = await websockets.connect(
            f"{self.ws_base}/ws/{self.code}", additional_headers=headers, compression=None, max_size=2**22, **extra
        )
        hello: dict[str, Any] = {
            "type": "hello",
            "token": self.token,
            "v": self.v if resume else None,
            "epoch": self.epoch if resume else None,
        }
        if protocol is not None:
            hello["protocol"] = protocol
        await self.ws.send(json.dumps(hello))
        self.close_code = None
        self._reader = asyncio.create_task(self._read())

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.wait([self._reader], timeout=2)

    async def send(self, message: dict) -> None:
        await self.ws.send(json.dumps(message))

    async def act(self, action: dict, action_id: str | None = None) -> str:
        self._seq += 1
        action_id = action_id or f"a{self._seq}"
        await self.send({"type": "action", "id": action_id, "action": action})
        return action_id

    async def reply(self, action_id: str, timeout: float = 15.0) -> dict:
        await self.wait_for(lambda: action_id in self.replies, timeout)
        return self.replies[action_id]

    async def wait_for(self, predicate, timeout: float = 15.0) -> None:
        async def waiter() -> None:
            while not predicate():
                self._changed.clear()
                if self.close_code is not None and not predicate():
                    raise ConnectionError(f"socket closed with {self.close_code}")
                await self._changed.wait()

        await asyncio.wait_for(waiter(), timeout)

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                self.frames += 1
                for line in raw.split("\n"):  # one or more messages per frame, one per line
                    self.frame_of.append(self.frames)
                    self.handle(json.loads(line))
                self._changed.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            code = self.ws.close_code if self.ws is not None else None
            self.close_code = code if code is not None else 1006
            self._changed.set()

    # ------------------------------------------------------------ protocol rules

    def handle(self, msg: dict) -> None:
        self.received.append(msg)
        kind = msg["type"]
        if kind == "welcome":
            self.epoch = msg.get("epoch")
        if kind == "snapshot":
            self.state = copy.deepcopy(msg["state"])
            self.v = msg["v"]
        elif kind == "event":
            if self.v is None or msg["v"] <= self.v:
                return
            if msg["v"] != self.v + 1:
                self.gaps += 1
                self._pending.add(asyncio.ensure_future(self.send({"type": "resync"})))
                return
            self.apply_event(msg["event"])
            self.v = msg["v"]
        elif kind == "legal":
            self.legal = msg["actions"]
        elif kind in ("ack", "rejected"):
            self.replies[msg["id"]] = msg
        elif kind == "error":
            self.errors.append(msg)

    def apply_event(self, event: dict) -> None:
        assert self.state is not None
        kind = event["kind"]
        if kind == "room":
            self.state.update(event["state"])
        elif kind == "round_started":
            self.state["round"] = copy.deepcopy(event["round"])
            self.state["round_no"] = event["round_no"]
        elif kind == "move":
            rnd = self.state["round"]
            rnd["seats"][event["seat"]] = event["seat_view"]
            for change in event["foundations"]:
                entry = {k: change[k] for k in ("pile", "top", "seat", "count")}
                if change["pile"] < len(rnd["foundations"]):
                    rnd["foundations"][change["pile"]] = entry
                else:
                    rnd["foundations"].append(entry)
            rnd["stuck"] = event["stuck"]
            rnd["cards_home"] = event["cards_home"]
            if "stalled" in rnd and any(e["type"] == "played" for e in event["engine"]):
                rnd["stalled"] = False  # Nerts: a card home ends the stall's watch (N13)
        elif kind == "votes":
            self.state["round"]["votes"] = event["votes"]
        elif kind == "round_ended":
            self.state["result"] = event["result"]
        elif kind == "countdown":
            pass
        elif kind == "absent":
            self.state["round"]["absent"] = event["absent"]
            self.state["round"]["stuck"] = event["stuck"]
        elif kind == "stall":  # Nerts: every listed seat's waste went under its stock
            rnd = self.state["round"]
            for seat, stock in zip(event["seats"], event["stock_counts"]):
                rnd["seats"][seat].update(stock=stock, waste=[], waste_count=0)
            rnd["stalled"] = True
