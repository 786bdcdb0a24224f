"""Bot benchmark (not a test): `.venv/bin/python bench/bots.py [--game demon|nerts] [--rounds 200] [--big 30]`.

`--game demon` (the default) is described below; `--game nerts` plays Nerts rounds among
the Nerts bots (app/nerts/rules/bot.py) and against their own reference players
(bench/_nerts_reference.py) and prints the same tables and targets; how those rounds are
played is in bench/_nerts_table.py.

Plays seeded Demon rounds among bots, headless: no sockets, no event loop, but through
the room's own code: the bots are the room's bot seats (`Room.add_bot`: level, memory
and seeded generator as the server keeps them; a spectator hosts, so the table holds
bots only) and they play through `Room.act` and `Room.vote`, so the same validation and
first-come arbitration (rule 14: `race_lost`) apply as on the server.

Time is simulated: a priority queue holds each bot's next event on a fake clock, in the
server driver's timing (app/demon/hub/bot_driver.py): a bot looks at the table, decides, and its
message arrives a think time later (decided on the table as it was: a quicker seat may
have taken the foundation spot meanwhile); then it looks again at once. A bot with
nothing to do that has cast the vote it wants waits until the table changes; one with
nothing to do that is not stuck looks again after another think time. A bot that has
voted to end and then sees something to do takes its vote back at once (`vote_end` is
False with every action, docs/bots.md), so a round does not end by a stale vote while a
bot is still playing. The room's time limit (if any) is checked with `Room.tick` at the
deadline.

Printed, side by side in one run:
* 2-seat rounds of each pair of levels (each deal played twice, the levels swapping
  seats, so both levels get the same cards): the share of rounds each level wins (most
  cards home; equal counts are a tie), mean cards home per level, how the rounds end,
  the mean simulated round length, and the targets met or missed;
* 8-bot rounds (a mix of levels): how rounds end (demon, stuck, vote, time);
* the cost of `decide`, of building the seat view (`seat_view`) and of the room's
  public stuck flags the driver passes into it, measured apart on every decision:
  p50 / p99 / max in microseconds; and both timed again after the run on every 7th
  position (the fastest of 5 calls each; `seat_view` on a copy of the round with empty
  caches), which shows their own cost apart from the noise of a shared machine.
  `seat_view` includes the engine's legal actions, computed afresh when the seat's
  layout changed (the room would compute them for a person's seat too). The baseline
  in the same run is the cost of one `Room.act` (a move through the room), which every
  decision that plays is followed by.

* 2-seat rounds of each level against its reference player (bench/_reference.py: a
  scripted beginner and club player, who decide from what a person can see): what a
  level means to a person.

Targets (the bots' strength and cost): Hard wins >= 80 % of its 2-seat rounds against Easy and >= 60 %
against Medium; decide p99 <= 1 ms. For beginners: Easy loses to the beginner in >= 65 %
of 2-seat rounds; Medium wins 40-60 % against the club player; Hard beats the club
player in >= 80 %.
"""

from __future__ import annotations

import argparse
import dataclasses
import heapq
import itertools
import os
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, cast

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from _reference import REFERENCES, ReferenceMemory, reference_decide, reference_pace

from app.common.rng import SplitMix64, derive_seed
from app.demon.room.room import Options, Phase, Player, Room
from app.demon.rules.bot import LEVELS, BotMemory, Decision, decide, think_time
from app.demon.rules.round import DemonRound, RoundAnalysis
from app.demon.rules.view import seat_view
from app.racing import DEMON

SAFETY_S = 4 * 3600.0  # simulated; a round still going then is reported as "hung"


@dataclass
class Timings:
    decide_ns: list[int] = field(default_factory=list)
    view_ns: list[int] = field(default_factory=list)
    stuck_ns: list[int] = field(default_factory=list)
    act_ns: list[int] = field(default_factory=list)
    samples: list[tuple] = field(default_factory=list)  # (round, seat, stuck, level, memory, rng)


@dataclass
class Bot:
    player: Player
    level: str
    memory: BotMemory
    rng: SplitMix64


