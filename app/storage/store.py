"""SQLite persistence: rooms, their round logs, Devil's Grip games, finished matches.

Why this shape:
* A room's small "meta" (players, host, totals, version…) is rewritten whole when it
  changes; the round's log is append-only (`steps`), so a move costs one small INSERT,
  not a rewrite of 52 × 8 cards, and the hub commits all the moves of one turn of the
  event loop, in every room, together (`save_rooms`).
* WAL journal with `synchronous=NORMAL`: a commit is a write to the WAL without an fsync.
  It survives the process being killed (SIGKILL) — the data is in the OS — which is what
  "no acknowledged action is lost" needs; only a power cut can lose the last commits.
  The hub commits *before* it acknowledges an action.
* Writes happen on the event loop thread, in the hub's flush: they take tens of
  microseconds per turn (bench/server.py measures the cost), far less than handing them
  to a thread would.

Schema versions live in `PRAGMA user_version`; `MIGRATIONS[i]` upgrades version i to
i + 1. An unreadable file, or one from a newer server, is refused with a clear error and
left untouched.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

from app.grip.rules import GripGame
from app.protocol.wire import dumps
from app.grip.service.sessions import GripSession
from app.demon.room.persist import restore_room, room_initial, room_meta
from app.demon.room.room import Phase, Room

log = logging.getLogger("demon.store")

DB_NAME = "demon.sqlite3"
ROOM_EXPIRY_S = 24 * 3600  # a room untouched this long is not restored
GRIP_EXPIRY_S = 30 * 24 * 3600

MIGRATIONS: list[list[str]] = [
    # 0 -> 1: rooms, their round logs, Devil's Grip games.
    [
        """CREATE TABLE rooms (code TEXT PRIMARY KEY, meta TEXT NOT NULL, round_no INTEGER NOT NULL,
                               initial TEXT, updated REAL NOT NULL)""",
        """CREATE TABLE steps (code TEXT NOT NULL, round_no INTEGER NOT NULL, seq INTEGER NOT NULL,
                               step TEXT NOT NULL, player TEXT, action_id TEXT, v INTEGER,
                               PRIMARY KEY (code, round_no, seq))""",
        """CREATE TABLE grips (id TEXT PRIMARY KEY, token_hash TEXT NOT NULL, game TEXT NOT NULL,
                               updated REAL NOT NULL)""",
    ],
    # 1 -> 2: finished matches kept as history; rooms remember that their match ended.
    [
        """CREATE TABLE matches (id INTEGER PRIMARY KEY AUTOINCREMENT, code TEXT NOT NULL,
                                 finished_at REAL NOT NULL, players TEXT NOT NULL,
                                 rounds TEXT NOT NULL, winners TEXT NOT NULL)""",
        "ALTER TABLE rooms ADD COLUMN finished INTEGER NOT NULL DEFAULT 0",
    ],
    # 2 -> 3: Devil's Grip advice. A game remembers that a hint was used (rule 12 style)
    # and whether it was dealt as certified winnable; every (deal, pass limit) keeps its
    # par; deals tried by the solver keep their winning line (NULL: none found in the
    # budget). Deal numbers are TEXT: they go up to 2**64 - 1, past SQLite's integers.
    [
        "ALTER TABLE grips ADD COLUMN used_hint INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE grips ADD COLUMN winnable INTEGER NOT NULL DEFAULT 0",
        """CREATE TABLE grip_par (number TEXT NOT NULL, passes INTEGER NOT NULL, par INTEGER NOT NULL,
                                  engine TEXT NOT NULL, computed REAL NOT NULL, PRIMARY KEY (number, passes))""",
        """CREATE TABLE grip_solutions (number TEXT PRIMARY KEY, line TEXT, tried REAL NOT NULL,
                                        dealt INTEGER NOT NULL DEFAULT 0)""",
    ],
]
MIGRATIONS.append(
    # 3 -> 4: the Devil's Grip games dealt and not yet played (no action made), which are
    # kept only briefly, are listed apart (a small table; a game leaves it with its first
    # action; games from before count as played); games are found by age through an
    # index, as pruning runs while the server does. (Written to be harmless when run
    # again on a database that has them.)
    [
        "CREATE TABLE IF NOT EXISTS grip_fresh (id TEXT PRIMARY KEY, dealt REAL NOT NULL)",
        "CREATE INDEX IF NOT EXISTS grip_fresh_dealt ON grip_fresh (dealt)",
        "CREATE INDEX IF NOT EXISTS grips_updated ON grips (updated)",
    ])
SCHEMA_VERSION = len(MIGRATIONS)
PRUNE_BATCH = 2000  # rows deleted per statement, so no pruning holds the event loop long


class StoreError(Exception):
    """The database cannot be used; the message says why and what to do."""


class Store:
    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path
        self._saved: dict[str, tuple[int, int]] = {}  # code -> (round_no, steps written)
        self._finished: set[str] = set()
        self._checkpoint_conn: sqlite3.Connection | None = None

    @classmethod
    def open(cls, data_dir: Path, *, target_version: int = SCHEMA_VERSION,
             wal_limit_bytes: int = 64 * 1024 * 1024) -> "Store":
        path = data_dir / DB_NAME
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(f"Cannot create the data directory {data_dir} ({err}).") from err
        if not os.access(data_dir, os.W_OK | os.X_OK):
            raise StoreError(f"The data directory {data_dir} is not writable by this user "
                             f"(uid {os.getuid()}): fix its owner or permissions.")
        try:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("integrity check failed")
        except sqlite3.DatabaseError as err:
            raise StoreError(f"The database {path} is unreadable ({err}). It was left as it is: "
                             f"move it away (or restore a backup) and start again.") from err
        if version > SCHEMA_VERSION:
            conn.close()
            raise StoreError(f"The database {path} was written by a newer server (schema {version}, "
                             f"this server knows {SCHEMA_VERSION}). Upgrade the server.")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        # Checkpoints (copying the WAL into the database, with an fsync) are run by
        # `checkpoint()` off the event loop, never inside a move's commit.
        conn.execute("PRAGMA wal_autocheckpoint=0")
        # After a checkpoint has copied the whole WAL, the next write starts it again from
        # the beginning and truncates the file to this size: without it the file stays as
        # large as the biggest burst of writes ever made (240 MB in a flood of new games).
        conn.execute(f"PRAGMA journal_size_limit={int(wal_limit_bytes)}")
        store = cls(conn, path)
        store.migrate(version, target_version)
        return store

    def migrate(self, current: int, target: int = SCHEMA_VERSION) -> None:
        for version in range(current, target):
            with self.conn:
                self.conn.execute("BEGIN")
                for statement in MIGRATIONS[version]:
                    self.conn.execute(statement)
                self.conn.execute(f"PRAGMA user_version = {version + 1}")

    @property
    def version(self) -> int:
        return self.conn.execute("PRAGMA user_version").fetchone()[0]

    def checkpoint(self) -> None:
        """Copy the WAL into the database file. Blocking I/O: the hub runs it in a
        thread, on a connection of its own, so no room waits for the disk."""
        if self._checkpoint_conn is None:
            self._checkpoint_conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._checkpoint_conn.execute(f"PRAGMA journal_size_limit={self._wal_limit()}")
        self._checkpoint_conn.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def _wal_limit(self) -> int:
        return self.conn.execute("PRAGMA journal_size_limit").fetchone()[0]

    def wal_bytes(self) -> int:
        """The size of the write-ahead log file now (0 when there is none)."""
        try:
            return os.path.getsize(f"{self.path}-wal")
        except OSError:
            return 0

    def close(self) -> None:
        if self._checkpoint_conn is not None:
            self._checkpoint_conn.close()
        self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.conn.close()

    # ------------------------------------------------------------ rooms

    def save_room(self, room: Room, *, moves_only: bool = False) -> None:
        """Write what changed in one room since its last save, in one transaction."""
        self._commit([(room, moves_only)])

    def save_rooms(self, rooms: list[tuple[Room, bool]]) -> set[str]:
        """Write what changed in several rooms, (room, moves_only) pairs, in one
        transaction: the hub's flush saves every room a turn of the event loop changed
        with a single commit (group commit). Returns the codes of the rooms that could
        not be written (logged); when the shared transaction fails, each room is tried
        in a transaction of its own, so one bad room does not keep the others unsaved."""
        try:
            self._commit(rooms)
            return set()
        except Exception:
            if len(rooms) == 1:
                log.exception("could not save room %s", rooms[0][0].code)
                return {rooms[0][0].code}
        failed = set()
        for room, moves_only in rooms:
            try:
                self._commit([(room, moves_only)])
            except Exception:
                log.exception("could not save room %s", room.code)
                failed.add(room.code)
        return failed

    def _commit(self, rooms: list[tuple[Room, bool]]) -> None:
        c = self.conn
        c.execute("BEGIN")
        try:
            step_rows: list[tuple] = []  # every room's new steps, in one statement
            written = [self._write_room(room, moves_only, step_rows) for room, moves_only in rooms]
            if step_rows:
                c.executemany("INSERT INTO steps (code, round_no, seq, step, player, action_id, v) "
                              "VALUES (?, ?, ?, ?, ?, ?, ?)", step_rows)
            c.execute("COMMIT")
        except BaseException:
            c.execute("ROLLBACK")
            raise
        for (room, _moves_only), saved in zip(rooms, written):
            self._saved[room.code] = saved
        for room, _moves_only in rooms:  # after the counts: a failure here unsaves nothing
            if room.phase is Phase.MATCH_OVER and room.code not in self._finished:
                try:
                    self.record_match(room)
                except Exception:  # tried again with the room's next save
                    log.exception("could not record the finished match of room %s", room.code)

    def _write_room(self, room: Room, moves_only: bool, step_rows: list[tuple]) -> tuple[int, int]:
        """The statements that bring one room's rows up to date, inside the caller's
        transaction, but for its new step rows, which it adds to `step_rows` for the
        caller to insert (after this room's DELETE of an old round's steps); returns what
        `_saved` records once it commits.

        `moves_only`: the change was player moves and nothing else, so the meta has not
        changed except for the version, which each step row carries: one INSERT per move.
        """
        now = time.time()
        round_no, written = self._saved.get(room.code, (-1, 0))
        moves_only = moves_only and round_no == room.round_no
        c = self.conn
        if moves_only:
            pass
        elif round_no != room.round_no:
            c.execute("DELETE FROM steps WHERE code = ?", (room.code,))
            written = 0
            initial = room_initial(room)
            c.execute("INSERT INTO rooms (code, meta, round_no, initial, updated) VALUES (?, ?, ?, ?, ?) "
                      "ON CONFLICT(code) DO UPDATE SET meta=excluded.meta, round_no=excluded.round_no, "
                      "initial=excluded.initial, updated=excluded.updated",
                      (room.code, dumps(room_meta(room, self._monotonic())), room.round_no,
                       dumps(initial) if initial is not None else None, now))
        else:
            c.execute("UPDATE rooms SET meta = ?, updated = ? WHERE code = ?",
                      (dumps(room_meta(room, self._monotonic())), now, room.code))
        new_steps = room.round_actions[written:]
        if new_steps:
            ids = room.round_step_ids[written:]
            step_rows.extend((room.code, room.round_no, written + i, dumps(step), *(ids[i] or (None, None, None)))
                             for i, step in enumerate(new_steps))
        return room.round_no, written + len(new_steps)

    @staticmethod
    def _monotonic() -> float:
        return time.monotonic()

    def forget_room(self, room: Room) -> None:
        with self.conn:
            self.conn.execute("BEGIN")
            self.conn.execute("DELETE FROM steps WHERE code = ?", (room.code,))
            self.conn.execute("DELETE FROM rooms WHERE code = ?", (room.code,))
        self._saved.pop(room.code, None)
        self._finished.discard(room.code)

    def load_rooms(self, **room_kwargs: Any) -> list[Room]:
        """Every room that is neither finished nor expired, ready to be played on."""
        now_wall, now = time.time(), time.monotonic()
        rooms = []
        rows = self.conn.execute("SELECT code, meta, round_no, initial, updated, finished FROM rooms").fetchall()
        for code, meta, round_no, initial, updated, finished in rows:
            if finished or now_wall - updated > ROOM_EXPIRY_S:
                continue
            steps = self.conn.execute(
                "SELECT step, player, action_id, v FROM steps WHERE code = ? AND round_no = ? ORDER BY seq",
                (code, round_no)).fetchall()
            try:
                room = restore_room(json.loads(meta), json.loads(initial) if initial else None,
                                    [json.loads(s[0]) for s in steps],
                                    [(p, a, v) if p is not None else None for _, p, a, v in steps],
                                    now=now, **room_kwargs)
            except Exception as err:  # one damaged room must not keep the others from starting
                log.error("room %s could not be restored and is left in the database: %s", code, err)
                continue
            self._saved[code] = (round_no, len(steps))
            rooms.append(room)
        return rooms

    # ------------------------------------------------------------ finished matches

    def record_match(self, room: Room) -> None:
        players = [{"id": p.id, "name": p.name, "total": p.total,
                    "bot": p.bot.level if p.bot is not None else None} for p in room.players]
        winners = (room.result or {}).get("winners", [])
        with self.conn:
            self.conn.execute("BEGIN")
            self.conn.execute("INSERT INTO matches (code, finished_at, players, rounds, winners) VALUES (?, ?, ?, ?, ?)",
                              (room.code, time.time(), dumps(players), dumps(room.history), dumps(winners)))
            self.conn.execute("UPDATE rooms SET finished = 1 WHERE code = ?", (room.code,))
        self._finished.add(room.code)

    def reopen_match(self, room: Room) -> None:
        """A rematch: the room is live again (its finished match stays in history)."""
        self._finished.discard(room.code)
        with self.conn:
            self.conn.execute("UPDATE rooms SET finished = 0 WHERE code = ?", (room.code,))

    def recent_matches(self, limit: int = 10) -> list[dict]:
        rows = self.conn.execute("SELECT code, finished_at, players, rounds, winners FROM matches "
                                 "ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
        return [{"code": code, "finished_at": at, "players": json.loads(players),
                 "rounds": json.loads(rounds), "winners": json.loads(winners)}
                for code, at, players, rounds, winners in rows]

    # ------------------------------------------------------------ Devil's Grip

    def save_grip(self, session: GripSession) -> None:
        with self.conn:
            self.conn.execute("BEGIN")
            now = time.time()
            self.conn.execute("INSERT INTO grips (id, token_hash, game, updated, used_hint, winnable) "
                              "VALUES (?, ?, ?, ?, ?, ?) "
                              "ON CONFLICT(id) DO UPDATE SET game=excluded.game, updated=excluded.updated, "
                              "used_hint=excluded.used_hint",
                              (session.id, session.token_hash.hex(), dumps(session.game.to_json()), now,
                               int(session.used_hint), int(session.winnable)))
            if session.played:
                self.conn.execute("DELETE FROM grip_fresh WHERE id = ?", (session.id,))
            else:
                self.conn.execute("INSERT OR IGNORE INTO grip_fresh (id, dealt) VALUES (?, ?)", (session.id, now))

    def load_grip(self, game_id: str) -> GripSession | None:
        row = self.conn.execute("SELECT id, token_hash, game, updated, used_hint, winnable FROM grips WHERE id = ?",
                                (game_id,)).fetchone()
        if row is None:
            return None
        gid, th, game, updated, used_hint, winnable = row
        return GripSession(id=gid, token_hash=bytes.fromhex(th), game=GripGame.from_json(json.loads(game)),
                           last_used=updated, used_hint=bool(used_hint), winnable=bool(winnable))

    # Par and solutions: `passes` None (unlimited) is stored as 0, which no limit can be.

    def grip_par(self, number: int, passes: int | None, engine: str) -> int | None:
        """The stored par of a deal under a pass limit, if the engine `engine` computed it."""
        row = self.conn.execute("SELECT par FROM grip_par WHERE number = ? AND passes = ? AND engine = ?",
                                (str(number), passes or 0, engine)).fetchone()
        return None if row is None else row[0]

    def save_grip_par(self, number: int, passes: int | None, engine: str, par: int) -> None:
        with self.conn:
            self.conn.execute("BEGIN")
            self.conn.execute("INSERT INTO grip_par (number, passes, par, engine, computed) VALUES (?, ?, ?, ?, ?) "
                              "ON CONFLICT(number, passes) DO UPDATE SET par=excluded.par, engine=excluded.engine, "
                              "computed=excluded.computed", (str(number), passes or 0, par, engine, time.time()))

    def save_grip_solution(self, number: int, line: list[dict] | None) -> None:
        """What the solver found for a deal (unlimited passes): a winning line, or None."""
        with self.conn:
            self.conn.execute("BEGIN")
            self.conn.execute("INSERT INTO grip_solutions (number, line, tried) VALUES (?, ?, ?) "
                              "ON CONFLICT(number) DO UPDATE SET line=excluded.line, tried=excluded.tried",
                              (str(number), dumps(line) if line is not None else None, time.time()))

    def grip_solution(self, number: int) -> list[dict] | None:
        row = self.conn.execute("SELECT line FROM grip_solutions WHERE number = ?", (str(number),)).fetchone()
        return None if row is None or row[0] is None else json.loads(row[0])

    def grip_tried(self, number: int) -> bool:
        return self.conn.execute("SELECT 1 FROM grip_solutions WHERE number = ?", (str(number),)).fetchone() is not None

    def grip_winnable_count(self, *, undealt: bool = False) -> int:
        where = "line IS NOT NULL" + (" AND dealt = 0" if undealt else "")
        return self.conn.execute(f"SELECT COUNT(*) FROM grip_solutions WHERE {where}").fetchone()[0]

    def take_grip_winnable(self) -> int | None:
        """A certified winnable deal, the least dealt first (ties at random); counts it dealt."""
        with self.conn:
            self.conn.execute("BEGIN")
            row = self.conn.execute("SELECT number FROM grip_solutions WHERE line IS NOT NULL "
                                    "ORDER BY dealt, random() LIMIT 1").fetchone()
            if row is None:
                return None
            self.conn.execute("UPDATE grip_solutions SET dealt = dealt + 1 WHERE number = ?", (row[0],))
        return int(row[0])

    def expire_grips(self, expiry_s: float = GRIP_EXPIRY_S, unplayed_s: float | None = None,
                     max_stored: int | None = None, now: float | None = None) -> int:
        """Forget Devil's Grip games untouched for `expiry_s`, games in which nothing was
        ever played after `unplayed_s`, and, past `max_stored` games, the least recently
        used ones; at most PRUNE_BATCH rows per kind and call (the maintenance task calls
        again while there is more). Returns how many were deleted."""
        now = time.time() if now is None else now
        deleted = 0
        c = self.conn
        with c:
            c.execute("BEGIN")
            deleted += c.execute("DELETE FROM grips WHERE id IN (SELECT id FROM grips WHERE updated < ? LIMIT ?)",
                                 (now - expiry_s, PRUNE_BATCH)).rowcount
            if unplayed_s is not None:
                deleted += c.execute("DELETE FROM grips WHERE id IN "
                                     "(SELECT id FROM grip_fresh WHERE dealt < ? LIMIT ?)",
                                     (now - unplayed_s, PRUNE_BATCH)).rowcount
            if max_stored is not None:
                excess = c.execute("SELECT COUNT(*) FROM grips").fetchone()[0] - max_stored
                if excess > 0:  # games never played go first, the oldest first
                    deleted += (gone := c.execute("DELETE FROM grips WHERE id IN "
                                                  "(SELECT id FROM grip_fresh ORDER BY dealt LIMIT ?)",
                                                  (min(excess, PRUNE_BATCH),)).rowcount)
                    excess -= gone
                if excess > 0:
                    deleted += c.execute("DELETE FROM grips WHERE id IN (SELECT id FROM grips ORDER BY updated LIMIT ?)",
                                         (min(excess, PRUNE_BATCH),)).rowcount
            # what is gone from grips is gone from the fresh list (a small table)
            c.execute("DELETE FROM grip_fresh WHERE NOT EXISTS (SELECT 1 FROM grips WHERE grips.id = grip_fresh.id)")
        return deleted

    def grip_count(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM grips").fetchone()[0]
