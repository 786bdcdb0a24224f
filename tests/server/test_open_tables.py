"""Open tables over a real uvicorn: the shared list and its 304s, "Play now" seating
strangers together (two presses at once, fifty presses from ten addresses), a play-now
lobby filled with bots at its time, the host removing a person (close 4003, then 403),
and DEMON_OPEN_TABLES=false. Client addresses come from X-Forwarded-For, believed from
the loopback because the server names it a trusted proxy (tests/server/test_trusted_proxies.py).
The rules of each piece without sockets: tests/rooms/test_open_tables.py."""

from __future__ import annotations

import asyncio
import math
import time
from collections import Counter

import httpx
import pytest

from tests.support.live_server import LiveServer
from tests.support.ws_client import Player

SETTINGS = {"trusted_proxies": "127.0.0.1", "countdown_s": 0.2, "bot_think_scale": 0.05, "test_seed": 288}


@pytest.fixture(scope="module")
def open_server(tmp_path_factory):
    with LiveServer(tmp_path_factory.mktemp("open"), **SETTINGS) as srv:
        yield srv


def at(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


async def post(server: LiveServer, path: str, body: dict, address: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.base, timeout=10) as http:
        return await http.post(path, json=body, headers=at(address))


async def listed(server: LiveServer, code: str) -> dict | None:
    async with httpx.AsyncClient(base_url=server.base, timeout=10) as http:
        tables = (await http.get("/api/tables")).json()["tables"]
    return next((t for t in tables if t["code"] == code), None)


async def eventually(check, timeout: float = 5.0):
    """`check()`'s answer once it is truthy: the list is rebuilt at most once a second."""
    deadline = time.monotonic() + timeout
    while not (answer := await check()):
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.2)
    return answer


def test_an_open_table_is_listed_and_a_page_holding_the_list_gets_304(open_server):
    async def main():
        grant = (
            await post(open_server, "/api/rooms", {"name": "Ann", "open": True, "language": "de"}, "198.51.100.1")
        ).json()
        closed = (await post(open_server, "/api/rooms", {"name": "Secret"}, "198.51.100.1")).json()
        row = await eventually(lambda: listed(open_server, grant["code"]))
        assert row == {
            "code": grant["code"],
            "game": "demon",
            "players": 1,
            "bots": 0,
            "max_players": 8,
            "started": False,
            "language": "de",
            "host": "Ann",
            "play_now": False,
            "fill_at": None,
        }
        assert await listed(open_server, closed["code"]) is None
        async with httpx.AsyncClient(base_url=open_server.base, timeout=10) as http:
            first = await http.get("/api/tables")
            assert first.json()["enabled"] is True and first.json()["refresh_s"] == 5
            assert set(first.json()) == {"enabled", "refresh_s", "tables"}
            assert grant["token"] not in first.text and "198.51.100" not in first.text
            etag = first.headers["etag"]
            again = await http.get("/api/tables", headers={"If-None-Match": etag})
            assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
        await post(open_server, f"/api/rooms/{grant['code']}/join", {"name": "Bo"}, "198.51.100.2")
        row = await eventually(
            lambda: _with(listed(open_server, grant["code"]), lambda r: r and r["players"] == 2 and r)
        )
        async with httpx.AsyncClient(base_url=open_server.base, timeout=10) as http:
            changed = await http.get("/api/tables", headers={"If-None-Match": etag})
            assert changed.status_code == 200 and changed.headers["etag"] != etag
        # The host closes it: off the list.
        host = Player(open_server.ws_base, grant)
        await host.connect()
        await host.wait_for(lambda: host.state is not None and host.state.get("open") is True, 5)
        await host.send({"type": "set_open", "open": False})
        await host.wait_for(lambda: host.state["open"] is False, 5)
        await eventually(lambda: _with(listed(open_server, grant["code"]), lambda r: r is None))
        await host.close()

    asyncio.run(main())