def play_round(levels: list[str], seed: int, timings: Timings, time_limit_s: int | None = None) -> dict:
    """One seeded round among bots of the given levels (seat order); returns its result."""
    n = len(levels)
    room = Room(
        "BENCH",
        Options(rounds=1, time_limit_s=time_limit_s, max_players=n),
        countdown_s=0.0,
        test_seed=seed,
        seed_source=SplitMix64(seed),
    )
    # A table of bots alone, made with the room's public calls: the host seats n-1 bots,
    # a watcher who finds the table full becomes a spectator, the host leaves (the watcher
    # becomes host), and the watcher seats the last bot and starts.
    host = room.join("host", b"")
    room.connect(host, 0.0)
    # A reference player sits in a bot seat (its level unused): the bench decides for it.
    seat_levels = [lv if lv in LEVELS else "easy" for lv in levels]
    players = [room.add_bot(host, lv, 0.0)[1] for lv in seat_levels[:-1]]
    watcher = room.join("watcher", b"")
    room.connect(watcher, 0.0)
    room.leave(host, 0.0)
    players.append(room.add_bot(watcher, seat_levels[-1], 0.0)[1])
    room.start(watcher, 0.0)
    room.begin_round(0.0)
    assert [p.seat for p in players] == list(range(n)) and room.phase is Phase.PLAYING
    bots = []
    for p, lv in zip(players, levels):
        assert p.bot is not None  # add_bot seated a bot
        bots.append(Bot(p, lv, p.bot.memory_for(DEMON), p.bot.rng))
    ref_memory = {seat: ReferenceMemory() for seat, lv in enumerate(levels) if lv in REFERENCES}
    queue: list[tuple[float, int, int, tuple[str, Any] | None]] = []  # (time, order, seat, message)
    order = itertools.count()
    pending: set[int] = set()
    ids = itertools.count(1)
    if room.round_deadline is not None:
        heapq.heappush(queue, (room.round_deadline, next(order), -1, None))

    def look(now: float, seat: int) -> None:
        """The driver's `think`: decide on the table now; the message arrives later."""
        bot = bots[seat]
        assert room.round is not None  # a round is being played
        if bot.level in REFERENCES:
            ref = REFERENCES[bot.level]
            d = reference_decide(seat_view(cast(DemonRound, room.round), seat), ref, ref_memory[seat], bot.rng)
            delay = reference_pace(ref, bot.rng)
        else:
            d, delay = bot_look(bot, seat)
        if d.action is not None:
            if seat in room.votes:  # it sees something to do: it takes its vote back at once
                room.vote(bot.player, False)
            msg: tuple[str, Any] | None = ("act", d.action)
        elif d.vote_end != (seat in room.votes):
            msg = ("vote", d.vote_end)
        elif d.vote_end:
            return  # stuck and has said so: wait for the table to change
        else:
            msg = None  # nothing now: look again later
        heapq.heappush(queue, (now + delay, next(order), seat, msg))
        pending.add(seat)

    def bot_look(bot: Bot, seat: int) -> tuple[Decision, float]:
        assert room.round is not None
        t0 = time.perf_counter_ns()
        stuck = seat in room.public_stuck()
        ts = time.perf_counter_ns()
        if len(timings.decide_ns) % 7 == 0:  # kept to time again, quietly, after the run
            timings.samples.append((room.round, seat, stuck, bot.level, bot.memory.to_json(), bot.rng.state))
            ts = time.perf_counter_ns()
        view = seat_view(cast(DemonRound, room.round), seat, stuck=stuck)
        t1 = time.perf_counter_ns()
        d = decide(view, LEVELS[bot.level], bot.memory, bot.rng)
        t2 = time.perf_counter_ns()
        timings.stuck_ns.append(ts - t0)
        timings.view_ns.append(t1 - ts)
        timings.decide_ns.append(t2 - t1)
        return d, think_time(LEVELS[bot.level], bot.rng)

    def poke(now: float) -> None:
        if room.phase is Phase.PLAYING:
            for s in range(n):
                if s not in pending:
                    look(now, s)

    poke(0.0)
    now = 0.0
    moves = races_lost = 0
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
            player = bots[seat].player
            if kind == "act":
                t0 = time.perf_counter_ns()
                out = room.act(player, f"b{next(ids)}", payload, now)
                timings.act_ns.append(time.perf_counter_ns() - t0)
                if out.reply and out.reply.get("type") == "ack":
                    moves += 1
                    changed = True
                elif out.reply and out.reply.get("code") == "race_lost":
                    races_lost += 1
            else:
                room.vote(player, payload)
                changed = True
        if room.phase is not Phase.PLAYING:
            break
        look(now, seat)
        if changed:
            poke(now)
    rnd = room.round
    if rnd is None or rnd.end is None:
        reason = "hung"
        home = list(rnd.foundation_counts()) if rnd is not None else [0] * n
    else:
        reason = rnd.end.reason
        home = list(rnd.foundation_counts())
    return {"reason": reason, "home": home, "levels": levels, "seconds": now, "moves": moves, "races_lost": races_lost}


