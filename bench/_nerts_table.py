"""Nerts rounds among bots and reference players for `bench/bots.py --game nerts`.

Played as bench/bots.py plays Demon: headless, but through the room's own code. The
seats are the room's bot seats (`Room.add_bot`, a spectator hosting, so the table holds
bots only) and they play through `Room.act` and `Room.vote`, so the same validation and
first-come arbitration (N10: `race_lost`) apply as on the server; the stuck flag a bot
sees is the room's (`Room.public_stuck`), and its memory and generator are its seat's. A
reference player sits in a bot seat whose level is unused: the bench decides for it.

Time is simulated, in the timing of the room's bot driver: a priority queue holds each
seat's next event; a seat looks at the table, decides, and its message arrives a think
time later (decided on the table as it was: a quicker seat may have taken the
foundation spot meanwhile, or a stall may have turned its waste under); then it looks
again at once. A seat with nothing to do that has cast the vote it wants waits until
the table changes; one with nothing to do that is not stuck looks again after another
think time. A bot that sees something to do takes back its vote at once. The round
ends by the engine (Nerts!, or everyone stuck after a stall: N11, N13), by every seat's
vote, or at the room's time limit (`Room.tick`).

Winning is the N14 score (cards home minus twice the cards left in the Nerts pile):
the seat with the higher score wins a 2-seat round; equal scores are a tie.
"""

from __future__ import annotations

import heapq
import itertools
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, cast

from _nerts_reference import REFERENCES, ReferenceMemory, reference_decide, reference_pace

from app.common.rng import SplitMix64, derive_seed
from app.demon.room.room import Options, Phase, Room
from app.nerts.rules.bot import LEVELS, decide, think_time
from app.nerts.rules.bot_view import seat_view
from app.nerts.rules.options import NertsOptions
from app.nerts.rules.round import NertsRound
from app.racing import NERTS

SAFETY_S = 4 * 3600.0  # simulated; a round still going then is reported as "hung"


@dataclass
class NertsTimings:
    decide_ns: list[int] = field(default_factory=list)
    view_ns: list[int] = field(default_factory=list)
    act_ns: list[int] = field(default_factory=list)


@dataclass
class _Seat:
    who: str  # a bot level or a reference player's name
    rng: SplitMix64
    memory: Any  # BotMemory or ReferenceMemory