async def _with(awaitable, predicate):
    return predicate(await awaitable)


def test_play_now_seats_strangers_together_and_two_presses_at_once_share_a_table(open_server):
    async def main():
        body = {"name": "Zed", "game": "nerts", "language": "ru", "level": "easy"}
        a, b = await asyncio.gather(
            post(open_server, "/api/play-now", body, "203.0.113.21"),
            post(open_server, "/api/play-now", {**body, "name": "Yan"}, "203.0.113.22"),
        )
        assert a.status_code == b.status_code == 200, (a.text, b.text)
        first, second = a.json(), b.json()
        assert first["code"] == second["code"] and first["you"] != second["you"]
        assert {first["seat"], second["seat"]} == {0, 1} and not first["spectator"]
        assert first["fill_at"] == second["fill_at"] and first["fill_at"] > time.time() * 1000
        row = await eventually(lambda: listed(open_server, first["code"]))
        assert (row["play_now"], row["players"], row["max_players"], row["language"]) == (True, 2, 4, "ru")
        assert row["house_rules"] and row["fill_at"] == first["fill_at"]
        seat = Player(open_server.ws_base, first)
        await seat.connect(protocol=2)
        await seat.wait_for(lambda: seat.state is not None, 5)
        assert seat.state["open"] is True and seat.state["fill_at"] == first["fill_at"]
        await seat.close()
        bad = await post(open_server, "/api/play-now", {**body, "level": "godlike"}, "203.0.113.21")
        assert bad.status_code == 422

    asyncio.run(main())


def test_a_play_now_lobby_fills_with_bots_at_its_time_and_plays(open_server):
    async def main():
        body = {"name": "Solo", "game": "demon", "language": "fi", "level": "easy"}
        # No open Demon lobby is left by the tests before (the first one closed its table),
        # so this press opens a table of its own.
        grant = (await post(open_server, "/api/play-now", body, "203.0.113.31")).json()
        assert grant["seat"] == 0 and grant["fill_at"] is not None
        seat = Player(open_server.ws_base, grant)
        await seat.connect()
        wait_s = grant["fill_at"] / 1000 - time.time()
        assert 15 < wait_s <= 20
        await seat.wait_for(lambda: seat.state is not None and seat.state["phase"] == "playing", wait_s + 15)
        bots = [p for p in seat.state["players"] if p["bot"]]
        assert [b["bot"] for b in bots] == ["easy"] * 3 and seat.state["fill_at"] is None
        await seat.close()

    asyncio.run(main())


def test_the_host_removes_a_person_who_then_cannot_come_back(open_server):
    async def main():
        grant = (await post(open_server, "/api/rooms", {"name": "Host", "open": True}, "198.51.100.40")).json()
        code = grant["code"]
        ann_grant = (await post(open_server, f"/api/rooms/{code}/join", {"name": "Ann"}, "198.51.100.41")).json()
        host, ann = Player(open_server.ws_base, grant), Player(open_server.ws_base, ann_grant)
        await host.connect()
        await ann.connect()
        await host.wait_for(lambda: host.state is not None and len(host.state["players"]) == 2, 5)
        await ann.send({"type": "remove_player", "seat": 0})
        await ann.wait_for(lambda: ann.errors and ann.errors[-1]["code"] == "not_host", 5)
        await host.send({"type": "remove_player", "seat": 0})
        await host.wait_for(lambda: host.errors and host.errors[-1]["code"] == "bad_seat", 5)
        await host.send({"type": "remove_player", "seat": ann.seat})
        await ann.wait_for(lambda: ann.close_code is not None, 5)
        assert ann.close_code == 4003 and ann.ws.close_reason == "removed by the host"
        await host.wait_for(lambda: len(host.state["players"]) == 1, 5)
        again = await post(open_server, f"/api/rooms/{code}/join", {"name": "Ann"}, "198.51.100.41")
        assert again.status_code == 403 and again.json()["detail"] == "You were removed from this table."
        old = Player(open_server.ws_base, ann_grant)  # the old token opens nothing
        with pytest.raises(ConnectionError):
            await old.connect()
            await old.wait_for(lambda: old.state is not None, 5)
        other = await post(open_server, f"/api/rooms/{code}/join", {"name": "Cy"}, "198.51.100.42")
        assert other.status_code == 200
        await host.close()

    asyncio.run(main())


