"""The SQLite write-ahead log stays within DEMON_WAL_LIMIT_MB while a
real uvicorn is flooded with writes (new Devil's Grip games from several addresses).

Before, the WAL was checkpointed only every 5 s, so a burst could grow it past the limit
in between (75.6 MB against 64 in the black-box run); the limit only truncated it after
the next checkpoint.
"""

from __future__ import annotations

import os
import threading
import time

import httpx
import pytest

from tests.support.live_server import LiveServer

LIMIT_MB = 8.0
FLOOD_S = 8.0  # more than the 5 s timer, so the timer alone cannot keep it down


@pytest.mark.slow
def test_the_wal_stays_within_its_limit_under_a_flood_of_writes(tmp_path):
    with LiveServer(tmp_path, wal_limit_mb=LIMIT_MB, winnable_ready=0) as srv:
        wal = tmp_path / "demon.sqlite3-wal"
        largest = 0
        created = [0]
        stop = threading.Event()

        def flood(source: str) -> None:
            with httpx.Client(
                base_url=srv.base, transport=httpx.HTTPTransport(local_address=source), timeout=5
            ) as http:
                while not stop.is_set():
                    if http.post("/api/grip", json={}).status_code == 200:
                        created[0] += 1

        threads = [threading.Thread(target=flood, args=(f"127.0.70.{10 + i}",)) for i in range(3)]
        for t in threads:
            t.start()
        started = time.monotonic()
        while time.monotonic() - started < FLOOD_S:
            try:
                largest = max(largest, os.path.getsize(wal))
            except OSError:
                pass
            time.sleep(0.01)
        stop.set()
        for t in threads:
            t.join()
        # A new game writes about 25 KB of WAL (pages of its row and indexes; 849 games made
        # 22.5 MB before the fix): enough games that the flood alone passes the limit.
        assert created[0] * 25 / 1024 > 1.5 * LIMIT_MB, (
            f"the flood wrote too little to test anything ({created[0]} games)"
        )
        print(f"largest WAL {largest / 1024 / 1024:.2f} MB of {LIMIT_MB} MB, {created[0]} games in {FLOOD_S} s")
        assert largest <= LIMIT_MB * 1024 * 1024, f"WAL reached {largest / 1024 / 1024:.2f} MB ({created[0]} games)"
