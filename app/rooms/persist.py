"""A room as plain data, and back: what the SQLite store saves and restores.

The current round is kept as an engine record: the dealt cards (`round_initial`) plus the
ordered log of what changed it (`round_actions`: player actions, and the room's own
`absent`/`finish` steps). Restoring replays that log through the engine, so a restored
round is exactly the one that was played, and the log can be appended to cheaply.
Everything else about the room is small and is saved whole ("meta").
"""

from __future__ import annotations

import time
from typing import Any

from app.engine.demon import DemonRound
from app.engine.records import make_demon_record, replay_demon
from app.rooms.bot_seat import BotSeat
from app.rooms.room import Options, Outcome, Phase, Player, Room


def _player_to_json(p: Player) -> dict:
    d = {"id": p.id, "name": p.name, "token_hash": p.token_hash.hex(), "seat": p.seat,
         "colour": p.colour, "left": p.left, "total": p.total}
    if p.bot is not None:  # level, memory and random state: a restored bot carries on
        d["bot"] = p.bot.to_json()
    return d


def _player_from_json(d: dict, now: float) -> Player:
    """People come back disconnected (their grace period restarts); a bot is back at once."""
    bot = BotSeat.from_json(d["bot"]) if d.get("bot") else None
    present = bot is not None and not d["left"]
    return Player(id=d["id"], name=d["name"], token_hash=bytes.fromhex(d["token_hash"]), seat=d["seat"],
                  colour=d["colour"], left=d["left"], total=d["total"], connected=present,
                  dropped_at=None if bot is not None else now, bot=bot)


def room_meta(room: Room, now: float) -> dict:
    """Everything but the round's cards and action log."""
    return {
        "code": room.code,
        "options": room.options.to_json(),
        "players": [_player_to_json(p) for p in room.players],
        "spectators": [_player_to_json(p) for p in room.spectators],
        "host": room.host,
        "phase": room.phase.value,
        "round_no": room.round_no,
        "round_seed": room.round_seed,
        "votes": sorted(room.votes),
        "history": room.history,
        "result": room.result,
        "v": room.v,
        "next_player": room._next_player,
        "created_at": room.created_at,
        # Wall-clock deadline: the round's clock keeps running while the server is down.
        "deadline_wall": (time.time() + room.round_deadline - now) if room.round_deadline is not None else None,
    }


def room_initial(room: Room) -> dict | None:
    return room.round_initial.to_json() if room.round_initial is not None else None


def round_record(room: Room) -> dict | None:
    """The current round as an engine record (docs/records.md): dealt cards + log."""
    if room.round_initial is None:
        return None
    return make_demon_record(room.round_initial, room.round_actions)


def replay_round(initial: dict, steps: list[dict]) -> DemonRound:
    """The round after its log, replayed by the engine's record player."""
    return replay_demon(make_demon_record(DemonRound.from_json(initial), steps))


def restore_room(meta: dict, initial: dict | None, steps: list[dict],
                 step_ids: list[tuple[str, str, int] | None], *, now: float, **room_kwargs: Any) -> Room:
    """Rebuild a Room. Every player comes back disconnected: the grace period restarts."""
    o = meta["options"]
    room = Room(meta["code"], Options(o["rounds"], o["time_limit_s"], o["max_players"]), **room_kwargs)
    room.players = [_player_from_json(d, now) for d in meta["players"]]
    room.spectators = [_player_from_json(d, now) for d in meta["spectators"]]
    room.host = meta["host"]
    room.phase = Phase(meta["phase"])
    room.round_no = meta["round_no"]
    room.round_seed = meta["round_seed"]
    room.votes = set(meta["votes"])
    room.history = meta["history"]
    room.result = meta["result"]
    # Moves are saved as step rows only (the meta is not rewritten for them), so the
    # version is the later of the meta's and the last move's.
    # (A client may hold later versions whose save a crash cut off: the hub's epoch,
    # not the version, tells it apart; see `Hub.attach`.)
    room.v = max([meta["v"]] + [ids[2] for ids in step_ids if ids is not None])
    room._next_player = meta["next_player"]
    room.created_at = meta.get("created_at", time.time())
    room.last_active = now
    if meta.get("deadline_wall") is not None and room.phase is Phase.PLAYING:
        room.round_deadline = now + (meta["deadline_wall"] - time.time())
    if room.phase is Phase.COUNTDOWN:
        room.countdown_ends = now + room.countdown_s
    if initial is not None:
        room.round_initial = DemonRound.from_json(initial)
        room.round_actions = list(steps)
        room.round_step_ids = list(step_ids)
        room.round = replay_round(initial, steps)
        room.cycled = {step["seat"] for step in steps if step.get("type") == "recycle"}
        if room.phase is Phase.PLAYING and room.round.end is not None:
            room._after_round_change(Outcome())  # saved just before the round's end was
    by_id = {p.id: p for p in room.everyone()}
    for player_id, action_id, v in filter(None, step_ids):
        if player_id in by_id:
            by_id[player_id].recent[action_id] = {"type": "ack", "id": action_id, "v": v}
    return room
