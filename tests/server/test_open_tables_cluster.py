"""Open tables across two real server processes behind a real HAProxy (docker/cluster.py):
each process's list holds the other's open tables (asked with `scope=local`); "Play
now" pressed on a process without a lobby sends the person to the other's
(`{"join": CODE}`), whose join the balancer routes by the code's letter; and presses made
at the same moment through the balancer fill tables as on one process (the balancer
sends every press to one process, the next one while it drains).

Skipped when haproxy is not installed, as tests/server/test_scale.py.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import Counter

import httpx
import pytest

from tests.server.test_scale import haproxy_path, running_cluster
from tests.support.ws_client import Player

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


PRESSES, ADDRESSES, SEATS = 50, 10, 4


def from_address(address: str) -> httpx.AsyncClient:
    """A client whose connections leave from `address` (any of 127.0.0.0/8 is the
    loopback): the balancer names it in X-Forwarded-For, and the processes believe it."""
    return httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(local_address=address), timeout=30)


async def press_at_once(base: str, names: list[str], game: str) -> list[dict]:
    clients = [from_address(f"127.0.0.{10 + i}") for i in range(ADDRESSES)]
    try:
        answers = await asyncio.gather(
            *(
                clients[i % ADDRESSES].post(base + "/api/play-now", json={"name": name, "game": game})
                for i, name in enumerate(names)
            )
        )
    finally:
        for client in clients:
            await client.aclose()
    assert [a.status_code for a in answers] == [200] * len(names), [a.text for a in answers if a.status_code != 200]
    return [a.json() for a in answers]


def test_presses_at_once_through_the_balancer_open_no_more_tables_than_needed(cluster):
    """Fifty presses from ten addresses at once, through the balancer to two processes:
    everyone seated, in as few tables as one process would open; then two at once land at
    the same table. While the process taking presses drains, the next one takes them."""

    async def main():
        first = cluster.letters[0]
        async with httpx.AsyncClient(timeout=10) as http:  # the tables of the test before are full by now
            deadline = time.monotonic() + 10
            while [
                t
                for t in (await http.get(cluster.process_base(first) + "/api/tables")).json()["tables"]
                if not t["started"]
            ]:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.3)
        grants = await press_at_once(cluster.base, [f"P{i}" for i in range(PRESSES)], "nerts")
        assert not any("join" in g or g["spectator"] for g in grants), grants
        per_table = Counter(g["code"] for g in grants)
        assert len(per_table) == math.ceil(PRESSES / SEATS), per_table
        assert sorted(per_table.values()) == [PRESSES % SEATS] + [SEATS] * (PRESSES // SEATS)
        assert {code[0] for code in per_table} == {first}  # one process takes every press
        two = await press_at_once(cluster.base, ["Ann", "Bob"], "demon")
        assert two[0]["code"] == two[1]["code"], two
        cluster.drain(first)
        try:
            await asyncio.to_thread(cluster.wait_servers, "play_now", set(cluster.letters[1:2]))
            await asyncio.sleep(1.2)  # every snapshot rebuilt
            # the next process takes the presses, and sends both to the lobby of Ann and Bob
            later = await press_at_once(cluster.base, ["Cy", "Di"], "demon")
            assert later == [{"join": two[0]["code"]}] * 2, later
            async with httpx.AsyncClient(timeout=10) as http:
                for name in ("Cy", "Di"):  # as the page does: the balancer routes by the code
                    seat = await http.post(f"{cluster.base}/api/rooms/{two[0]['code']}/join", json={"name": name})
                    assert seat.status_code == 200 and not seat.json()["spectator"], seat.text
            await asyncio.sleep(1.2)
            # no Demon lobby is left anywhere: the next process opens one, and both sit there
            fresh = await press_at_once(cluster.base, ["Ed", "Flo"], "demon")
            assert fresh[0]["code"] == fresh[1]["code"] and fresh[0]["code"][0] == cluster.letters[1], fresh
        finally:
            cluster.drain(first, accepting=True)
            await asyncio.to_thread(cluster.wait_servers, "play_now", set(cluster.letters))

    asyncio.run(main())


def test_a_person_removed_at_another_process_s_table_presses_again_without_it(cluster):
    """ "Play now" sends a person to a lobby on another process, whose host removed them:
    only that process knows, so the join is refused (403), and the page presses again
    naming that table in `avoid` (static/tables/play-now.js), and gets a seat elsewhere."""

    async def main():
        other = cluster.letters[1]  # not the process that takes the presses
        async with httpx.AsyncClient(timeout=10) as http:
            body = {"name": "Host", "open": True, "game": "nerts", "language": "fi"}
            grant = (await http.post(cluster.process_base(other) + "/api/rooms", json=body)).json()
            code = grant["code"]
        async with from_address("127.0.0.40") as eve:
            joined = await eve.post(f"{cluster.base}/api/rooms/{code}/join", json={"name": "Eve"})
            assert joined.status_code == 200, joined.text
            host = Player(cluster.ws_base, grant)
            await host.connect(protocol=2)  # a Nerts table
            await host.wait_for(lambda: host.state is not None and len(host.state["players"]) == 2, 5)
            await host.send({"type": "remove_player", "seat": joined.json()["seat"]})
            await host.wait_for(lambda: len(host.state["players"]) == 1, 5)
            await asyncio.sleep(1.2)  # every snapshot rebuilt: the lobby is listed with a free seat
            press = {"name": "Eve", "game": "nerts", "language": "fi"}
            first = (await eve.post(cluster.base + "/api/play-now", json=press)).json()
            assert first == {"join": code}, first  # the process taking presses cannot know
            refused = await eve.post(f"{cluster.base}/api/rooms/{code}/join", json={"name": "Eve", "seat_only": True})
            assert refused.status_code == 403, refused.text
            again = await eve.post(cluster.base + "/api/play-now", json={**press, "avoid": [code]})
            assert again.status_code == 200 and again.json().get("seat") is not None, again.text
            assert again.json()["code"] != code
            await host.close()

    asyncio.run(main())
