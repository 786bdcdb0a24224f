"""Devil's Grip's rows: solo games, the par of each (deal, pass limit), and the deals the
solver tried with the winning line it found.

Deal numbers are TEXT columns: they go up to 2**64 - 1, past SQLite's integers. A pass
limit of None (unlimited) is stored as 0, which no limit can be.

Games are pruned in batches (`expire_grips`, `PRUNE_BATCH` rows a kind and call) because
pruning runs on the event loop while the server plays: no call may hold it long.
"""

from __future__ import annotations

import json
import sqlite3
import time

from app.grip.rules import GripGame
from app.grip.rules.shapes import ActionJson
from app.grip.service.sessions import GripSession
from app.protocol.wire import dumps

GRIP_EXPIRY_S = 30 * 24 * 3600
PRUNE_BATCH = 2000  # rows deleted per statement, so no pruning holds the event loop long


class GripStore:
    """Devil's Grip games, pars and solutions on the shared connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def _int(self, sql: str, params: tuple[object, ...] = ()) -> int:
        """The single integer a query answers (a COUNT)."""
        value = self.conn.execute(sql, params).fetchone()[0]
        assert isinstance(value, int), (sql, value)
        return value

    # ------------------------------------------------------------ games

    def save_grip(self, session: GripSession) -> None:
        with self.conn:
            self.conn.execute("BEGIN")
            now = time.time()
            self.conn.execute(
                "INSERT INTO grips (id, token_hash, game, updated, used_hint, winnable) "
                "VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET game=excluded.game, updated=excluded.updated, "
                "used_hint=excluded.used_hint",
                (
                    session.id,
                    session.token_hash.hex(),
                    dumps({**session.game.to_json(), "seq": session.seq}),
                    now,
                    int(session.used_hint),
                    int(session.winnable),
                ),
            )
            if session.played:
                self.conn.execute("DELETE FROM grip_fresh WHERE id = ?", (session.id,))
            else:
                self.conn.execute("INSERT OR IGNORE INTO grip_fresh (id, dealt) VALUES (?, ?)", (session.id, now))

    def load_grip(self, game_id: str) -> GripSession | None:
        row = self.conn.execute(
            "SELECT id, token_hash, game, updated, used_hint, winnable FROM grips WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            return None
        gid, th, game, updated, used_hint, winnable = row
        data = json.loads(game)
        seq = data.get("seq", 0)  # the page's batch count rides along in the game's JSON
        return GripSession(
            id=gid,
            token_hash=bytes.fromhex(th),
            game=GripGame.from_json(data),
            last_used=updated,
            used_hint=bool(used_hint),
            winnable=bool(winnable),
            seq=seq if isinstance(seq, int) else 0,
        )

    # ------------------------------------------------------------ par and solutions

    def grip_par(self, number: int, passes: int | None, engine: str) -> int | None:
        """The stored par of a deal under a pass limit, if the engine `engine` computed it."""
        row = self.conn.execute(
            "SELECT par FROM grip_par WHERE number = ? AND passes = ? AND engine = ?",
            (str(number), passes or 0, engine),
        ).fetchone()
        return None if row is None else row[0]

    def save_grip_par(self, number: int, passes: int | None, engine: str, par: int) -> None:
        with self.conn:
            self.conn.execute("BEGIN")
            self.conn.execute(
                "INSERT INTO grip_par (number, passes, par, engine, computed) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT(number, passes) DO UPDATE SET par=excluded.par, engine=excluded.engine, "
                "computed=excluded.computed",
                (str(number), passes or 0, par, engine, time.time()),
            )

    def save_grip_solution(self, number: int, line: list[ActionJson] | None) -> None:
        """What the solver found for a deal (unlimited passes): a winning line, or None."""
        with self.conn:
            self.conn.execute("BEGIN")
            self.conn.execute(
                "INSERT INTO grip_solutions (number, line, tried) VALUES (?, ?, ?) "
                "ON CONFLICT(number) DO UPDATE SET line=excluded.line, tried=excluded.tried",
                (str(number), dumps(line) if line is not None else None, time.time()),
            )

    def grip_solution(self, number: int) -> list[ActionJson] | None:
        row = self.conn.execute("SELECT line FROM grip_solutions WHERE number = ?", (str(number),)).fetchone()
        if row is None or row[0] is None:
            return None
        line: list[ActionJson] = json.loads(row[0])
        return line

    def grip_tried(self, number: int) -> bool:
        return self.conn.execute("SELECT 1 FROM grip_solutions WHERE number = ?", (str(number),)).fetchone() is not None

    def grip_winnable_count(self, *, undealt: bool = False) -> int:
        where = "line IS NOT NULL" + (" AND dealt = 0" if undealt else "")
        return self._int(f"SELECT COUNT(*) FROM grip_solutions WHERE {where}")

    def take_grip_winnable(self) -> int | None:
        """A certified winnable deal, the least dealt first (ties at random); counts it dealt."""
        with self.conn:
            self.conn.execute("BEGIN")
            row = self.conn.execute(
                "SELECT number FROM grip_solutions WHERE line IS NOT NULL ORDER BY dealt, random() LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            self.conn.execute("UPDATE grip_solutions SET dealt = dealt + 1 WHERE number = ?", (row[0],))
        return int(row[0])

    def expire_grips(
        self,
        expiry_s: float = GRIP_EXPIRY_S,
        unplayed_s: float | None = None,
        max_stored: int | None = None,
        now: float | None = None,
    ) -> int:
        """Forget Devil's Grip games untouched for `expiry_s`, games in which nothing was
        ever played after `unplayed_s`, and, past `max_stored` games, the least recently
        used ones; at most PRUNE_BATCH rows per kind and call (the maintenance task calls
        again while there is more). Returns how many were deleted."""
        now = time.time() if now is None else now
        deleted = 0
        c = self.conn
        with c:
            c.execute("BEGIN")
            deleted += c.execute(
                "DELETE FROM grips WHERE id IN (SELECT id FROM grips WHERE updated < ? LIMIT ?)",
                (now - expiry_s, PRUNE_BATCH),
            ).rowcount
            if unplayed_s is not None:
                deleted += c.execute(
                    "DELETE FROM grips WHERE id IN (SELECT id FROM grip_fresh WHERE dealt < ? LIMIT ?)",
                    (now - unplayed_s, PRUNE_BATCH),
                ).rowcount
            if max_stored is not None:
                excess = self.grip_count() - max_stored
                if excess > 0:  # games never played go first, the oldest first
                    deleted += (
                        gone := c.execute(
                            "DELETE FROM grips WHERE id IN (SELECT id FROM grip_fresh ORDER BY dealt LIMIT ?)",
                            (min(excess, PRUNE_BATCH),),
                        ).rowcount
                    )
                    excess -= gone
                if excess > 0:
                    deleted += c.execute(
                        "DELETE FROM grips WHERE id IN (SELECT id FROM grips ORDER BY updated LIMIT ?)",
                        (min(excess, PRUNE_BATCH),),
                    ).rowcount
            # what is gone from grips is gone from the fresh list (a small table)
            c.execute("DELETE FROM grip_fresh WHERE NOT EXISTS (SELECT 1 FROM grips WHERE grips.id = grip_fresh.id)")
        return deleted

    def grip_count(self) -> int:
        return self._int("SELECT COUNT(*) FROM grips")
