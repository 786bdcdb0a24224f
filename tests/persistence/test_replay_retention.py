"""Replays and the daily race's entries are pruned like Devil's Grip games (noticed
after replays came: they were never pruned): past an age (`DEMON_REPLAY_EXPIRY_DAYS`), and
past a count the oldest replays first (`DEMON_REPLAY_MAX_STORED`), in batches; a day's
entries go with the day's replays. On a real SQLite file at the current schema, and
through the app's own start-up pruning."""

from __future__ import annotations

import datetime as dt
import time

from app.config import Settings
from app.server.app import create_app
from app.storage.replay_store import PRUNE_BATCH
from app.storage.store import Store

DAY = 86400.0


def keep(store: Store, replay_id: str, finished_at: float) -> None:
    """A kept round as the table holds it (what pruning reads is its id and its time; a
    round's record is what `keep_if_ended` copies, and is not looked at here)."""
    with store.conn:
        store.conn.execute(
            "INSERT INTO replays (id, code, round_no, finished_at, players, watchers, shared, record) "
            "VALUES (?, 'ROOMAAA', 1, ?, '[]', '{\"players\": [], \"host\": null}', 0, '{}')",
            (replay_id, finished_at),
        )


def day_of(at: float) -> str:
    return dt.datetime.fromtimestamp(at, dt.UTC).date().isoformat()


def test_replays_and_daily_entries_are_pruned_by_age(tmp_path):
    store = Store.open(tmp_path)
    assert "replays_finished" in [row[1] for row in store.conn.execute("PRAGMA index_list(replays)")]
    now = time.time()
    for i in range(5):
        keep(store, f"old{i}", now - 40 * DAY)
    for i in range(3):
        keep(store, f"new{i}", now - 1 * DAY)
    daily = store.demon.daily
    assert daily.start(day_of(now - 40 * DAY), "p1", "Ann", "easy", "ROOMAAA")
    assert daily.start(day_of(now - 1 * DAY), "p1", "Ann", "easy", "ROOMBBB")
    assert daily.start(day_of(now), "p2", "Bob", "hard", "ROOMCCC")
    assert store.demon.expire_replays(30 * DAY, None, now=now) == 5 + 1
    assert store.demon.replays.count() == 3
    assert all(store.demon.replays.load(f"new{i}") is not None for i in range(3))
    assert store.demon.replays.load("old0") is None
    assert daily.entries(day_of(now - 40 * DAY)) == []
    assert [e["name"] for e in daily.entries(day_of(now - 1 * DAY))] == ["Ann"]
    assert [e["name"] for e in daily.entries(day_of(now))] == ["Bob"]
    assert store.demon.expire_replays(30 * DAY, None, now=now) == 0  # nothing more to do
    store.close()


def test_past_the_count_the_oldest_replays_go_first(tmp_path):
    store = Store.open(tmp_path)
    now = time.time()
    for i in range(12):
        keep(store, f"r{i:02d}", now - (12 - i) * 60)  # r11 is the newest
    assert store.demon.expire_replays(30 * DAY, 5, now=now) == 7
    kept = sorted(r[0] for r in store.conn.execute("SELECT id FROM replays"))
    assert kept == [f"r{i:02d}" for i in range(7, 12)]
    store.close()


def test_pruning_goes_in_batches(tmp_path):
    store = Store.open(tmp_path)
    now = time.time()
    with store.conn:
        store.conn.executemany(
            "INSERT INTO replays (id, code, round_no, finished_at, players, watchers, shared, record) "
            "VALUES (?, 'ROOMAAA', 1, ?, '[]', '{\"players\": [], \"host\": null}', 0, '{}')",
            [(f"old{i}", now - 40 * DAY) for i in range(PRUNE_BATCH + 500)],
        )
    assert store.demon.expire_replays(30 * DAY, None, now=now) == PRUNE_BATCH
    assert store.demon.expire_replays(30 * DAY, None, now=now) == 500
    assert store.demon.replays.count() == 0
    store.close()


def test_the_server_prunes_them_as_it_starts(tmp_path):
    store = Store.open(tmp_path)
    now = time.time()
    keep(store, "old", now - 10 * DAY)
    keep(store, "recent", now - 1 * DAY)
    assert store.demon.daily.start(day_of(now - 10 * DAY), "p1", "Ann", "easy", "ROOMAAA")
    store.close()
    app = create_app(Settings(data_dir=tmp_path, replay_expiry_days=7))  # prunes at creation, then now and then
    app.state.store.close()
    again = Store.open(tmp_path)
    assert [r[0] for r in again.conn.execute("SELECT id FROM replays")] == ["recent"]
    assert again.demon.daily.entries(day_of(now - 10 * DAY)) == []
    again.close()
