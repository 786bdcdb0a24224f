"""SQLite persistence for the whole server: the one door the app opens (`Store.open`).

The work is split by concern, each module with one job:

* `db.py`: the file: opening and checking it, the pragmas (WAL, no automatic
  checkpoints), the schema migrations (`schema.py`), the WAL checkpoint and closing;
* `demon_store.py`: Demon's rooms, round logs and finished matches;
* `grip_store.py`: Devil's Grip's games, pars and certified solutions.

Both games share one file and one connection (one schema version, one backup, and the
hub's group commit stays one transaction), so the per-game stores are given the
`Database`'s connection rather than opening their own. Why the stores live here and not
in each game's package: storage is the one layer that knows SQL, and the games' rules
and services stay free of it (the dependency goes from storage to the games' types,
never back).

`Store` is a thin facade that keeps the names the rest of the app has always called
(`store.save_rooms`, `store.load_grip`, ...): each method hands the call to the store
that owns it. `store.demon`, `store.grip` and `store.db` are there for new code.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from app.demon.room.room import Room
from app.grip.rules.shapes import ActionJson
from app.grip.service.sessions import GripSession
from app.storage.db import DB_NAME, Database, StoreError
from app.storage.demon_store import ROOM_EXPIRY_S, DemonStore
from app.storage.grip_store import GRIP_EXPIRY_S, PRUNE_BATCH, GripStore
from app.storage.schema import MIGRATIONS, SCHEMA_VERSION

__all__ = [
    "DB_NAME",
    "GRIP_EXPIRY_S",
    "MIGRATIONS",
    "PRUNE_BATCH",
    "ROOM_EXPIRY_S",
    "SCHEMA_VERSION",
    "Store",
    "StoreError",
]


class Store:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.demon = DemonStore(db.conn)
        self.grip = GripStore(db.conn)

    @classmethod
    def open(
        cls,
        data_dir: Path,
        *,
        target_version: int = SCHEMA_VERSION,
        wal_limit_bytes: int = 64 * 1024 * 1024,
        check: bool = True,
    ) -> Store:
        """Open (or create) `data_dir`/demon.sqlite3 at `target_version` (`Database.open`)."""
        return cls(Database.open(data_dir, target_version=target_version, wal_limit_bytes=wal_limit_bytes, check=check))

    # ------------------------------------------------------------ the file

    @property
    def conn(self) -> sqlite3.Connection:
        return self.db.conn

    @property
    def path(self) -> Path:
        return self.db.path

    @property
    def version(self) -> int:
        return self.db.version

    def migrate(self, current: int, target: int = SCHEMA_VERSION) -> None:
        self.db.migrate(current, target)

    def checkpoint(self) -> None:
        self.db.checkpoint()

    def wal_bytes(self) -> int:
        return self.db.wal_bytes()

    def wal_wants_checkpoint(self) -> bool:
        return self.db.wal_wants_checkpoint()

    def finish_checkpoint(self) -> None:
        self.db.finish_checkpoint()

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------ Demon

    def save_room(self, room: Room, *, moves_only: bool = False) -> None:
        self.demon.save_room(room, moves_only=moves_only)

    def save_rooms(self, rooms: list[tuple[Room, bool]]) -> set[str]:
        return self.demon.save_rooms(rooms)

    def forget_room(self, room: Room) -> None:
        self.demon.forget_room(room)

    def load_rooms(self, **room_kwargs: Any) -> list[Room]:
        return self.demon.load_rooms(**room_kwargs)

    def record_match(self, room: Room) -> None:
        self.demon.record_match(room)

    def reopen_match(self, room: Room) -> None:
        self.demon.reopen_match(room)

    def recent_matches(self, limit: int = 10) -> list[dict[str, Any]]:
        return self.demon.recent_matches(limit)

    def matches_seen_by(self, code: str, token_hash: bytes, limit: int = 10) -> list[dict[str, Any]]:
        return self.demon.matches_seen_by(code, token_hash, limit)

    # ------------------------------------------------------------ Devil's Grip

    def save_grip(self, session: GripSession) -> None:
        self.grip.save_grip(session)

    def load_grip(self, game_id: str) -> GripSession | None:
        return self.grip.load_grip(game_id)

    def grip_par(self, number: int, passes: int | None, engine: str) -> int | None:
        return self.grip.grip_par(number, passes, engine)

    def save_grip_par(self, number: int, passes: int | None, engine: str, par: int) -> None:
        self.grip.save_grip_par(number, passes, engine, par)

    def save_grip_solution(self, number: int, line: list[ActionJson] | None) -> None:
        self.grip.save_grip_solution(number, line)

    def grip_solution(self, number: int) -> list[ActionJson] | None:
        return self.grip.grip_solution(number)

    def grip_tried(self, number: int) -> bool:
        return self.grip.grip_tried(number)

    def grip_winnable_count(self, *, undealt: bool = False) -> int:
        return self.grip.grip_winnable_count(undealt=undealt)

    def take_grip_winnable(self) -> int | None:
        return self.grip.take_grip_winnable()

    def expire_grips(
        self,
        expiry_s: float = GRIP_EXPIRY_S,
        unplayed_s: float | None = None,
        max_stored: int | None = None,
        now: float | None = None,
    ) -> int:
        return self.grip.expire_grips(expiry_s, unplayed_s, max_stored, now)

    def grip_count(self) -> int:
        return self.grip.grip_count()
