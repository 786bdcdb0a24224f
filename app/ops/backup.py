"""Backups of the database while the server runs, and their checked restore.

`backup` uses SQLite's online backup API (`sqlite3.Connection.backup`) from a connection
of its own: it copies the database as one read transaction sees it, so the copy is
consistent (every commit before it whole, none after it in part) while the server goes
on writing, since in WAL mode a reader never blocks the writer. It reads the write-ahead
log too, which copying `demon.sqlite3` with `cp` would miss. Every move the server has
acknowledged before the backup starts is in the copy: an `ack` leaves only after its
commit (app/demon/hub/flush.py).

The copy is written beside its final name and renamed once it is whole and checked, so a
backup directory never holds half a file; it is a single file (journal mode DELETE), with
no `-wal` companion to forget.

`restore` checks a copy before anything is touched: `PRAGMA integrity_check`, a schema
version this server knows (a newer one is refused; an older one is upgraded by the
server when it starts, as after any upgrade), and the tables of both games. It refuses
while a server holds the database open (the server's rooms live in its memory and would
be saved over the restored file), keeps the replaced database beside it, removes its
`-wal` and `-shm` (they belong to the old file) and puts the copy in place.

One SQLite file holds both games (app/storage/db.py): Demon's rooms, round logs and
finished matches, and Devil's Grip's games, pars and solutions. Several processes
(DEMON_SHARD) each have their own file: back each one up.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

from app.storage.db import DB_NAME
from app.storage.schema import SCHEMA_VERSION

# The tables a copy must hold, from the first schema on (rooms, logs, matches, games).
REQUIRED_TABLES = frozenset({"rooms", "steps", "grips"})


class BackupError(Exception):
    """The backup or restore cannot be done; the message says why and what to do."""


def backup(data_dir: Path, dest_dir: Path) -> Path:
    """Copy `data_dir`/demon.sqlite3 into `dest_dir` as demon-YYYYMMDD-HHMMSS.sqlite3 and
    return the copy's path. Safe while the server runs."""
    source = data_dir / DB_NAME
    if not source.is_file():
        raise BackupError(f"No database at {source}: is DEMON_DATA_DIR (or --data-dir) right?")
    dest_dir.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    target = dest_dir / f"demon-{stamp}.sqlite3"
    n = 1
    while target.exists():
        n += 1
        target = dest_dir / f"demon-{stamp}-{n}.sqlite3"
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    # Read-write, though nothing is written: a read-only connection to a WAL database
    # needs its -shm in a state it cannot always find (server stopped, or another user).
    src = sqlite3.connect(source, timeout=30)
    try:
        dst = sqlite3.connect(partial, isolation_level=None)
        try:
            src.backup(dst)  # one step: one read transaction, one consistent snapshot
            dst.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal to carry along
        finally:
            dst.close()
    except sqlite3.Error as err:
        partial.unlink(missing_ok=True)
        raise BackupError(f"The backup of {source} failed ({err}).") from err
    finally:
        src.close()
    check(partial)
    _fsync(partial)
    os.replace(partial, target)
    return target


def check(copy: Path) -> int:
    """The copy's schema version, once it passes `PRAGMA integrity_check`, is a version
    this server can open, and holds both games' tables; `BackupError` otherwise."""
    if not copy.is_file():
        raise BackupError(f"No file at {copy}.")
    try:
        conn = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
        try:
            problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()
    except sqlite3.DatabaseError as err:
        raise BackupError(f"{copy} is not a readable SQLite database ({err}).") from err
    if problems != ["ok"]:
        raise BackupError(f"{copy} fails SQLite's integrity check: {'; '.join(problems[:5])}")
    if version > SCHEMA_VERSION:
        raise BackupError(
            f"{copy} was written by a newer server (schema {version}; this server knows "
            f"{SCHEMA_VERSION}): restore it with that version or a later one."
        )
    missing = REQUIRED_TABLES - tables
    if version < 1 or missing:
        raise BackupError(
            f"{copy} is not a backup of this server's database (schema {version}, "
            f"missing tables: {', '.join(sorted(missing)) or 'none'})."
        )
    assert isinstance(version, int)
    return version


def in_use(database: Path) -> bool:
    """Whether a process (a running server) holds the database open: an exclusive lock
    cannot be had then."""
    if not database.exists():
        return False
    conn = sqlite3.connect(database, timeout=0, isolation_level=None)
    try:
        conn.execute("PRAGMA locking_mode=EXCLUSIVE")
        conn.execute("BEGIN EXCLUSIVE")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        conn.execute("ROLLBACK")
        return False
    except sqlite3.OperationalError:
        return True
    finally:
        conn.close()


def restore(copy: Path, data_dir: Path) -> tuple[Path, Path | None]:
    """Put a checked copy in place as `data_dir`/demon.sqlite3 (the server stopped).
    Returns the database's path and where the replaced one was kept (None: there was none)."""
    check(copy)
    data_dir.mkdir(parents=True, exist_ok=True)
    database = data_dir / DB_NAME
    if in_use(database):
        raise BackupError(f"{database} is open in a running server: stop it first, then restore.")
    incoming = data_dir / (DB_NAME + ".restoring")
    incoming.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(incoming, isolation_level=None)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")
        finally:
            dst.close()
    finally:
        src.close()
    check(incoming)
    _fsync(incoming)
    kept: Path | None = None
    if database.exists():
        # The old database, made whole first (its WAL folded in), kept beside the new one.
        old = sqlite3.connect(database, isolation_level=None)
        try:
            old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            old.close()
        kept = data_dir / f"{DB_NAME}.before-restore-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}"
        os.replace(database, kept)
    for companion in ("-wal", "-shm"):
        Path(f"{database}{companion}").unlink(missing_ok=True)
    os.replace(incoming, database)
    return database, kept


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
