"""The daily race is fair, over a real uvicorn, WebSockets and SQLite (docs/daily.md,
"What makes it fair"):

* its deal is keyed by the server's secret: a server whose DEMON_TEST_SEED is planted with
  what the source alone computes for today deals its practice rooms from it, and its daily
  race from something else (the seed under the secret it keeps in its data directory);
* nothing of today's deal reaches a browser that has not raced it: today's table gives it
  no room code and no replay, the replays and the live room refuse it (403); once its own
  race has ended it sees them all (and may watch a daily room), and its own entry (its rank);
* the daily room refuses the coach, "let the bots finish" and a rematch (`daily_race`);
* its bots are paid from the address's bot budget, as a practice room's are."""

from __future__ import annotations

import asyncio
import datetime as dt
import sqlite3
import time

import httpx
import pytest

from app.common.rng import derive_seed
from app.daily.race import DAILY_PLAYERS, daily_race_seed, race_day
from app.daily.secret import SECRET_FILE
from app.demon.rules.round import DemonRound
from app.racing import DEMON
from app.records.frames import round_view
from app.server.daily_http import peer_key
from app.storage.db import DB_NAME
from tests.server.test_abuse import client
from tests.server.test_ws_bots import refused
from tests.support.live_server import LiveServer
from tests.support.ws_client import Player

# What the source computed for today before the secret (the old `daily_race_seed`): what
# anyone could plant in DEMON_TEST_SEED to deal the day's race in a practice room.
SOURCE_SEED = 1 + derive_seed(0x4445_4D44_4149_4C59, race_day().toordinal()) % 999_999_999
LIMIT_S = 4


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = LiveServer(
        tmp_path_factory.mktemp("daily-fair"),
        test_seed=SOURCE_SEED,
        countdown_s=0.2,
        daily_time_limit_s=LIMIT_S,
        bot_think_scale=10,  # slow bots: the time limit ends each race, nothing earlier
        bot_create_per_min=1,
        bot_create_burst=14,
        rate_per_s=400,
        rate_burst=400,
    )
    with srv:
        yield srv


def start(http: httpx.Client, name: str, browser: str) -> dict:
    r = http.post("/api/daily", json={"name": name, "level": "easy", "browser": browser})
    assert r.status_code == 200, r.text
    return r.json()


def wait_ended(http: httpx.Client, browser: str, seconds: float = 20) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        day = http.get("/api/daily", params={"browser": browser}).json()
        if day["raced"] or time.monotonic() > deadline:
            return day
        time.sleep(0.2)


def first_seats(http: httpx.Client, code: str, token: str) -> list:
    listed = http.get("/api/replays", params={"code": code}, headers={"Authorization": f"Bearer {token}"})
    assert listed.status_code == 200 and listed.json()["replays"], listed.text
    rid = listed.json()["replays"][0]["id"]
    replay = http.get(f"/api/replays/{rid}", headers={"Authorization": f"Bearer {token}"})
    assert replay.status_code == 200, replay.text
    return replay.json()["initial"]["seats"]


def test_the_days_deal_is_not_the_one_the_source_computes(server):
    async def practice_ended() -> dict:
        async with httpx.AsyncClient(base_url=server.base) as http:
            r = await http.post("/api/rooms/practice", json={"name": "Pat", "bots": DAILY_PLAYERS - 1, "rounds": 1})
        assert r.status_code == 200, r.text
        pat = Player(server.ws_base, r.json())
        await pat.connect()
        await pat.wait_for(lambda: pat.state is not None and pat.state["phase"] == "playing", 10)
        await pat.send({"type": "vote", "end": True})  # the bots follow the person: ended
        await pat.wait_for(lambda: pat.state is not None and pat.state.get("result") is not None, 10)
        await pat.close()
        return r.json()

    grant = asyncio.run(practice_ended())
    with client(server, "127.0.71.1") as http:
        planted = first_seats(http, grant["code"], grant["token"])
        source = round_view(DemonRound.deal(SOURCE_SEED, DAILY_PLAYERS).start(), DEMON)["seats"]
        assert planted == source  # DEMON_TEST_SEED deals what the source computes
        ann = start(http, "Ann", "ann-fair-browser-0001")
        assert wait_ended(http, "ann-fair-browser-0001")["raced"] is True
        daily = first_seats(http, ann["code"], ann["token"])
    assert daily != source
    secret = (server.data_dir / SECRET_FILE).read_text().strip().encode()
    assert (
        daily == round_view(DemonRound.deal(daily_race_seed(race_day(), secret), DAILY_PLAYERS).start(), DEMON)["seats"]
    )


