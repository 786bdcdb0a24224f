"""The daily race's entries: who started today's race, and how it went.

A row is written when a browser starts the day's race (the first start counts: the
primary key (day, player) refuses a second), and completed in the same transaction that
keeps the round's replay when it ends (`finished`), which also shares that replay: a
day's results show every entry's replay, but while the day lasts only to the browsers
whose own race of it has ended (`ended`; the rule is app/server/daily_http.py's, and
app/server/replays_http.py asks `day_of_code` which replays it covers). `player` is the
hash of the id the browser keeps, never the id itself.

With several processes each keeps the entries of the races it dealt; the day's table and
the one attempt a browser has are asked of them all (app/server/daily_http.py), and
`started_at` is what one process asks another.

A day's entries are forgotten with the day's replays (`expire`, called with the replays'
age limit: an entry whose replay is gone would link to nothing).
"""

from __future__ import annotations

import sqlite3
import time
from typing import TypedDict

from app.demon.room.room import Room
from app.storage.replay_store import PRUNE_BATCH


class DailyEntry(TypedDict):
    player: str  # the browser's hashed id: read by daily_http.py, never sent
    name: str
    level: str
    code: str
    started: float
    replay_id: str | None
    score: int | None
    home: int | None
    reason: str | None


class DailyStore:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def has_started(self, day: str, player: str) -> bool:
        return (
            self.conn.execute("SELECT 1 FROM daily WHERE day = ? AND player = ?", (day, player)).fetchone() is not None
        )

    def started_at(self, day: str, player: str) -> float | None:
        """When the browser started its counted attempt of `day` here, or None."""
        row = self.conn.execute("SELECT started FROM daily WHERE day = ? AND player = ?", (day, player)).fetchone()
        return None if row is None else float(row[0])

    def ended(self, day: str, player: str) -> bool:
        """Whether the browser's race of `day` here has ended (its round's replay is kept)."""
        row = self.conn.execute(
            "SELECT 1 FROM daily WHERE day = ? AND player = ? AND replay_id IS NOT NULL", (day, player)
        ).fetchone()
        return row is not None

    def day_of_code(self, code: str) -> str | None:
        """The day of the daily race dealt in room `code` (the latest, were a code dealt
        twice), or None for a room that was no daily race."""
        row = self.conn.execute("SELECT MAX(day) FROM daily WHERE code = ?", (code,)).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def withdraw(self, day: str, player: str, code: str) -> None:
        """Forget an attempt that another process had counted first (its room never opened)."""
        with self.conn:
            self.conn.execute("BEGIN")
            self.conn.execute("DELETE FROM daily WHERE day = ? AND player = ? AND code = ?", (day, player, code))

    def start(self, day: str, player: str, name: str, level: str, code: str) -> bool:
        """The browser's counted attempt of `day`; False when it already has one."""
        with self.conn:
            self.conn.execute("BEGIN")
            cur = self.conn.execute(
                "INSERT OR IGNORE INTO daily (day, player, name, level, code, started) VALUES (?, ?, ?, ?, ?, ?)",
                (day, player, name, level, code, time.time()),
            )
        return cur.rowcount == 1

    def finished(self, room: Room, replay_id: str) -> None:
        """Inside the caller's transaction: the room's round ended and its replay is kept.
        Nothing happens for a room that is not a daily race (no row has its code)."""
        if room.result is None or not room.players:
            return
        person = room.players[0]  # the daily race seats its person first
        score = room.result["scores"].get(person.id)
        home = (
            room.round.foundation_counts()[person.seat] if room.round is not None and person.seat is not None else None
        )
        cur = self.conn.execute(
            "UPDATE daily SET replay_id = ?, score = ?, home = ?, reason = ? WHERE code = ? AND replay_id IS NULL",
            (replay_id, score, home, room.result["reason"], room.code),
        )
        if cur.rowcount:
            self.conn.execute("UPDATE replays SET shared = 1 WHERE id = ?", (replay_id,))

    def expire(self, before_day: str) -> int:
        """Forget the entries of the days before `before_day` (YYYY-MM-DD); at most
        PRUNE_BATCH rows a call. Returns how many were deleted."""
        with self.conn:
            self.conn.execute("BEGIN")
            deleted: int = self.conn.execute(
                "DELETE FROM daily WHERE rowid IN (SELECT rowid FROM daily WHERE day < ? LIMIT ?)",
                (before_day, PRUNE_BATCH),
            ).rowcount
        return deleted

    def entries(self, day: str) -> list[DailyEntry]:
        """The day's entries, finished ones first, best score first."""
        rows = self.conn.execute(
            "SELECT player, name, level, code, started, replay_id, score, home, reason FROM daily WHERE day = ? "
            "ORDER BY score IS NULL, score DESC, started LIMIT 500",
            (day,),
        ).fetchall()
        return [
            DailyEntry(
                player=r[0],
                name=r[1],
                level=r[2],
                code=r[3],
                started=r[4],
                replay_id=r[5],
                score=r[6],
                home=r[7],
                reason=r[8],
            )
            for r in rows
        ]