def test_a_join_for_a_seat_only_is_refused_where_no_lobby_seat_is_left(open_server):
    """What the page sends when "Play now" names another process's table (`seat_only`): a
    seat in an open lobby, else 409 and nothing changes (no spectator's place); and "Play
    now"'s `avoid` is checked like the rest of its body."""

    async def main():
        grant = (
            await post(open_server, "/api/rooms", {"name": "Hal", "open": True, "max_players": 2}, "198.51.100.60")
        ).json()
        code = grant["code"]
        seat = await post(open_server, f"/api/rooms/{code}/join", {"name": "Ivy", "seat_only": True}, "198.51.100.61")
        assert seat.status_code == 200 and seat.json()["seat"] == 1, seat.text
        full = await post(open_server, f"/api/rooms/{code}/join", {"name": "Jo", "seat_only": True}, "198.51.100.62")
        assert full.status_code == 409 and full.json()["detail"] == "This table has no free seat in its lobby any more."
        async with httpx.AsyncClient(base_url=open_server.base, timeout=10) as http:
            summary = (await http.get(f"/api/rooms/{code}")).json()
        assert [p["name"] for p in summary["players"]] == ["Hal", "Ivy"]  # Jo is nowhere
        shut = (await post(open_server, "/api/rooms", {"name": "Kim", "max_players": 3}, "198.51.100.63")).json()
        closed = await post(
            open_server, f"/api/rooms/{shut['code']}/join", {"name": "Lu", "seat_only": True}, "198.51.100.64"
        )
        assert closed.status_code == 409  # a free seat, but not an open table
        watcher = await post(open_server, f"/api/rooms/{code}/join", {"name": "Jo"}, "198.51.100.62")
        assert watcher.status_code == 200 and watcher.json()["spectator"]  # without it, as before
        body = {"name": "Mo", "game": "nerts", "language": "ro"}
        for avoid in (["A" * 13], ["AB/CD"], ["ABCDEFG"] * 5, "ABCDEFG"):
            bad = await post(open_server, "/api/play-now", {**body, "avoid": avoid}, "198.51.100.65")
            assert bad.status_code == 422, avoid
        fine = await post(open_server, "/api/play-now", {**body, "avoid": ["ABCDEFG", "hjkmnpq"]}, "198.51.100.65")
        assert fine.status_code == 200 and fine.json()["seat"] is not None, fine.text

    asyncio.run(main())


# ----------------------------------------------------------------- many presses at once

PRESSES, ADDRESSES, SEATS = 50, 10, 4


@pytest.fixture(scope="module")
def fresh_server(tmp_path_factory):
    """No lobby of any other test: every table here is made by the presses."""
    with LiveServer(tmp_path_factory.mktemp("rush"), **SETTINGS) as srv:
        yield srv


