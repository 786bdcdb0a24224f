"""A table of bots in simulated time, through the room: what bench/bots.py plays both
games' rounds with (Demon's in bench/bots.py, Nerts' in bench/_nerts_table.py).

The table is made with the room's public calls (`seat_bots`): the host seats all bots
but the last, a watcher who finds the table full becomes a spectator, the host leaves
(the watcher becomes host), and the watcher seats the last bot and starts. A reference
player sits in a bot seat whose level is unused: the bench decides for it.

`play_out` is the room's bot driver's timing on a fake clock (app/demon/hub/bot_driver.py):
a priority queue holds each seat's next event; a seat looks at the table, decides, and
its message arrives a think time later (decided on the table as it was: a quicker seat
may have taken the foundation spot meanwhile); then it looks again at once. A seat with
nothing to do that has cast the vote it wants waits until the table changes; one with
nothing to do that is not stuck looks again after another think time. A seat that has
voted to end and then sees something to do takes its vote back at once, so a round
does not end by a stale vote while a bot still plays. The room's time limit (if any) is
checked with `Room.tick` at the deadline. What a seat decides, and how long it thinks,
is the game's (`decide_at`).
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from app.common.bots import Decision
from app.common.rng import derive_seed
from app.demon.room.room import Phase, Player, Room

__all__ = [
    "BIG_MIX",
    "REFERENCE_PAIRS",
    "SAFETY_S",
    "Played",
    "level_pairs",
    "pct",
    "play_out",
    "print_level_targets",
    "print_reference_targets",
    "seat_bots",
    "swapped_deals",
]

SAFETY_S = 4 * 3600.0  # simulated; a round still going then is reported as "hung"
# The 8-bot rounds' seats: 2 easy, 3 medium, 3 hard, rotated so every level takes every seat.
BIG_MIX = ["easy", "easy", "medium", "medium", "medium", "hard", "hard", "hard"]
# Each level against the reference player it is measured by (bench/_reference_play.py).
REFERENCE_PAIRS = (("beginner", "easy"), ("club", "medium"), ("club", "hard"))


@dataclass
class Played:
    """How a round went on the table: its last simulated second and the messages' fate."""

    seconds: float
    moves: int  # actions the room took
    races_lost: int  # actions refused because another seat got there first
    rejected: int  # actions refused otherwise (decided on a table that changed since)


def seat_bots(room: Room, levels: list[str]) -> list[Player]:
    """Seat one bot per level in `room` (seat order), start, and begin the round."""
    n = len(levels)
    host = room.join("host", b"")
    room.connect(host, 0.0)
    players = [room.add_bot(host, lv, 0.0)[1] for lv in levels[:-1]]
    watcher = room.join("watcher", b"")
    room.connect(watcher, 0.0)
    room.leave(host, 0.0)
    players.append(room.add_bot(watcher, levels[-1], 0.0)[1])
    room.start(watcher, 0.0)
    room.begin_round(0.0)
    assert [p.seat for p in players] == list(range(n)) and room.phase is Phase.PLAYING
    return players


def play_out(
    room: Room,
    players: list[Player],
    decide_at: Callable[[int], tuple[Decision[Any], float]],
    act_ns: list[int],
) -> Played:
    """Play the room's round to its end (or `SAFETY_S`): `decide_at(seat)` is the seat's
    decision on the table now and its delay; `act_ns` gets the cost of each `Room.act`."""
    n = len(players)
    queue: list[tuple[float, int, int, tuple[str, Any] | None]] = []  # (time, order, seat, message)
    order = itertools.count()
    pending: set[int] = set()
    ids = itertools.count(1)
    if room.round_deadline is not None:
        heapq.heappush(queue, (room.round_deadline, next(order), -1, None))

    def look(now: float, seat: int) -> None:
        """The driver's `think`: decide on the table now; the message arrives later."""
        d, delay = decide_at(seat)
        if d.action is not None:
            if seat in room.votes:  # it sees something to do: it takes its vote back at once
                room.vote(players[seat], False)
            msg: tuple[str, Any] | None = ("act", d.action)
        elif d.vote_end != (seat in room.votes):
            msg = ("vote", d.vote_end)
        elif d.vote_end:
            return  # stuck and has said so: wait for the table to change
        else:
            msg = None  # nothing now: look again later
        heapq.heappush(queue, (now + delay, next(order), seat, msg))
        pending.add(seat)

    def poke(now: float) -> None:
        if room.phase is Phase.PLAYING:
            for s in range(n):
                if s not in pending:
                    look(now, s)

    poke(0.0)
    now = 0.0
    moves = races_lost = rejected = 0
    while room.phase is Phase.PLAYING and queue:
        now, _o, seat, msg = heapq.heappop(queue)
        if now > SAFETY_S:
            break
        if seat < 0:
            room.tick(now)
            continue
        pending.discard(seat)
        changed = False
        if msg is not None:
            kind, payload = msg
            if kind == "act":
                t0 = time.perf_counter_ns()
                out = room.act(players[seat], f"b{next(ids)}", payload, now)
                act_ns.append(time.perf_counter_ns() - t0)
                if out.reply and out.reply.get("type") == "ack":
                    moves += 1
                    changed = True
                elif out.reply and out.reply.get("code") == "race_lost":
                    races_lost += 1
                else:
                    rejected += 1
            else:
                room.vote(players[seat], payload)
                changed = True
        if room.phase is not Phase.PLAYING:
            break
        look(now, seat)
        if changed:
            poke(now)
    return Played(now, moves, races_lost, rejected)


def level_pairs(names: list[str]) -> list[tuple[str, str]]:
    """Each pair of levels once, then each level against itself."""
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]] + [(x, x) for x in names]


def swapped_deals(rounds: int, first_seed: int) -> Iterator[tuple[int, bool]]:
    """(deal seed, seats swapped) for `rounds` 2-seat rounds: each deal twice, the second
    time with the seats swapped, so both sides get the same cards."""
    for i in range(rounds):
        yield derive_seed(first_seed, i // 2), i % 2 == 1


def print_level_targets(shares: dict[tuple[str, str], tuple[float, float]]) -> None:
    """The bots' strength targets: Hard beats Easy in >= 80 % and Medium in >= 60 %."""
    for other, target in (("easy", 0.80), ("medium", 0.60)):
        if (other, "hard") in shares:
            got = shares[(other, "hard")][1]
            print(
                f"target: hard beats {other} in >= {target:.0%} of rounds: {got:.0%} "
                f"{'met' if got >= target else 'MISSED'}"
            )


def print_reference_targets(shares: dict[tuple[str, str], tuple[float, float]]) -> None:
    """What the levels mean to a person, against `REFERENCE_PAIRS`' rounds."""
    easy_loses = shares[("beginner", "easy")][0]
    medium_wins = shares[("club", "medium")][1]
    hard_wins = shares[("club", "hard")][1]
    for text, got, ok in (
        ("easy loses to the beginner in >= 65 %", easy_loses, easy_loses >= 0.65),
        ("medium wins 40-60 % against the club player", medium_wins, 0.40 <= medium_wins <= 0.60),
        ("hard beats the club player in >= 80 %", hard_wins, hard_wins >= 0.80),
    ):
        print(f"target: {text} of rounds: {got:.0%} {'met' if ok else 'MISSED'}")


def pct(values: list[int], q: float) -> float:
    """The `q` quantile of `values` (nan when there are none)."""
    values = sorted(values)
    return float("nan") if not values else values[min(len(values) - 1, int(q * len(values)))]
