"""The daily race over real HTTP: two browsers race the day's deal
against bots on a real uvicorn and SQLite; each start is a counted attempt (a second is
refused); when the time limit ends the rounds, the day's table lists both with their
replays, which either racer may open and which start from the same cards: the day's deal
(its seed keyed by the server's secret, kept in its data directory)."""

from __future__ import annotations

import datetime as dt
import time

import httpx
import pytest

from app.daily.race import DAILY_PLAYERS, daily_race_seed, parse_day, race_day
from app.daily.secret import SECRET_FILE
from app.demon.rules.round import DemonRound
from app.racing import DEMON
from app.records.frames import round_view
from tests.support.live_server import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = LiveServer(tmp_path_factory.mktemp("daily"), countdown_s=0.2, daily_time_limit_s=3, bot_think_scale=0.2)
    with srv:
        yield srv


def wait_for_entries(http: httpx.Client, n: int, seconds: float = 20, browser: str | None = None) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        day = http.get("/api/daily", params={"browser": browser} if browser else {}).json()
        if sum(e["replay_id"] is not None for e in day["entries"]) >= n or time.monotonic() > deadline:
            return day
        time.sleep(0.2)


def test_two_browsers_race_the_same_deal_and_the_day_compares_them(server):
    ann_id, bob_id = "ann-browser-0123456789", "bob-browser-0123456789"
    with httpx.Client(base_url=server.base, timeout=10) as http:
        assert http.get("/api/daily", params={"browser": ann_id}).json()["played"] is False
        ann = http.post("/api/daily", json={"name": "Ann", "level": "easy", "browser": ann_id})
        bob = http.post("/api/daily", json={"name": "Bob", "level": "hard", "browser": bob_id})
        assert ann.status_code == bob.status_code == 200, (ann.text, bob.text)
        assert ann.json()["seat"] == 0 and ann.json()["code"] != bob.json()["code"]
        again = http.post("/api/daily", json={"name": "Ann", "level": "hard", "browser": ann_id})
        assert again.status_code == 409 and "already" in again.json()["detail"]
        assert http.get("/api/daily", params={"browser": ann_id}).json()["played"] is True
        day = wait_for_entries(http, 2, browser=ann_id)
        assert day["day"] == race_day().isoformat() and day["bots"] == DAILY_PLAYERS - 1
        entries = day["entries"]
        assert sorted(e["name"] for e in entries) == ["Ann", "Bob"]
        assert {e["name"]: e["level"] for e in entries} == {"Ann": "easy", "Bob": "hard"}
        assert all(e["reason"] in ("time", "demon", "stuck") and e["score"] is not None for e in entries)
        assert [e["score"] for e in entries] == sorted((e["score"] for e in entries), reverse=True)
        secret = (server.data_dir / SECRET_FILE).read_text().strip().encode()
        dealt = round_view(DemonRound.deal(daily_race_seed(race_day(), secret), DAILY_PLAYERS).start(), DEMON)
        for e in entries:  # a browser that raced today may watch every entry: no token
            replay = http.get(f"/api/replays/{e['replay_id']}", headers={"X-Demon-Browser": ann_id})
            assert replay.status_code == 200, replay.text
            assert replay.json()["initial"]["seats"] == dealt["seats"]


def test_bad_starts_and_days_are_refused(server):
    with httpx.Client(base_url=server.base, timeout=10) as http:
        assert http.post("/api/daily", json={"name": "Ann", "browser": "short"}).status_code == 422
        assert http.post("/api/daily", json={"name": "Ann", "browser": "x" * 20, "level": "god"}).status_code == 422
        assert http.post("/api/daily", json={"name": "Ann", "browser": "x" * 20, "extra": 1}).status_code == 422
        tomorrow = (race_day() + dt.timedelta(days=1)).isoformat()
        assert http.get("/api/daily", params={"day": tomorrow}).status_code == 422
        assert http.get("/api/daily", params={"day": "2026-02-30"}).status_code == 422
        assert http.get("/api/daily", params={"day": "2025-01-01"}).json()["entries"] == []


def test_the_deal_is_the_days_and_the_secrets_and_differs_from_day_to_day():
    key, other = b"k" * 32, b"o" * 32
    days = [dt.date(2026, 12, d) for d in range(1, 8)]
    seeds = [daily_race_seed(d, key) for d in days]
    assert len(set(seeds)) == 7 and all(1 <= s <= 999_999_999 for s in seeds)
    assert daily_race_seed(dt.date(2026, 12, 3), key) == daily_race_seed(dt.date(2026, 12, 3), key)
    assert [daily_race_seed(d, other) for d in days] != seeds
    assert parse_day("2026-12-03") == dt.date(2026, 12, 3) and parse_day("3.12.2026") is None
    assert race_day(dt.datetime(2026, 12, 3, 23, 30, tzinfo=dt.timezone(dt.timedelta(hours=-5)))) == dt.date(
        2026, 12, 4
    )
