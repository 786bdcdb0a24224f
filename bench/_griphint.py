"""Devil's Grip clients that ask for hints continuously (bench/server.py --grip-hinters).

Each client plays its own deal by the hints: ask (POST op=hint), play the hinted action,
ask again; a finished deal is replaced by a new one. The time from sending a hint
request to its answer is recorded, with the answer's status (200, or 503 when the
server's hint queue was full, after which the client waits the Retry-After it was given;
the bench server's rate limits are raised, so 429 would mean a client misbehaved).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter

import httpx


class GripHinters:
    def __init__(self, base: str, n: int, seed: int = 1) -> None:
        self.base = base
        self.n = n
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.status: Counter = Counter()
        self.deals = 0
        self._tasks: list[asyncio.Task] = []
        self._http: httpx.AsyncClient | None = None
        self.recording = False

    async def start(self) -> None:
        self._http = httpx.AsyncClient(base_url=self.base, timeout=30,
                                       limits=httpx.Limits(max_connections=self.n + 2))
        self._tasks = [asyncio.create_task(self._client(i)) for i in range(self.n)]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._http is not None:
            await self._http.aclose()

    def reset(self) -> None:
        self.latencies.clear()
        self.status.clear()

    async def _new_game(self) -> tuple[str, dict]:
        r = await self._http.post("/api/grip", json={"number": self.rng.randrange(1, 10**9),
                                                     "passes": self.rng.choice([1, 3, None])})
        r.raise_for_status()
        game = r.json()
        self.deals += 1
        return game["id"], {"Authorization": f"Bearer {game['token']}"}

    async def _client(self, i: int) -> None:
        gid, auth = await self._new_game()
        while True:
            t0 = time.perf_counter()
            r = await self._http.post(f"/api/grip/{gid}", headers=auth, json={"op": "hint"})
            dt = time.perf_counter() - t0
            if self.recording:
                self.latencies.append(dt)
                self.status[r.status_code] += 1
            if r.status_code == 200:
                game = r.json()
                action = game["hint"]
                if action is None:
                    gid, auth = await self._new_game()
                    continue
                r = await self._http.post(f"/api/grip/{gid}", headers=auth, json={"op": "action", "action": action})
                if r.status_code == 200 and r.json()["state"]["over"]:
                    gid, auth = await self._new_game()
            elif r.status_code == 409:  # the deal is over
                gid, auth = await self._new_game()
            else:  # 503 (queue full) or 429: wait as the answer says, like the page
                await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
