"""Demon's rows: rooms, their round logs, finished matches.

Why this shape:
* A room's small "meta" (players, host, totals, version…) is rewritten whole when it
  changes; the round's log is append-only (`steps`), so a move costs one small INSERT,
  not a rewrite of 52 × 8 cards, and the hub commits all the moves of one turn of the
  event loop, in every room, together (`save_rooms`).
* The hub commits *before* it acknowledges an action (see `db.py` for what a commit
  survives).
* Writes happen on the event loop thread, in the hub's flush: they take tens of
  microseconds per turn (bench/server.py measures the cost), far less than handing them
  to a thread would.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import sqlite3
import time
from typing import Any

from app.demon.room.action_ids import KeptId
from app.demon.room.persist import kept_action_ids, restore_room, room_initial, room_meta
from app.demon.room.room import Phase, Room
from app.protocol.wire import dumps
from app.storage.daily_store import DailyStore
from app.storage.replay_store import REPLAY_EXPIRY_S, ReplayStore

log = logging.getLogger("demon.store")

ROOM_EXPIRY_S = 24 * 3600  # a room untouched this long is not restored

# code, round, seq, step, player, action id, v, at (seconds after the signal)
StepRow = tuple[str, int, int, str, str | None, str | None, int | None, float | None]


class DemonStore:
    """Rooms and matches on the shared connection; remembers what each room has written."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._saved: dict[str, tuple[int, int]] = {}  # code -> (round_no, steps written)
        self._finished: set[str] = set()
        self.replays = ReplayStore(conn)  # finished rounds, copied here as they end
        self.daily = DailyStore(conn)  # the daily race's entries

    def expire_replays(
        self, expiry_s: float = REPLAY_EXPIRY_S, max_stored: int | None = None, now: float | None = None
    ) -> int:
        """Forget the replays past their age or count (`ReplayStore.expire`) and the daily
        race's entries of the days that age left behind (their replays are gone with
        them). At most a batch of each per call; returns how many rows were deleted."""
        now = time.time() if now is None else now
        before_day = dt.datetime.fromtimestamp(now - expiry_s, dt.UTC).date().isoformat()
        return self.replays.expire(expiry_s, max_stored, now) + self.daily.expire(before_day)

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
            step_rows: list[StepRow] = []  # every room's new steps, in one statement
            written = [self._write_room(room, moves_only, step_rows) for room, moves_only in rooms]
            if step_rows:
                c.executemany(
                    "INSERT INTO steps (code, round_no, seq, step, player, action_id, v, at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    step_rows,
                )
            kept = []
            for room, moves_only in rooms:
                rid = None if moves_only else self.replays.keep_if_ended(room)
                if rid is not None:
                    self.daily.finished(room, rid)  # a daily race's entry is complete
                    kept.append(rid)
            c.execute("COMMIT")
        except BaseException:
            c.execute("ROLLBACK")
            raise
        self.replays.committed(kept)
        for (room, _moves_only), saved in zip(rooms, written):
            self._saved[room.code] = saved
        for room, _moves_only in rooms:  # after the counts: a failure here unsaves nothing
            if room.phase is Phase.MATCH_OVER and room.code not in self._finished:
                try:
                    self.record_match(room)
                except Exception:  # tried again with the room's next save
                    log.exception("could not record the finished match of room %s", room.code)

    def _write_room(self, room: Room, moves_only: bool, step_rows: list[StepRow]) -> tuple[int, int]:
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
            # The old round's applied ids leave with its steps: keep them apart, as the
            # room still answers them for one more round.
            c.execute("DELETE FROM kept_action_ids WHERE code = ?", (room.code,))
            c.executemany(
                "INSERT INTO kept_action_ids (code, player, action_id, v, earlier) VALUES (?, ?, ?, ?, ?)",
                [(room.code, k.player, k.action_id, k.v, int(k.earlier)) for k in kept_action_ids(room)],
            )
            written = 0
            initial = room_initial(room)
            c.execute(
                "INSERT INTO rooms (code, meta, round_no, initial, updated) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT(code) DO UPDATE SET meta=excluded.meta, round_no=excluded.round_no, "
                "initial=excluded.initial, updated=excluded.updated",
                (
                    room.code,
                    dumps(room_meta(room, self._monotonic())),
                    room.round_no,
                    dumps(initial) if initial is not None else None,
                    now,
                ),
            )
        else:
            c.execute(
                "UPDATE rooms SET meta = ?, updated = ? WHERE code = ?",
                (dumps(room_meta(room, self._monotonic())), now, room.code),
            )
        new_steps = room.round_actions[written:]
        if new_steps:
            ids = room.round_step_ids[written:]
            times = room.record.times[written:]
            step_rows.extend(
                (room.code, room.round_no, written + i, dumps(step), *(ids[i] or (None, None, None)), times[i])
                for i, step in enumerate(new_steps)
            )
        return room.round_no, written + len(new_steps)

    @staticmethod
    def _monotonic() -> float:
        return time.monotonic()

    def forget_room(self, room: Room) -> None:
        with self.conn:
            self.conn.execute("BEGIN")
            self.conn.execute("DELETE FROM steps WHERE code = ?", (room.code,))
            self.conn.execute("DELETE FROM kept_action_ids WHERE code = ?", (room.code,))
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
                "SELECT step, player, action_id, v, at FROM steps WHERE code = ? AND round_no = ? ORDER BY seq",
                (code, round_no),
            ).fetchall()
            kept = [
                KeptId(p, a, v, bool(e))
                for p, a, v, e in self.conn.execute(
                    "SELECT player, action_id, v, earlier FROM kept_action_ids WHERE code = ?", (code,)
                )
            ]
            try:
                room = restore_room(
                    json.loads(meta),
                    json.loads(initial) if initial else None,
                    [json.loads(s[0]) for s in steps],
                    [(p, a, v) if p is not None else None for _, p, a, v, _at in steps],
                    now=now,
                    kept=kept,
                    times=[s[4] for s in steps],
                    **room_kwargs,
                )
            except Exception as err:  # one damaged room must not keep the others from starting
                log.error("room %s could not be restored and is left in the database: %s", code, err)
                continue
            self._saved[code] = (round_no, len(steps))
            rooms.append(room)
        return rooms

    # ------------------------------------------------------------ finished matches

    def record_match(self, room: Room) -> None:
        players = [
            {"id": p.id, "name": p.name, "total": p.total, "bot": p.bot.level if p.bot is not None else None}
            for p in room.players
        ]
        winners = room.result["winners"] if room.result is not None else []
        # The people who played it, by their seat token's hash: they, and nobody else
        # unless the room is listed, see the match (`matches_seen_by`).
        seats = [p.token_hash.hex() for p in room.players if p.bot is None]
        with self.conn:
            self.conn.execute("BEGIN")
            self.conn.execute(
                "INSERT INTO matches (code, finished_at, players, rounds, winners, listed, seats, game) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    room.code,
                    time.time(),
                    dumps(players),
                    dumps(room.history),
                    dumps(winners),
                    int(room.listed),
                    dumps(seats),
                    room.options.game,
                ),
            )
            self.conn.execute("UPDATE rooms SET finished = 1 WHERE code = ?", (room.code,))
        self._finished.add(room.code)

    def reopen_match(self, room: Room) -> None:
        """A rematch: the room is live again (its finished match stays in history)."""
        self._finished.discard(room.code)
        with self.conn:
            self.conn.execute("UPDATE rooms SET finished = 0 WHERE code = ?", (room.code,))

    def recent_matches(self, limit: int = 10) -> list[dict[str, Any]]:
        """The latest matches of listed rooms: what every visitor may see."""
        rows = self.conn.execute(
            "SELECT code, finished_at, players, rounds, winners, game FROM matches WHERE listed = 1 "
            "ORDER BY id DESC LIMIT ?",
            (limit,),
        ).fetchall()
        return [_match(*row) for row in rows]

    def matches_seen_by(self, code: str, token_hash: bytes, limit: int = 10) -> list[dict[str, Any]]:
        """The room's matches played from the seat whose token hashes to `token_hash`."""
        rows = self.conn.execute(
            "SELECT code, finished_at, players, rounds, winners, game, seats FROM matches WHERE code = ? ORDER BY id DESC",
            (code,),
        ).fetchall()
        mine = token_hash.hex()
        return [_match(*row[:6]) for row in rows if mine in json.loads(row[6])][:limit]


def _match(code: str, finished_at: float, players: str, rounds: str, winners: str, game: str) -> dict[str, Any]:
    """A finished match as GET /api/history shows it (`game` only when not Demon, whose
    entries read as they always did)."""
    match = {
        "code": code,
        "finished_at": finished_at,
        "players": json.loads(players),
        "rounds": json.loads(rounds),
        "winners": json.loads(winners),
    }
    if game != "demon":
        match["game"] = game
    return match
