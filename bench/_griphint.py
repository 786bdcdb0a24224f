"""Devil's Grip clients that ask for hints continuously (bench/server.py --grip-hinters).

Run as its own process (`python bench/_griphint.py BASE N --warm W --seconds S`), so that
its HTTP clients do not share an event loop with the sockets whose latency bench/server.py
measures: it plays for W seconds, records for S seconds, and prints what it recorded as
one JSON line.

Each client plays its own deal by the hints, as the page does since it plays with its own rules: ask (POST
op=hint), send the hinted action as a batch of one (POST .../moves {base, ops}: the page
has already played it), ask again; a finished deal is replaced by a new one. The time from sending a hint
request to its answer is recorded for answers (200). Every request's status is counted:
200, or 503 when the server refused it (its hint queue full, or no worker free before
the hint's deadline), after which the client waits the Retry-After it was given. The
bench server's rate limits are raised, so a 429 would mean a client misbehaved.
"""

from __future__ import annotations

import argparse
import asyncio
import json
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
        self._http = httpx.AsyncClient(base_url=self.base, timeout=30, limits=httpx.Limits(max_connections=self.n + 2))
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
        assert self._http is not None  # start() made it
        r = await self._http.post(
            "/api/grip", json={"number": self.rng.randrange(1, 10**9), "passes": self.rng.choice([1, 3, None])}
        )
        r.raise_for_status()
        game = r.json()
        self.deals += 1
        return game["id"], {"Authorization": f"Bearer {game['token']}"}

    async def _client(self, i: int) -> None:
        assert self._http is not None
        gid, auth = await self._new_game()
        seq = 0  # the server's operation count of this client's game: the next batch's base
        while True:
            t0 = time.perf_counter()
            r = await self._http.post(f"/api/grip/{gid}", headers=auth, json={"op": "hint"})
            dt = time.perf_counter() - t0
            if self.recording:
                if r.status_code == 200:  # the latency of answers; refusals are counted
                    self.latencies.append(dt)
                self.status[r.status_code] += 1
            if r.status_code == 200:
                game = r.json()
                action = game["hint"]
                if action is None:
                    gid, auth = await self._new_game()
                    seq = 0
                    continue
                r = await self._http.post(
                    f"/api/grip/{gid}/moves",
                    headers=auth,
                    json={"base": seq, "ops": [{"op": "action", "action": action}]},
                )
                if r.status_code == 200:
                    seq = r.json()["seq"]
                if r.status_code != 200 or r.json()["state"]["over"]:
                    gid, auth = await self._new_game()
                    seq = 0
            elif r.status_code == 409:  # the deal is over
                gid, auth = await self._new_game()
                seq = 0
            else:  # 503 (queue full) or 429: wait as the answer says, like the page
                await asyncio.sleep(float(r.headers.get("Retry-After", "1")))


def percentile(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * p / 100))]


async def main_async(base: str, n: int, warm: float, seconds: float, seed: int) -> dict:
    hinters = GripHinters(base, n, seed)
    await hinters.start()
    try:
        await asyncio.sleep(warm)
        hinters.reset()
        hinters.recording = True
        t0 = time.monotonic()
        await asyncio.sleep(seconds)
        hinters.recording = False
        elapsed = time.monotonic() - t0
    finally:
        await hinters.stop()
    lat = sorted(hinters.latencies)
    # hints and their latency: answers (200) only; hint_status counts every request
    return {
        "hints": len(lat),
        "hints_s": len(lat) / elapsed,
        "hint_p50": percentile(lat, 50),
        "hint_p99": percentile(lat, 99),
        "hint_status": {str(k): v for k, v in hinters.status.items()},
        "deals": hinters.deals,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description="Devil's Grip clients asking hints continuously.")
    ap.add_argument("base")
    ap.add_argument("n", type=int)
    ap.add_argument("--warm", type=float, default=2.0)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(json.dumps(asyncio.run(main_async(args.base, args.n, args.warm, args.seconds, args.seed))), flush=True)


if __name__ == "__main__":
    main()