def play_nerts_round(
    who: list[str],
    seed: int,
    timings: NertsTimings,
    *,
    options: NertsOptions | None = None,
    time_limit_s: int | None = None,
) -> dict[str, Any]:
    """One seeded Nerts round among the given bot levels / reference players (seat order),
    through the room (`Room.act`, `Room.vote`, `Room.public_stuck`, `Room.tick`)."""
    n = len(who)
    room = Room(
        "BENCH",
        Options(rounds=1, time_limit_s=time_limit_s, max_players=n, game="nerts", house=options or NertsOptions()),
        countdown_s=0.0,
        test_seed=seed,
        seed_source=SplitMix64(seed),
    )
    # A table of bots alone, made with the room's public calls (as bench/bots.py does for
    # Demon): the host seats n-1 bots, a watcher becomes a spectator and then the host,
    # seats the last bot and starts. A reference player sits in a bot seat (its level
    # unused): the bench decides for it.
    host = room.join("host", b"")
    room.connect(host, 0.0)
    levels = [w if w in LEVELS else "easy" for w in who]
    players = [room.add_bot(host, lv, 0.0)[1] for lv in levels[:-1]]
    watcher = room.join("watcher", b"")
    room.connect(watcher, 0.0)
    room.leave(host, 0.0)
    players.append(room.add_bot(watcher, levels[-1], 0.0)[1])
    room.start(watcher, 0.0)
    room.begin_round(0.0)
    assert [p.seat for p in players] == list(range(n)) and room.phase is Phase.PLAYING
    seats = []
    for p, w in zip(players, who):
        assert p.bot is not None  # add_bot seated a bot
        memory = ReferenceMemory() if w in REFERENCES else p.bot.memory_for(NERTS)  # the seat's, as the server keeps it
        seats.append(_Seat(w, p.bot.rng, memory))
    queue: list[tuple[float, int, int, tuple[str, Any] | None]] = []
    order = itertools.count()
    pending: set[int] = set()
    ids = itertools.count(1)
    moves = races_lost = rejected = 0
    if room.round_deadline is not None:
        heapq.heappush(queue, (room.round_deadline, next(order), -1, None))

    def current() -> NertsRound:
        return cast(NertsRound, room.round)

    def look(now: float, s: int) -> None:
        seat = seats[s]
        stuck = s in room.public_stuck()
        t0 = time.perf_counter_ns()
        view = seat_view(current(), s, stuck=stuck)
        t1 = time.perf_counter_ns()
        if seat.who in REFERENCES:
            ref = REFERENCES[seat.who]
            d: Any = reference_decide(view, ref, seat.memory, seat.rng)
            delay = reference_pace(ref, seat.rng)
        else:
            lv = LEVELS[seat.who]
            d = decide(view, lv, seat.memory, seat.rng)
            t2 = time.perf_counter_ns()
            timings.view_ns.append(t1 - t0)
            timings.decide_ns.append(t2 - t1)
            delay = think_time(lv, seat.rng)
        if d.action is not None:
            if s in room.votes:  # it sees something to do: it takes its vote back at once
                room.vote(players[s], False)
            msg: tuple[str, Any] | None = ("act", d.action)
        elif d.vote_end != (s in room.votes):
            msg = ("vote", d.vote_end)
        elif d.vote_end:
            return  # stuck and has said so: wait for the table to change
        else:
            msg = None
        heapq.heappush(queue, (now + delay, next(order), s, msg))
        pending.add(s)

    def poke(now: float) -> None:
        if room.phase is Phase.PLAYING:
            for s in range(n):
                if s not in pending:
                    look(now, s)

    poke(0.0)
    now = 0.0
    while room.phase is Phase.PLAYING and queue:
        now, _o, s, msg = heapq.heappop(queue)
        if now > SAFETY_S:
            break
        if s < 0:
            room.tick(now)
            continue
        pending.discard(s)
        changed = False
        if msg is not None:
            kind, payload = msg
            if kind == "act":
                t0 = time.perf_counter_ns()
                out = room.act(players[s], f"b{next(ids)}", payload, now)
                timings.act_ns.append(time.perf_counter_ns() - t0)
                code = out.reply.get("code") if out.reply else None
                if out.reply and out.reply.get("type") == "ack":
                    moves += 1
                    changed = True
                elif code == "race_lost":
                    races_lost += 1
                else:
                    rejected += 1  # decided on a table a stall has changed since
            else:
                room.vote(players[s], payload)
                changed = True
        if room.phase is not Phase.PLAYING:
            break
        look(now, s)
        if changed:
            poke(now)
    r = current()
    return {
        "reason": "hung" if r.end is None else str(r.end.reason),
        "scores": list(r.scores()),
        "home": list(r.foundation_counts()),
        "nerts_left": [len(st.nerts) for st in r.seats],
        "winner": None if r.end is None else r.end.winner,
        "seconds": now,
        "moves": moves,
        "races_lost": races_lost,
        "rejected": rejected,
    }


# --------------------------------------------------------------------------- the report


