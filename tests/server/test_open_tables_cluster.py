"""Open tables across two real server processes behind a real HAProxy (docker/cluster.py):
each process's list holds the other's open tables (asked with `scope=local`), and "Play
now" pressed on a process without a lobby sends the person to the other's
(`{"join": CODE}`), whose join the balancer routes by the code's letter.

Skipped when haproxy is not installed, as tests/server/test_scale.py.
"""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from tests.server.test_scale import haproxy_path, running_cluster

pytestmark = pytest.mark.skipif(haproxy_path() is None, reason="haproxy is not installed")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    yield from running_cluster(tmp_path_factory, 2)


async def listed_codes(base: str) -> set[str]:
    async with httpx.AsyncClient(timeout=10) as http:
        answer = (await http.get(base + "/api/tables")).json()
    return {t["code"] for t in answer["tables"]}


def test_every_process_lists_both_and_play_now_joins_the_other_process(cluster):
    async def main():
        async with httpx.AsyncClient(timeout=10) as http:
            codes: dict[str, str] = {}
            for letter in cluster.letters:  # an open table of two seats made on each process
                body = {"name": letter, "open": True, "max_players": 2}
                grant = (await http.post(cluster.process_base(letter) + "/api/rooms", json=body)).json()
                codes[letter] = grant["code"]
            assert {code[0] for code in codes.values()} == set(cluster.letters)
            deadline = time.monotonic() + 10
            for base in [cluster.base] + [cluster.process_base(x) for x in cluster.letters]:
                while set(codes.values()) - await listed_codes(base):
                    assert time.monotonic() < deadline, base
                    await asyncio.sleep(0.3)
            local = (await http.get(cluster.process_base("A") + "/api/tables?scope=local")).json()
            assert local["shard"] == "A" and {t["code"][0] for t in local["tables"]} == {"A"}
            # A's table fills: A has no lobby left, B has one.
            filled = await http.post(f"{cluster.base}/api/rooms/{codes['A']}/join", json={"name": "Filler"})
            assert filled.status_code == 200 and not filled.json()["spectator"]
            await asyncio.sleep(1.2)  # every snapshot rebuilt
            pressed = await http.post(cluster.process_base("A") + "/api/play-now", json={"name": "Wanderer"})
            assert pressed.status_code == 200, pressed.text
            assert pressed.json() == {"join": codes["B"]}
            # The page then joins through the balancer, which sends the code to its process.
            seat = await http.post(f"{cluster.base}/api/rooms/{codes['B']}/join", json={"name": "Wanderer"})
            assert seat.status_code == 200 and seat.json()["code"] == codes["B"]

    asyncio.run(main())
