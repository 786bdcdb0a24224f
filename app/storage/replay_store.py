"""Finished Demon rounds kept for their replays.

A room's `steps` hold only its current round (the next round deletes them), so when a
round ends its whole record is copied here once, under its replay id, with who sat at the
table: their names, colours and
scores for the viewer, and their seat tokens' hashes, which decide who may watch it
(app/server/replays_http.py `may_watch`). A round of a room its host listed (the recent
games' rule, docs/security.md) is shared from the start; the host may share any other
later. A round saved again after a restart is the same row (INSERT OR IGNORE on the id).
The row also says whether its person let the bots finish the round (`bots_finish`: the
record says only that votes ended it, and the replay's results say it as the live ones do).

A replay id is the room's code, a dash, and the round's random, unguessable id
(`RoundRecord.round_id`): `ABCDEFG-x4Tq...`, in the characters the page's links allow.
With several processes the room code's first letter names the process that owns the room
(DEMON_SHARD), so the balancer sends a replay's requests to the one process that keeps it,
as it does a room's (`replay_id`, `replay_letter`). Rows written before the prefix keep
their bare ids (16 URL-safe characters) and are found by them; such an id is taken for a
prefixed one only if its first seven characters happen to read as a room code followed by
a dash (about one in a hundred thousand). The record itself is kept as
the room made it, whatever its game: this store reads only the id and the seats.

Replays are pruned as Devil's Grip games are (`expire`): past an age, and past a count
the oldest first, at most `PRUNE_BATCH` rows a call, since pruning runs on the event
loop while the server plays.
"""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any, TypedDict

from app.demon.room.room import Phase, Room
from app.protocol.wire import dumps
from app.support.secrets_util import CODE_ALPHABET, CODE_LENGTH

REPLAY_EXPIRY_S = 30 * 24 * 3600
PRUNE_BATCH = 2000  # rows deleted per statement (the same bound as Devil's Grip games')


class ReplayPlayer(TypedDict):
    seat: int
    id: str
    name: str
    colour: int | None
    bot: str | None
    score: int
    total: int


class ReplayRow(TypedDict):
    id: str
    code: str
    round_no: int
    finished_at: float
    players: list[ReplayPlayer]
    watchers: list[str]  # seat tokens' hashes (hex) of the people who played it
    host: str | None  # the host's token hash: the one who may share it with anyone
    shared: bool
    bots_finish: bool  # its person let the bots finish it (the room's `bots_finish`)
    record: dict[str, Any]


def replay_id(code: str, round_id: str) -> str:
    """The id a round's replay is kept and linked under (the module's docstring says why)."""
    return f"{code}-{round_id}"


def replay_letter(replay_id: str) -> str | None:
    """The room code's first letter a replay id starts with; None for an older, bare id."""
    prefix = replay_id[:CODE_LENGTH]
    if len(replay_id) > CODE_LENGTH + 1 and replay_id[CODE_LENGTH] == "-" and all(c in CODE_ALPHABET for c in prefix):
        return replay_id[0]
    return None


class ReplayStore:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._kept: set[str] = set()  # replay ids written by this process

    def keep_if_ended(self, room: Room) -> str | None:
        """Inside the caller's transaction: copy the room's round once it has ended.
        Returns the replay id written, for `committed` once the transaction is."""
        round_id = room.record.round_id
        if room.phase not in (Phase.ROUND_OVER, Phase.MATCH_OVER) or round_id is None:
            return None
        kept_id = replay_id(room.code, round_id)
        if kept_id in self._kept:
            return None
        record = room.record.record()
        if record is None or room.result is None:
            return None
        scores = room.result["scores"]
        players = [
            ReplayPlayer(
                seat=p.seat,
                id=p.id,
                name=p.name,
                colour=p.colour,
                bot=p.bot.level if p.bot is not None else None,
                score=scores.get(p.id, 0),
                total=p.total,
            )
            for p in room.players
            if p.seat is not None
        ]
        watchers = [p.token_hash.hex() for p in room.players if p.bot is None]
        host = next((p.token_hash.hex() for p in room.players if p.id == room.host), None)
        self.conn.execute(
            "INSERT OR IGNORE INTO replays (id, code, round_no, finished_at, players, watchers, shared, bots_finish, "
            "record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                kept_id,
                room.code,
                room.round_no,
                time.time(),
                dumps(players),
                dumps({"players": watchers, "host": host}),
                int(room.listed),
                int(room.bots_finish),
                dumps(record),
            ),
        )
        return kept_id

    def committed(self, replay_ids: list[str]) -> None:
        self._kept.update(replay_ids)

    def load(self, replay_id: str) -> ReplayRow | None:
        row = self.conn.execute(
            "SELECT id, code, round_no, finished_at, players, watchers, shared, bots_finish, record "
            "FROM replays WHERE id = ?",
            (replay_id,),
        ).fetchone()
        return None if row is None else self._row(row)

    def of_room(self, code: str, limit: int = 50) -> list[ReplayRow]:
        """The room's kept rounds, newest first (their records left out: {})."""
        rows = self.conn.execute(
            "SELECT id, code, round_no, finished_at, players, watchers, shared, bots_finish, '{}' "
            "FROM replays WHERE code = ? ORDER BY finished_at DESC LIMIT ?",
            (code, limit),
        ).fetchall()
        return [self._row(r) for r in rows]

    def share(self, replay_id: str, shared: bool) -> None:
        with self.conn:
            self.conn.execute("BEGIN")
            self.conn.execute("UPDATE replays SET shared = ? WHERE id = ?", (int(shared), replay_id))

    def expire(self, expiry_s: float = REPLAY_EXPIRY_S, max_stored: int | None = None, now: float | None = None) -> int:
        """Forget the rounds that finished more than `expiry_s` ago and, past `max_stored`
        rounds, the oldest ones; at most PRUNE_BATCH rows per rule and call (the caller
        calls again while there is more). Returns how many were deleted."""
        now = time.time() if now is None else now
        c = self.conn
        with c:
            c.execute("BEGIN")
            deleted: int = c.execute(
                "DELETE FROM replays WHERE id IN (SELECT id FROM replays WHERE finished_at < ? LIMIT ?)",
                (now - expiry_s, PRUNE_BATCH),
            ).rowcount
            if max_stored is not None:
                excess = self.count() - max_stored
                if excess > 0:
                    deleted += c.execute(
                        "DELETE FROM replays WHERE id IN (SELECT id FROM replays ORDER BY finished_at LIMIT ?)",
                        (min(excess, PRUNE_BATCH),),
                    ).rowcount
        return deleted

    def count(self) -> int:
        value = self.conn.execute("SELECT COUNT(*) FROM replays").fetchone()[0]
        assert isinstance(value, int)
        return value

    @staticmethod
    def _row(row: tuple[Any, ...]) -> ReplayRow:
        rid, code, round_no, at, players, watchers, shared, bots_finish, record = row
        who = json.loads(watchers)
        return ReplayRow(
            id=rid,
            code=code,
            round_no=round_no,
            finished_at=at,
            players=json.loads(players),
            watchers=who["players"],
            host=who["host"],
            shared=bool(shared),
            bots_finish=bool(bots_finish),
            record=json.loads(record),
        )
