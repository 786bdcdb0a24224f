"""The open-tables list, one snapshot shared by every viewer (docs/decisions/0103).

Every home page open on the server asks `GET /api/tables` every `REFRESH_S` seconds. What
it is answered with is built at most once a second, whatever the number of viewers: the
rows of this process's open tables, and (with `DEMON_PEERS`) the other processes' rows,
which they answer from their own snapshot (`?scope=local`) and `Peers` keeps for a
second. Between rebuilds a request costs a dictionary lookup and, when the page already
holds this version (`If-None-Match` equal to the `ETag`), a 304 with no body. The ETag is
a hash of the body, so a rebuild that finds nothing changed keeps the viewers at 304.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from app.demon.hub.hub import Hub
from app.demon.room.views import TableRow, table_row
from app.server.cluster import Peers

REFRESH_S = 5  # how often a page asks (it reads this from the answer)
REBUILD_S = 1.0  # the snapshot is at most this old
MAX_LISTED = 100  # rows per answer: lobbies first, so a crowded server still shows where to sit
LOCAL = "/api/tables?scope=local"


@dataclass(frozen=True)
class Built:
    body: bytes
    etag: str
    rows: list[TableRow]


def order(rows: list[TableRow]) -> list[TableRow]:
    """Lobbies first, the fullest first; then tables that started (to watch)."""
    return sorted(rows, key=lambda r: (r["started"], -(r["players"] + r["bots"]), r["code"]))[:MAX_LISTED]


def built(rows: list[TableRow], enabled: bool = True, **extra: Any) -> Built:
    body = orjson.dumps({"enabled": enabled, "refresh_s": REFRESH_S, "tables": rows, **extra})
    return Built(body, '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"', rows)


class TablesSnapshot:
    def __init__(
        self, hub: Hub, peers: Peers, shard: str, enabled: bool, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.hub = hub
        self.peers = peers
        self.shard = shard
        self.enabled = enabled
        self.clock = clock
        self.rebuilds = 0  # local rebuilds since start (the bench reads it)
        self._local: tuple[float, Built, Built] | None = None  # when, for peers (with `shard`), for pages
        self._all: tuple[float, asyncio.Future[Built]] | None = None
        self.remote: list[TableRow] = []  # the other processes' rows, as of the last rebuild

    def local(self, *, for_peer: bool = True) -> Built:
        """This process's open tables, at most `REBUILD_S` old; `for_peer`: the answer to
        `?scope=local`, which names this process's shard."""
        now = self.clock()
        if not self.enabled:
            return built([], enabled=False)
        if self._local is None or now - self._local[0] >= REBUILD_S:
            rows = order([row for handle in self.hub.rooms.values() if (row := table_row(handle.room)) is not None])
            self._local = (now, built(rows, shard=self.shard), built(rows))
            self.rebuilds += 1
        return self._local[1] if for_peer else self._local[2]

    async def everything(self) -> Built:
        """Every process's open tables (this one's alone without peers), at most about
        `REBUILD_S` old; concurrent viewers share one rebuild."""
        if not self.enabled or not self.peers.urls:
            return self.local(for_peer=False)
        now = self.clock()
        if self._all is None or now - self._all[0] >= REBUILD_S:
            self._all = (now, asyncio.ensure_future(self._gather()))
        return await asyncio.shield(self._all[1])

    async def _gather(self) -> Built:
        remote: list[TableRow] = []
        complete = True
        for _peer, answer in await self.peers.ask(LOCAL):
            if answer is None:
                complete = False
            elif answer.get("shard") != self.shard:
                remote.extend(answer.get("tables", []))
        self.remote = remote
        return built(order(self.local().rows + remote), complete=complete)
