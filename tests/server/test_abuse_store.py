"""The database under a flood, on a real SQLite file: the WAL stays
bounded while the server runs, and Devil's Grip games are pruned by age, by whether
they were ever played, and by count."""

from __future__ import annotations

import time

from app.grip.service.sessions import GripSessions
from app.storage.store import Store

MB = 1024 * 1024


def flood(store: Store, grips: GripSessions, n: int) -> list:
    return [grips.new(None, False, None)[0] for _ in range(n)]


def test_the_wal_is_truncated_to_its_limit_after_a_checkpoint(tmp_path):
    store = Store.open(tmp_path, wal_limit_bytes=1 * MB)
    grips = GripSessions(10_000, store)
    flood(store, grips, 1500)  # several MB of WAL, as a flood of new games wrote it
    assert store.wal_bytes() > 3 * MB
    store.checkpoint()  # what the hub runs every 5 s, off the event loop
    flood(store, grips, 1)  # the next write starts the WAL again, truncated to the limit
    assert store.wal_bytes() <= 1 * MB + 64 * 1024
    store.close()


def test_grip_games_are_pruned_by_age_by_play_and_by_count(tmp_path):
    store = Store.open(tmp_path)
    grips = GripSessions(10_000, store)
    unplayed = flood(store, grips, 30)
    played = flood(store, grips, 30)
    for session in played:
        grips.operate(session, "action", GripSessions.describe(session)["legal"][0])
    assert all(s.played for s in played) and not any(s.played for s in unplayed)
    now = time.time()
    # An hour on: the unplayed games go, the played ones stay.
    assert store.expire_grips(30 * 86400, 3600, None, now=now + 3601) == 30
    assert store.grip_count() == 30
    assert all(store.load_grip(s.id) is None for s in unplayed)
    assert all(store.load_grip(s.id) is not None for s in played)
    # Past the count bound, the least recently used go first.
    newest = flood(store, grips, 5)
    for s in newest:
        grips.operate(s, "action", GripSessions.describe(s)["legal"][0])
    assert store.expire_grips(30 * 86400, 3600, 20, now=now) == 15
    assert store.grip_count() == 20
    assert all(store.load_grip(s.id) is not None for s in newest)
    # And past the expiry, every game goes.
    assert store.expire_grips(30 * 86400, 3600, None, now=now + 31 * 86400) == 20
    store.close()


def test_unplayed_games_leave_memory_too(tmp_path):
    grips = GripSessions(10_000, None)
    idle = flood(None, grips, 3)
    busy = flood(None, grips, 1)[0]
    grips.operate(busy, "action", GripSessions.describe(busy)["legal"][0])
    assert grips.forget_unplayed(60, now=time.time() + 61) == 3
    assert list(grips.games) == [busy.id]
    assert all(s.id not in grips.games for s in idle)


def test_past_the_count_bound_games_never_played_go_first(tmp_path):
    store = Store.open(tmp_path)
    grips = GripSessions(10_000, store)
    played = flood(store, grips, 10)
    for s in played:
        grips.operate(s, "action", GripSessions.describe(s)["legal"][0])
    fresh = flood(store, grips, 10)  # newer than the played ones, but never played
    assert store.expire_grips(30 * 86400, 3600, 15) == 5
    assert all(store.load_grip(s.id) is not None for s in played)
    assert sum(store.load_grip(s.id) is None for s in fresh) == 5
    assert store.load_grip(fresh[0].id) is None and store.load_grip(fresh[-1].id) is not None
    store.close()
