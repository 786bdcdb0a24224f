"""The SQLite file itself: opening it, its pragmas, schema migrations and WAL checkpoints.

Both games keep their rows in one file (`demon.sqlite3`) on one connection: one place to
back up, one schema version, and the hub's group commit stays one transaction. What is
shared by every table lives here; what a game writes lives in its own store
(`demon_store.py`, `grip_store.py`), each given this `Database`'s connection.

Why these pragmas:
* WAL journal with `synchronous=NORMAL`: a commit is a write to the WAL without an fsync.
  It survives the process being killed (SIGKILL) — the data is in the OS — which is what
  "no acknowledged action is lost" needs; only a power cut can lose the last commits.
* Checkpoints (copying the WAL into the database, with an fsync) are run by
  `checkpoint()` off the event loop (the hub runs it in a thread), never inside a
  move's commit: every few seconds, and as soon as the WAL passes a quarter of
  `DEMON_WAL_LIMIT_MB` (`wal_wants_checkpoint`, which the hub asks at every tick).

Schema versions live in `PRAGMA user_version` (`schema.py`). An unreadable file, or one
from a newer server, is refused with a clear error and left untouched.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from app.storage.schema import MIGRATIONS, SCHEMA_VERSION

DB_NAME = "demon.sqlite3"


class StoreError(Exception):
    """The database cannot be used; the message says why and what to do."""


class Database:
    """The open file: `conn` (autocommit mode; stores open their own transactions)."""

    def __init__(self, conn: sqlite3.Connection, path: Path, wal_limit_bytes: int = 64 * 1024 * 1024) -> None:
        self.conn = conn
        self.path = path
        self.wal_limit_bytes = wal_limit_bytes
        self._checkpoint_conn: sqlite3.Connection | None = None

    @classmethod
    def open(
        cls,
        data_dir: Path,
        *,
        target_version: int = SCHEMA_VERSION,
        wal_limit_bytes: int = 64 * 1024 * 1024,
        check: bool = True,
    ) -> Database:
        """Open (or create) the file in `data_dir` and bring its schema to
        `target_version`; `StoreError` when it cannot be used. `check=False` skips the
        integrity check (a scan of the whole file), for a second process opening a file
        the server has just checked (the Devil's Grip worker, app/server/gripproc)."""
        path = data_dir / DB_NAME
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(f"Cannot create the data directory {data_dir} ({err}).") from err
        if not os.access(data_dir, os.W_OK | os.X_OK):
            raise StoreError(
                f"The data directory {data_dir} is not writable by this user "
                f"(uid {os.getuid()}): fix its owner or permissions."
            )
        try:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if check and conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("integrity check failed")
        except sqlite3.DatabaseError as err:
            raise StoreError(
                f"The database {path} is unreadable ({err}). It was left as it is: "
                f"move it away (or restore a backup) and start again."
            ) from err
        if version > SCHEMA_VERSION:
            conn.close()
            raise StoreError(
                f"The database {path} was written by a newer server (schema {version}, "
                f"this server knows {SCHEMA_VERSION}). Upgrade the server."
            )
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        # Checkpoints (copying the WAL into the database, with an fsync) are run by
        # `checkpoint()` off the event loop, never inside a move's commit.
        conn.execute("PRAGMA wal_autocheckpoint=0")
        # After a checkpoint has copied the whole WAL, the next write starts it again from
        # the beginning and truncates the file to this size: without it the file stays as
        # large as the biggest burst of writes ever made (240 MB in a flood of new games).
        # An eighth of the limit, below the quarter at which a checkpoint is due
        # (`wal_wants_checkpoint` reads the file's size), so a truncated WAL is not taken
        # for a full one.
        conn.execute(f"PRAGMA journal_size_limit={int(wal_limit_bytes) // 8}")
        db = cls(conn, path, int(wal_limit_bytes))
        db.migrate(version, target_version)
        return db

    def migrate(self, current: int, target: int = SCHEMA_VERSION) -> None:
        """Run the migrations from version `current` to `target`, each in a transaction."""
        for version in range(current, target):
            with self.conn:
                self.conn.execute("BEGIN")
                for statement in MIGRATIONS[version]:
                    self.conn.execute(statement)
                self.conn.execute(f"PRAGMA user_version = {version + 1}")

    @property
    def version(self) -> int:
        return self._pragma_int("PRAGMA user_version")

    def _pragma_int(self, pragma: str) -> int:
        value = self.conn.execute(pragma).fetchone()[0]
        assert isinstance(value, int), (pragma, value)
        return value

    def checkpoint(self) -> None:
        """Copy the WAL into the database file. Blocking I/O: the hub runs it in a
        thread, on a connection of its own, so no room waits for the disk."""
        if self._checkpoint_conn is None:
            self._checkpoint_conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._checkpoint_conn.execute(f"PRAGMA journal_size_limit={self._wal_limit()}")
        self._checkpoint_conn.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def _wal_limit(self) -> int:
        return self._pragma_int("PRAGMA journal_size_limit")

    def wal_bytes(self) -> int:
        """The size of the write-ahead log file now (0 when there is none)."""
        try:
            return os.path.getsize(f"{self.path}-wal")
        except OSError:
            return 0

    def finish_checkpoint(self) -> None:
        """Copy into the database what was written to the WAL while `checkpoint` ran in
        its thread, on the writers' own connection, so nothing is written meanwhile and
        the checkpoint completes: only then does the next write start the WAL again from
        its beginning (and truncate it). A passive checkpoint beside a steady stream of
        writes never catches up, and the WAL grew on past its limit. Called
        on the event loop, and only once the WAL is past a quarter of its limit: it copies the
        few frames the threaded checkpoint left, then syncs the database file."""
        self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def wal_wants_checkpoint(self) -> bool:
        """The WAL has grown past a quarter of its limit: checkpoint now rather than at the
        next timer, so that the writes made before the checkpoint has caught up still fit
        under the limit (a burst between two timed checkpoints grew it to 75.6
        MB against 64; with half the limit as the trigger, a flood of new games on a
        loaded 2-core machine still reached 8.15 MB against 8). One stat of the file:
        cheap enough for every tick."""
        return self.wal_bytes() >= self.wal_limit_bytes // 4

    def close(self) -> None:
        if self._checkpoint_conn is not None:
            self._checkpoint_conn.close()
        self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.conn.close()