def test_nothing_of_today_reaches_a_browser_before_its_own_race_has_ended(server):
    ann_id, bob_id = "ann-embargo-browser-01", "bob-embargo-browser-01"
    with client(server, "127.0.71.2") as http:
        ann = start(http, "Ann", ann_id)
        code = ann["code"]
        # while Ann races: her room is neither listed nor open to a stranger
        for e in http.get("/api/daily", params={"browser": bob_id}).json()["entries"]:
            assert e["code"] is None and e["replay_id"] is None
        assert http.get(f"/api/rooms/{code}").status_code == 403
        assert http.post(f"/api/rooms/{code}/join", json={"name": "Spy"}).status_code == 403
        ann_day = wait_ended(http, ann_id)
        mine = [e for e in ann_day["entries"] if e["mine"]]
        assert len(mine) == 1 and mine[0]["name"] == "Ann" and mine[0]["replay_id"]
        rid = mine[0]["replay_id"]

        # Bob has not raced: no code, no replay, in the table or asked directly
        bob_day = http.get("/api/daily", params={"browser": bob_id}).json()
        assert bob_day["raced"] is False and bob_day["played"] is False and bob_day["entries"]
        assert all(e["code"] is None and e["replay_id"] is None and not e["mine"] for e in bob_day["entries"])
        local = http.get("/api/daily", params={"scope": "local", "key": "0" * 64}).json()
        assert local["entries"] and all(e["code"] is None and e["replay_id"] is None for e in local["entries"])
        for headers in ({}, {"X-Demon-Browser": bob_id}):
            assert http.get(f"/api/replays/{rid}", headers=headers).status_code == 403
            assert http.get("/api/replays", params={"code": code}, headers=headers).json()["replays"] == []
        assert http.get(f"/api/rooms/{code}").status_code == 403
        assert http.post(f"/api/rooms/{code}/join", json={"name": "Spy"}).status_code == 403

        # while Bob's own race is on: still nothing
        bob = start(http, "Bob", bob_id)
        assert http.get(f"/api/replays/{rid}", headers={"X-Demon-Browser": bob_id}).status_code == 403
        # once it has ended: Ann's replay, and his own entry with its rank
        bob_day = wait_ended(http, bob_id)
        assert bob_day["raced"] is True
        assert http.get(f"/api/replays/{rid}", headers={"X-Demon-Browser": bob_id}).status_code == 200
        # ...and Ann's room (as a spectator): a stranger still may not
        as_bob = {"X-Demon-Browser": bob_id}
        assert http.get(f"/api/rooms/{code}", headers=as_bob).status_code == 200
        watch = http.post(f"/api/rooms/{code}/join", json={"name": "Bob"}, headers=as_bob)
        assert watch.status_code == 200 and watch.json()["spectator"] is True, watch.text
        assert http.get(f"/api/rooms/{code}", headers={"X-Demon-Browser": "dan-embargo-browser-01"}).status_code == 403
        finished = [e for e in bob_day["entries"] if e["score"] is not None]
        assert all(e["replay_id"] and e["code"] == e["replay_id"].split("-")[0] for e in finished)
        assert [e["name"] for e in bob_day["entries"] if e["mine"]] == ["Bob"]
        # what one process shows another: the whole table, under the day's peer key
        secret = (server.data_dir / SECRET_FILE).read_text().strip().encode()
        key = peer_key(secret, race_day().isoformat())
        local = http.get("/api/daily", params={"scope": "local", "key": key}).json()
        assert {e["replay_id"] for e in local["entries"]} >= {rid}
        assert bob["code"] in {e["code"] for e in local["entries"]}