def two_seat_rounds(a: str, b: str, rounds: int, first_seed: int, timings: Timings) -> tuple[float, float]:
    """`rounds` 2-seat rounds of `a` against `b` (each deal twice, the seats swapped);
    prints one line and returns the shares of rounds a and b won (most cards home)."""
    wins: Counter[str] = Counter()
    home: dict[int, list[int]] = {0: [], 1: []}
    ends: Counter[str] = Counter()
    secs = []
    races = 0
    for i in range(rounds):
        seed = derive_seed(first_seed, i // 2)  # each deal twice, the levels' seats swapped
        swap = i % 2 == 1
        levels = [b, a] if swap else [a, b]
        res = play_round(levels, seed, timings)
        h = res["home"][::-1] if swap else res["home"]  # index 0 = level a
        home[0].append(h[0])
        home[1].append(h[1])
        wins["A" if h[0] > h[1] else "B" if h[1] > h[0] else "tie"] += 1
        ends[res["reason"]] += 1
        secs.append(res["seconds"])
        races += res["races_lost"]
    k = rounds
    label = f"{a} v {b}"
    end_text = "/".join(str(ends[r]) for r in ("demon", "stuck", "vote", "time"))
    if ends["hung"]:
        end_text += f" hung {ends['hung']}"
    print(
        f"{label:<16}{100 * wins['A'] / k:>7.0f}%{100 * wins['B'] / k:>7.0f}%"
        f"{100 * wins['tie'] / k:>6.0f}%{statistics.mean(home[0]):>8.1f}"
        f"{statistics.mean(home[1]):>8.1f}{end_text:>32}{statistics.mean(secs):>8.0f}"
        f"{races / k:>11.1f}",
        flush=True,
    )
    return wins["A"] / k, wins["B"] / k


def retime(samples: list[tuple], repeat: int = 5) -> tuple[list[int], list[int]]:
    """`decide` and `seat_view` timed again on positions kept from the run, each the
    fastest of `repeat` calls: their own cost, without the noise of a machine shared with
    other work (the raw figures keep that noise). `decide` gets a fresh copy of the memory
    and generator each time; `seat_view` a copy of the round with empty caches (the
    engine's analysis, pile views included), so it counts building every seat's piles and the
    legal actions from nothing: more than a call on the server costs."""
    decide_ns: list[int] = []
    view_ns: list[int] = []
    for rnd, seat, stuck, lv, memory, state in samples:
        view = seat_view(rnd, seat, stuck=stuck)
        best_d = best_v = None
        for _ in range(repeat):
            mem, rng = BotMemory.from_json(memory), SplitMix64(state)
            t0 = time.perf_counter_ns()
            decide(view, LEVELS[lv], mem, rng)
            dt = time.perf_counter_ns() - t0
            best_d = dt if best_d is None or dt < best_d else best_d
            cold = dataclasses.replace(rnd, analysis=RoundAnalysis())
            t0 = time.perf_counter_ns()
            seat_view(cold, seat, stuck=stuck)
            dt = time.perf_counter_ns() - t0
            best_v = dt if best_v is None or dt < best_v else best_v
        assert best_d is not None and best_v is not None  # repeat >= 1
        decide_ns.append(best_d)
        view_ns.append(best_v)
    return decide_ns, view_ns


def pct(values: list[int], q: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--rounds", type=int, default=200, help="2-seat rounds per pair of levels (each deal twice, seats swapped)"
    )
    ap.add_argument("--big", type=int, default=30, help="8-bot rounds")
    ap.add_argument(
        "--reference", type=int, default=200, help="2-seat rounds of each level against its reference player (0: none)"
    )
    ap.add_argument("--seed", type=int, default=1, help="first deal seed")
    ap.add_argument(
        "--time-limit",
        type=int,
        default=0,
        help="room time limit in seconds for the 8-bot rounds (0: none, the room default)",
    )
    ap.add_argument("--game", choices=("demon", "nerts"), default="demon", help="which game's bots (default demon)")
    ap.add_argument("--draw", type=int, choices=(1, 3), default=3, help="nerts only: house rule H2, cards a draw turns")
    ap.add_argument("--racing-spaces", action="store_true", help="nerts only: house rule H3")
    ap.add_argument("--no-stall", action="store_true", help="nerts only: house rule H4 off (no stall)")
    args = ap.parse_args()
    if args.game == "nerts":
        from _nerts_table import nerts_main

        nerts_main(args)
        return

    timings = Timings()
    names = list(LEVELS)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]] + [(x, x) for x in names]
    started = time.perf_counter()
    print(f"bench/bots.py: {args.rounds} two-seat rounds per pair, {args.big} eight-bot rounds, seeds from {args.seed}")
    print()
    print(
        f"{'2-seat rounds':<16}{'wins A':>8}{'wins B':>8}{'ties':>7}{'home A':>8}{'home B':>8}"
        f"{'  ends (demon/stuck/vote/time)':>32}{'sim s':>8}{'races lost':>11}"
    )
    shares: dict[tuple[str, str], tuple[float, float]] = {}
    for a, b in pairs if args.rounds > 0 else ():
        shares[(a, b)] = two_seat_rounds(a, b, args.rounds, args.seed, timings)
    for other, target in (("easy", 0.80), ("medium", 0.60)):
        if (other, "hard") in shares:
            got = shares[(other, "hard")][1]
            print(
                f"target: hard beats {other} in >= {target:.0%} of rounds: {got:.0%} "
                f"{'met' if got >= target else 'MISSED'}"
            )
    if args.reference > 0:
        print()
        print("Against the reference players (bench/_reference.py: what a level means to a person)")
        ref_shares = {
            pair: two_seat_rounds(*pair, args.reference, args.seed, timings)
            for pair in (("beginner", "easy"), ("club", "medium"), ("club", "hard"))
        }
        easy_loses = ref_shares[("beginner", "easy")][0]
        medium_wins = ref_shares[("club", "medium")][1]
        hard_wins = ref_shares[("club", "hard")][1]
        for text, got, ok in (
            ("easy loses to the beginner in >= 65 %", easy_loses, easy_loses >= 0.65),
            ("medium wins 40-60 % against the club player", medium_wins, 0.40 <= medium_wins <= 0.60),
            ("hard beats the club player in >= 80 %", hard_wins, hard_wins >= 0.80),
        ):
            print(f"target: {text} of rounds: {got:.0%} {'met' if ok else 'MISSED'}")
    if args.big:
        print()
        limit = args.time_limit or None
        ends: Counter[str] = Counter()
        secs = []
        by_level: dict[str, list[int]] = {x: [] for x in names}
        mix = ["easy", "easy", "medium", "medium", "medium", "hard", "hard", "hard"]
        for i in range(args.big):
            seed = derive_seed(args.seed, 10_000 + i)
            levels = mix[i % 8 :] + mix[: i % 8]  # every level takes every seat in turn
            res = play_round(levels, seed, timings, time_limit_s=limit)
            ends[res["reason"]] += 1
            secs.append(res["seconds"])
            for lv, h in zip(levels, res["home"]):
                by_level[lv].append(h)
        limit_text = f"{limit} s time limit" if limit else "no time limit"
        print(
            f"8-bot rounds (2 easy, 3 medium, 3 hard; {limit_text}): "
            + ", ".join(f"{r} {ends[r]}" for r in ("demon", "stuck", "vote", "time", "hung") if ends[r] or r != "hung")
            + f"; mean {statistics.mean(secs):.0f} simulated s"
        )
        print("  mean cards home per seat: " + ", ".join(f"{x} {statistics.mean(v):.1f}" for x, v in by_level.items()))
    print()
    print(f"{'cost (us)':<38}{'n':>9}{'p50':>9}{'p99':>9}{'max':>12}")
    quiet_decide, quiet_view = retime(timings.samples)
    for label, values in (
        ("decide", timings.decide_ns),
        ("decide, re-timed (best of 5)", quiet_decide),
        ("seat_view", timings.view_ns),
        ("seat_view, re-timed cold (best of 5)", quiet_view),
        ("room.public_stuck (for the view)", timings.stuck_ns),
        ("baseline: Room.act", timings.act_ns),
    ):
        print(
            f"{label:<38}{len(values):>9}{pct(values, 0.5) / 1e3:>9.1f}"
            f"{pct(values, 0.99) / 1e3:>9.1f}{max(values) / 1e3:>12.1f}"
        )
    p99 = pct(quiet_decide, 0.99) / 1e3
    print(f"target: decide p99 <= 1000 us (re-timed): {p99:.1f} us {'met' if p99 <= 1000 else 'MISSED'}")
    print(f"\n(wall time {time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