def test_fifty_presses_from_ten_addresses_fill_tables_and_open_no_more_than_needed(fresh_server):
    async def main():
        limits = httpx.Limits(max_connections=PRESSES)
        async with httpx.AsyncClient(base_url=fresh_server.base, timeout=30, limits=limits) as http:
            answers = await asyncio.gather(
                *(
                    http.post("/api/play-now", json={"name": f"P{i}"}, headers=at(f"203.0.113.{100 + i % ADDRESSES}"))
                    for i in range(PRESSES)
                )
            )
            assert [a.status_code for a in answers] == [200] * PRESSES, [
                a.text for a in answers if a.status_code != 200
            ]
            grants = [a.json() for a in answers]
            assert len({g["token"] for g in grants}) == PRESSES and not any(g["spectator"] for g in grants)
            per_table = Counter(g["code"] for g in grants)
            assert len(per_table) == math.ceil(PRESSES / SEATS)  # never a table more than needed
            assert sorted(per_table.values()) == [PRESSES % SEATS] + [SEATS] * (PRESSES // SEATS)
            for code, seated in per_table.items():  # the server agrees, seat by seat
                summary = (await http.get(f"/api/rooms/{code}")).json()
                assert sorted(p["seat"] for p in summary["players"]) == list(range(seated))
            await asyncio.sleep(1.1)  # the list's next rebuild
            lobbies = [t for t in (await http.get("/api/tables")).json()["tables"] if not t["started"]]
            assert [(t["players"], t["play_now"]) for t in lobbies] == [(PRESSES % SEATS, True)]

    asyncio.run(main())


# ----------------------------------------------------------------- turned off


@pytest.fixture(scope="module")
def closed_server(tmp_path_factory):
    with LiveServer(tmp_path_factory.mktemp("closed"), open_tables=False, **SETTINGS) as srv:
        yield srv


def test_with_open_tables_off_there_is_no_list_no_play_now_and_no_open_table(closed_server):
    async def main():
        async with httpx.AsyncClient(base_url=closed_server.base, timeout=10) as http:
            listing = await http.get("/api/tables")
            assert listing.json() == {"enabled": False, "refresh_s": 5, "tables": []}
        message = "This server has no open tables."
        opened = await post(closed_server, "/api/rooms", {"name": "Ann", "open": True}, "198.51.100.1")
        assert opened.status_code == 422 and opened.json()["detail"] == message
        pressed = await post(closed_server, "/api/play-now", {"name": "Ann"}, "198.51.100.1")
        assert pressed.status_code == 404 and pressed.json()["detail"] == message
        grant = (await post(closed_server, "/api/rooms", {"name": "Ann"}, "198.51.100.1")).json()
        host = Player(closed_server.ws_base, grant)
        await host.connect()
        await host.send({"type": "set_open", "open": True})
        await host.wait_for(lambda: host.errors, 5)
        assert host.errors[-1] == {"type": "error", "code": "invalid", "message": message}
        assert "open" not in host.state
        await host.close()

    asyncio.run(main())


# ----------------------------------------------------------------- pressing in a loop


@pytest.fixture(scope="module")
def budget_server(tmp_path_factory):
    """Small room budgets: an address may open 3 tables, then one a minute."""
    with LiveServer(tmp_path_factory.mktemp("budget"), room_create_burst=3, room_create_per_min=1, **SETTINGS) as srv:
        yield srv


def test_pressing_in_a_loop_fills_tables_and_meets_the_budgets(budget_server):
    async def main():
        async def press(address: str, game: str = "demon") -> httpx.Response:
            return await post(budget_server, "/api/play-now", {"name": "Loop", "game": game}, address)

        loop, other = "203.0.113.50", "203.0.113.51"
        first = [(await press(loop, game)).json()["code"] for game in ("demon", "demon", "nerts", "nerts")]
        assert first[0] == first[1] != first[2] == first[3]  # one lobby of each game
        refused = await press(loop)  # 4 seats waiting for players already
        assert refused.status_code == 429 and "seats at open tables" in refused.json()["detail"]
        for game, code in (("demon", first[0]), ("nerts", first[2])):  # somebody else fills both
            for _ in range(2):
                assert (await press(other, game)).json()["code"] == code
        answers = [(await press(loop)).json() for _ in range(4)]
        assert all("code" in a for a in answers), answers
        codes = [a["code"] for a in answers]
        assert len(set(codes)) == 1 and codes[0] not in first  # the third table, filled by the loop
        over = await press(loop)  # a fourth table would pass the address's room budget
        assert over.status_code == 429 and "new rooms" in over.json()["detail"]

    asyncio.run(main())