def test_the_daily_room_has_no_coach_no_bots_finish_and_no_rematch(server):
    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.base) as http:
            r = await http.post("/api/daily", json={"name": "Cy", "level": "easy", "browser": "cy-fair-browser-0001"})
        assert r.status_code == 200, r.text
        cy = Player(server.ws_base, r.json())
        await cy.connect()
        await cy.wait_for(lambda: cy.state is not None and cy.state["phase"] == "playing" and cy.legal, 10)
        assert cy.state is not None and cy.state["daily"] == race_day().isoformat()
        await refused(cy, {"type": "coach"}, "daily_race")
        await refused(cy, {"type": "vote", "end": True, "bots_finish": True}, "daily_race")
        assert cy.state is not None
        assert not cy.state["round"].get("bots_finish") and cy.state["round"]["votes"] == []
        await cy.wait_for(lambda: cy.state is not None and cy.state["phase"] == "match_over", LIMIT_S + 10)
        await refused(cy, {"type": "rematch"}, "daily_race")
        assert cy.state is not None and cy.state["phase"] == "match_over"
        await cy.close()

    asyncio.run(main())


def test_daily_bots_are_paid_from_the_addresses_bot_budget(server):
    """A budget of 14 bots: four daily starts (12 bots), then a fifth is refused (429),
    and so is a practice room of three."""
    with client(server, "127.0.71.9") as http:
        for i in range(4):
            start(http, f"Dee{i}", f"dee-budget-browser-{i:04d}")
        r = http.post("/api/daily", json={"name": "Dee", "level": "easy", "browser": "dee-budget-browser-0004"})
        assert r.status_code == 429, r.text
        assert http.post("/api/rooms/practice", json={"name": "Dee", "bots": 3}).status_code == 429
        # nothing was counted for the refused start: that browser may still race today
        assert http.get("/api/daily", params={"browser": "dee-budget-browser-0004"}).json()["played"] is False


def test_a_second_attempt_is_told_it_already_raced_and_spends_no_bots(server):
    """The answer to a browser that has raced today is 409 "already raced", however often
    it asks: a refused start seats no bot, so it spends none of the address's budget (it
    was 429 "too many bots" from the fifth attempt on)."""
    with client(server, "127.0.71.10") as http:
        start(http, "Eve", "eve-again-browser-0001")
        for _ in range(6):
            r = http.post("/api/daily", json={"name": "Eve", "level": "easy", "browser": "eve-again-browser-0001"})
            assert r.status_code == 409, r.text
        start(http, "Eve", "eve-again-browser-0002")  # the budget still holds a start


def test_after_the_day_its_races_open_to_anyone(server):
    """docs/daily.md: after the day (UTC) a day's replays open to anyone, like a shared
    replay, and its table names them. The day is made past in the server's own database
    (the entry's day moved back by one), as it would be at midnight. (A daily room still
    live keeps its own day, `Room.daily`, which this cannot move.)"""
    fay_id, gus_id = "fay-afterday-browser-1", "gus-afterday-browser-1"
    with client(server, "127.0.71.11") as http:
        fay = start(http, "Fay", fay_id)
        rid = next(e for e in wait_ended(http, fay_id)["entries"] if e["mine"])["replay_id"]
        assert rid and http.get(f"/api/replays/{rid}", headers={"X-Demon-Browser": gus_id}).status_code == 403
        yesterday = (race_day() - dt.timedelta(days=1)).isoformat()
        with sqlite3.connect(server.data_dir / DB_NAME) as db:
            moved = db.execute("UPDATE daily SET day = ? WHERE code = ?", (yesterday, fay["code"])).rowcount
        assert moved == 1
        past = http.get("/api/daily", params={"day": yesterday, "browser": gus_id}).json()
        (entry,) = [e for e in past["entries"] if e["name"] == "Fay"]
        assert entry["replay_id"] == rid and entry["code"] == fay["code"]
        for headers in ({}, {"X-Demon-Browser": gus_id}):
            assert http.get(f"/api/replays/{rid}", headers=headers).status_code == 200
            assert [
                r["id"]
                for r in http.get("/api/replays", params={"code": fay["code"]}, headers=headers).json()["replays"]
            ] == [rid]