def two_seat_rounds(
    a: str, b: str, rounds: int, first_seed: int, timings: NertsTimings, options: NertsOptions
) -> tuple[float, float]:
    """`rounds` 2-seat rounds of `a` against `b` (each deal twice, the seats swapped, so
    both get the same cards); prints one line and returns the shares a and b won."""
    wins: Counter[str] = Counter()
    score: dict[int, list[int]] = {0: [], 1: []}
    nerts_out: Counter[int] = Counter()
    ends: Counter[str] = Counter()
    secs = []
    races = 0
    for i in range(rounds):
        seed = derive_seed(first_seed, i // 2)
        swap = i % 2 == 1
        res = play_nerts_round([b, a] if swap else [a, b], seed, timings, options=options)
        sc = res["scores"][::-1] if swap else res["scores"]  # index 0 = a
        score[0].append(sc[0])
        score[1].append(sc[1])
        wins["A" if sc[0] > sc[1] else "B" if sc[1] > sc[0] else "tie"] += 1
        if res["winner"] is not None:
            nerts_out[(res["winner"] == 1) != swap] += 1  # 0: a went out, 1: b
        ends[res["reason"]] += 1
        secs.append(res["seconds"])
        races += res["races_lost"]
    k = rounds
    end_text = "/".join(str(ends[r]) for r in ("nerts", "stuck", "vote", "time"))
    if ends["hung"]:
        end_text += f" hung {ends['hung']}"
    label = f"{a} v {b}"
    print(
        f"{label:<16}{100 * wins['A'] / k:>7.0f}%{100 * wins['B'] / k:>7.0f}%{100 * wins['tie'] / k:>6.0f}%"
        f"{statistics.mean(score[0]):>8.1f}{statistics.mean(score[1]):>8.1f}"
        f"{nerts_out[0]:>6}{nerts_out[1]:>6}{end_text:>24}{statistics.mean(secs):>8.0f}{races / k:>11.1f}",
        flush=True,
    )
    return wins["A"] / k, wins["B"] / k


def _pct(values: list[int], q: float) -> float:
    values = sorted(values)
    return float("nan") if not values else values[min(len(values) - 1, int(q * len(values)))]


def nerts_main(args: Any) -> None:
    """`bench/bots.py --game nerts`: the Demon report's tables and targets, for Nerts."""
    options = NertsOptions(draw=args.draw, racing_spaces=args.racing_spaces, stall=not args.no_stall)
    timings = NertsTimings()
    names = list(LEVELS)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]] + [(x, x) for x in names]
    started = time.perf_counter()
    print(
        f"bench/bots.py --game nerts: {args.rounds} two-seat rounds per pair, {args.big} eight-bot rounds, "
        f"seeds from {args.seed}, house rules {options.to_json()}"
    )
    print()
    header = (
        f"{'2-seat rounds':<16}{'wins A':>8}{'wins B':>8}{'ties':>7}{'score A':>8}{'score B':>8}"
        f"{'out A':>6}{'out B':>6}{'ends (nerts/stuck/vote/time)':>29}{'sim s':>8}{'races lost':>11}"
    )
    print(header)
    shares = {(a, b): two_seat_rounds(a, b, args.rounds, args.seed, timings, options) for a, b in pairs if args.rounds}
    for other, target in (("easy", 0.80), ("medium", 0.60)):
        if (other, "hard") in shares:
            got = shares[(other, "hard")][1]
            print(
                f"target: hard beats {other} in >= {target:.0%} of rounds: {got:.0%} {'met' if got >= target else 'MISSED'}"
            )
    if args.reference > 0:
        print()
        print("Against the reference players (bench/_nerts_reference.py: what a level means to a person)")
        print(header)
        ref = {
            pair: two_seat_rounds(*pair, args.reference, args.seed, timings, options)
            for pair in (("beginner", "easy"), ("club", "medium"), ("club", "hard"))
        }
        easy_loses = ref[("beginner", "easy")][0]
        medium_wins = ref[("club", "medium")][1]
        hard_wins = ref[("club", "hard")][1]
        for text, got, ok in (
            ("easy loses to the beginner in >= 65 %", easy_loses, easy_loses >= 0.65),
            ("medium wins 40-60 % against the club player", medium_wins, 0.40 <= medium_wins <= 0.60),
            ("hard beats the club player in >= 80 %", hard_wins, hard_wins >= 0.80),
        ):
            print(f"target: {text} of rounds: {got:.0%} {'met' if ok else 'MISSED'}")
    if args.big:
        print()
        ends: Counter[str] = Counter()
        secs = []
        by_level: dict[str, list[int]] = {x: [] for x in names}
        mix = ["easy", "easy", "medium", "medium", "medium", "hard", "hard", "hard"]
        out: Counter[str] = Counter()
        for i in range(args.big):
            levels = mix[i % 8 :] + mix[: i % 8]  # every level takes every seat in turn
            res = play_nerts_round(
                levels,
                derive_seed(args.seed, 10_000 + i),
                timings,
                options=options,
                time_limit_s=args.time_limit or None,
            )
            ends[res["reason"]] += 1
            secs.append(res["seconds"])
            if res["winner"] is not None:
                out[levels[res["winner"]]] += 1
            for lv, sc in zip(levels, res["scores"]):
                by_level[lv].append(sc)
        limit_text = f"{args.time_limit} s time limit" if args.time_limit else "no time limit"
        print(
            f"8-bot rounds (2 easy, 3 medium, 3 hard; {limit_text}): "
            + ", ".join(f"{r} {ends[r]}" for r in ("nerts", "stuck", "vote", "time", "hung") if ends[r] or r != "hung")
            + f"; mean {statistics.mean(secs):.0f} simulated s"
        )
        print("  mean score per seat: " + ", ".join(f"{x} {statistics.mean(v):.1f}" for x, v in by_level.items()))
        print("  went out: " + ", ".join(f"{x} {out[x]}" for x in names))
    print()
    print(f"{'cost (us)':<38}{'n':>9}{'p50':>9}{'p99':>9}{'max':>12}")
    for label, values in (
        ("decide", timings.decide_ns),
        ("seat_view (legal actions included)", timings.view_ns),
        ("baseline: Room.act", timings.act_ns),
    ):
        print(
            f"{label:<38}{len(values):>9}{_pct(values, 0.5) / 1e3:>9.1f}"
            f"{_pct(values, 0.99) / 1e3:>9.1f}{max(values, default=0) / 1e3:>12.1f}"
        )
    p99 = _pct(timings.decide_ns, 0.99) / 1e3
    print(f"target: decide p99 <= 1000 us: {p99:.1f} us {'met' if p99 <= 1000 else 'MISSED'}")
    print(f"\n(wall time {time.perf_counter() - started:.1f} s)")
