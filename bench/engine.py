"""Engine benchmarks: `python bench/engine.py` (or `make bench`).

Demon: the time of one exact stuck check (rule 16) per seat, on realistic mid-round
positions. Positions come from seeded playouts by a simple greedy player (foundation plays
first, then moves that turn a card up or take a card off the waste, else a draw, now and
then a random tableau move); every few actions from the 15th on, each seat's stuck check
is timed with the memo cleared, so every call answers afresh: the seat's layout moves,
then the full search when they show no progress (always, for a stuck seat). Also the cost of
`apply` (which includes the end-of-round stuck check).

Nerts, in the same run and by the same method, at 8 seats: a greedy player like Demon's
(foundation plays first, then a Nerts or waste card onto a work pile, else a draw, now and
then a random work-pile move); the exact stuck check (N12) per seat with its memo cleared,
the cost of `apply`, and apply + stuck_seats per move with the memo and without. Then a
Demon move and a Nerts move side by side at 8 seats, on the same seeds: the wall time of
`apply` and of `stuck_seats` per move (p50, p99, mean) and the CPU time per move.

Then, if bench/engine_devils_grip.py exists, its `main()` runs too.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import sys
import time
from dataclasses import replace

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from app.demon.rules import stuck as demon_stuck
from app.demon.rules.round import (
    DemonRound,
    Draw,
    Moved,
    Played,
    Recycle,
    RoundAnalysis,
    ToFoundation,
    ToTableau,
    TurnedUp,
)
from app.nerts.rules import stuck as nerts_stuck
from app.nerts.rules.actions import Draw as NertsDraw
from app.nerts.rules.actions import Recycle as NertsRecycle
from app.nerts.rules.actions import ToFoundation as NertsToFoundation
from app.nerts.rules.actions import ToWork
from app.nerts.rules.events import Filled as NertsFilled
from app.nerts.rules.events import Moved as NertsMoved
from app.nerts.rules.events import Played as NertsPlayed
from app.nerts.rules.round import NertsRound
from app.nerts.rules.stuck import StuckMemo


def forget_nerts(r: NertsRound) -> NertsRound:
    """The same round with nothing remembered: a fresh per-seat memo, and the work-pile
    search's cache emptied (Demon's `r.analysis.clear()`)."""
    nerts_stuck._work_tops.cache_clear()
    return replace(r, memo=StuckMemo())


def greedy_action(r: DemonRound, seat: int, rng: random.Random):
    acts = r.legal_actions(seat)
    if not acts:
        return None
    plays = [a for a in acts if isinstance(a, ToFoundation)]
    if plays:
        return rng.choice(plays)
    useful = []
    for a in acts:
        if isinstance(a, ToTableau):
            if a.src == "waste":
                useful.append(a)
            else:
                assert isinstance(a.src, int)
                pile = r.seats[seat].tableau[a.src]
                if a.count == len(pile.up) and pile.down:
                    useful.append(a)
    if useful:
        return rng.choice(useful)
    moves = [a for a in acts if isinstance(a, ToTableau)]
    if moves and rng.random() < 0.15:
        return rng.choice(moves)
    for a in acts:
        if isinstance(a, (Draw, Recycle)):
            return a
    return rng.choice(acts)


def percentile(values: list[float], p: float) -> float:
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[k]


def fmt(values: list[float]) -> str:
    if not values:
        return "n=0"
    us = [v * 1e6 for v in values]
    return (
        f"n={len(us):6d}  p50 {percentile(us, 50):8.1f} us  p99 {percentile(us, 99):8.1f} us  "
        f"max {max(us):8.1f} us  mean {statistics.fmean(us):7.1f} us"
    )


def bench_demon(rounds: int, players: int, every: int, seed0: int) -> dict:
    stuck_times: list[float] = []
    free_times: list[float] = []
    apply_times: list[float] = []
    actions = 0
    ends: dict[str, int] = {}
    for g in range(rounds):
        seed = seed0 + g
        rng = random.Random(seed)
        r = DemonRound.deal(seed, players).start()
        idle = 0
        n = 0
        while r.end is None and n < 3000 and idle < 4 * players:
            seat = rng.randrange(players)
            a = greedy_action(r, seat, rng)
            if a is None:
                idle += 1
                continue
            t0 = time.perf_counter()
            r2, events = r.apply(a)
            apply_times.append(time.perf_counter() - t0)
            progress = any(
                isinstance(e, (Played, TurnedUp)) or (isinstance(e, Moved) and e.src == "waste") for e in events
            )
            idle = 0 if progress else idle
            r = r2
            n += 1
            if n >= 15 and n % every == 0 and r.end is None:
                for s in range(players):
                    r.analysis.clear()  # time a fresh answer, not the memo
                    t0 = time.perf_counter()
                    stuck = r.is_stuck(s)
                    dt = time.perf_counter() - t0
                    (stuck_times if stuck else free_times).append(dt)
        actions += n
        reason = r.end.reason if r.end else "unfinished"
        ends[reason] = ends.get(reason, 0) + 1
    return {"stuck": stuck_times, "free": free_times, "apply": apply_times, "actions": actions, "ends": ends}


def bench_incremental(rounds: int, players: int, seed0: int) -> dict:
    """What the server pays per move for rule 16: `apply` plus `stuck_seats()` (the room
    sends the stuck list with every move). "incremental" is the engine as it is: answers
    are memoised per (seat layout, what the foundations accept), so only seats whose
    situation changed are answered afresh, and an answer needs a search only when the
    seat's layout moves show no progress. "naive" clears the memo before every move, i.e.
    every seat answered afresh after every play. Same rounds, same actions, in the same
    run. "answers" counts fresh answers, "searches" the full searches among them."""
    calls = {"n": 0, "answers": 0}
    real = demon_stuck.waste_witness  # where every search starts
    real_store = RoundAnalysis.store

    def counting(*args, **kwargs):
        calls["n"] += 1
        return real(*args, **kwargs)

    def counting_store(self, *args):
        calls["answers"] += 1
        return real_store(self, *args)

    results = {}
    demon_stuck.waste_witness = counting
    RoundAnalysis.store = counting_store  # type: ignore[method-assign]  # counted, put back below
    try:
        for mode in ("incremental", "naive"):
            calls["n"] = calls["answers"] = 0
            moves = 0
            elapsed = 0.0
            for g in range(rounds):
                rng = random.Random(seed0 + g)
                r = DemonRound.deal(seed0 + g, players).start()
                idle = 0
                while r.end is None and moves < 10**6 and idle < 4 * players:
                    a = greedy_action(r, rng.randrange(players), rng)
                    if a is None:
                        idle += 1
                        continue
                    idle = 0
                    if mode == "naive":
                        r.analysis.clear()
                    t0 = time.perf_counter()
                    r, _events = r.apply(a)
                    r.stuck_seats()
                    elapsed += time.perf_counter() - t0
                    moves += 1
                    if moves % 400 == 0:
                        break
            results[mode] = {"moves": moves, "searches": calls["n"], "answers": calls["answers"], "seconds": elapsed}
    finally:
        demon_stuck.waste_witness = real
        RoundAnalysis.store = real_store  # type: ignore[method-assign]  # the real one again
    return results


def greedy_nerts_action(r: NertsRound, seat: int, rng: random.Random):
    """Demon's greedy player in Nerts: a foundation play, else a Nerts or waste card onto
    a work pile, else (15%) a random work-pile move, else a draw or recycle."""
    acts = r.legal_actions(seat)
    if not acts:
        return None
    plays = [a for a in acts if isinstance(a, NertsToFoundation)]
    if plays:
        return rng.choice(plays)
    useful = [a for a in acts if isinstance(a, ToWork) and isinstance(a.src, str)]
    if useful:
        return rng.choice(useful)
    moves = [a for a in acts if isinstance(a, ToWork)]
    if moves and rng.random() < 0.15:
        return rng.choice(moves)
    for a in acts:
        if isinstance(a, (NertsDraw, NertsRecycle)):
            return a
    return rng.choice(acts)


def _nerts_progress(events) -> bool:
    return any(
        isinstance(e, (NertsPlayed, NertsFilled)) or (isinstance(e, NertsMoved) and isinstance(e.src, str))
        for e in events
    )


def bench_nerts(rounds: int, players: int, every: int, seed0: int) -> dict:
    """bench_demon's measurement for Nerts: every `every` actions from the 15th, each
    seat's N12 check timed with the work-search memo cleared; and every `apply`."""
    stuck_times: list[float] = []
    free_times: list[float] = []
    apply_times: list[float] = []
    actions = 0
    ends: dict[str, int] = {}
    for g in range(rounds):
        seed = seed0 + g
        rng = random.Random(seed)
        r = NertsRound.deal(seed, players).start()
        idle = 0
        n = 0
        while r.end is None and n < 3000 and idle < 4 * players:
            seat = rng.randrange(players)
            a = greedy_nerts_action(r, seat, rng)
            if a is None:
                idle += 1
                continue
            t0 = time.perf_counter()
            r2, events = r.apply(a)
            apply_times.append(time.perf_counter() - t0)
            idle = 0 if _nerts_progress(events) else idle
            r = r2
            n += 1
            if n >= 15 and n % every == 0 and r.end is None:
                for s in range(players):
                    fresh = forget_nerts(r)  # time a fresh answer, not the memo
                    t0 = time.perf_counter()
                    stuck = fresh.is_stuck(s)
                    dt = time.perf_counter() - t0
                    (stuck_times if stuck else free_times).append(dt)
        actions += n
        reason = r.end.reason if r.end else "unfinished"
        ends[reason] = ends.get(reason, 0) + 1
    return {"stuck": stuck_times, "free": free_times, "apply": apply_times, "actions": actions, "ends": ends}


def bench_nerts_incremental(rounds: int, players: int, seed0: int) -> dict:
    """bench_incremental for Nerts: apply + stuck_seats() per move. "incremental" is the
    engine as it is: each seat's `SeatOffer` is kept with its layout (`StuckMemo`), and
    the work-pile search behind it is memoised on its input; "naive" forgets both before
    every move. "answers" counts the offers computed afresh, "searches" the work-pile
    searches actually run (cache misses)."""
    calls = {"answers": 0}
    real = nerts_stuck.seat_offer  # what the memo calls for a layout it has not seen

    def counting(*args, **kwargs):
        calls["answers"] += 1
        return real(*args, **kwargs)

    def misses() -> int:
        return nerts_stuck._work_tops.cache_info().misses

    results = {}
    nerts_stuck.seat_offer = counting  # counted, put back below
    try:
        for mode in ("incremental", "naive"):
            calls["answers"] = 0
            nerts_stuck._work_tops.cache_clear()
            searches = 0  # misses, summed across the clears (a clear resets the count)
            moves = 0
            elapsed = 0.0
            for g in range(rounds):
                rng = random.Random(seed0 + g)
                r = NertsRound.deal(seed0 + g, players).start()
                idle = 0
                while r.end is None and moves < 10**6 and idle < 4 * players:
                    a = greedy_nerts_action(r, rng.randrange(players), rng)
                    if a is None:
                        idle += 1
                        continue
                    idle = 0
                    if mode == "naive":
                        searches += misses()
                        r = forget_nerts(r)
                    t0 = time.perf_counter()
                    r, _events = r.apply(a)
                    r.stuck_seats()
                    elapsed += time.perf_counter() - t0
                    moves += 1
                    if moves % 400 == 0:
                        break
            searches += misses()
            results[mode] = {"moves": moves, "searches": searches, "answers": calls["answers"], "seconds": elapsed}
    finally:
        nerts_stuck.seat_offer = real
    return results


def bench_move_cost(game: str, rounds: int, players: int, seed0: int) -> dict:
    """One game's move as the server pays it, at `players` seats: `apply`, then
    `stuck_seats()`, each timed (wall, per call) and their CPU time summed, over the first
    400 moves of each seeded round with the memo on (the engine as it is)."""
    apply_times: list[float] = []
    stuck_times: list[float] = []
    cpu = 0.0
    moves = 0
    for g in range(rounds):
        rng = random.Random(seed0 + g)
        r: DemonRound | NertsRound
        if game == "demon":
            r = DemonRound.deal(seed0 + g, players).start()
        else:
            r = NertsRound.deal(seed0 + g, players).start()
        idle = 0
        n = 0
        while r.end is None and idle < 4 * players and n < 400:
            seat = rng.randrange(players)
            a = greedy_action(r, seat, rng) if isinstance(r, DemonRound) else greedy_nerts_action(r, seat, rng)
            if a is None:
                idle += 1
                continue
            idle = 0
            c0 = time.process_time()
            t0 = time.perf_counter()
            r, _events = r.apply(a)  # type: ignore[arg-type]  # each game's own action, from its own player
            t1 = time.perf_counter()
            r.stuck_seats()
            t2 = time.perf_counter()
            cpu += time.process_time() - c0
            apply_times.append(t1 - t0)
            stuck_times.append(t2 - t1)
            n += 1
        moves += n
    return {"apply": apply_times, "stuck": stuck_times, "cpu": cpu, "moves": moves}


def print_nerts(args: argparse.Namespace) -> None:
    players = 8
    print(
        f"\nNerts stuck detection (N12): {args.rounds} seeded rounds, {players} players, "
        f"a position every {args.every} actions from the 15th, every seat timed"
    )
    t0 = time.perf_counter()
    res = bench_nerts(args.rounds, players, args.every, args.seed)
    wall = time.perf_counter() - t0
    all_times = res["stuck"] + res["free"]
    print(f"  is_stuck, all positions   {fmt(all_times)}")
    print(f"  is_stuck, stuck seats     {fmt(res['stuck'])}")
    print(f"  is_stuck, not stuck       {fmt(res['free'])}")
    print(f"  apply (incl. end check)   {fmt(res['apply'])}")
    print(
        f"  {res['actions']} actions played; rounds ended: "
        + ", ".join(f"{k} {v}" for k, v in sorted(res["ends"].items()))
        + f"; {wall:.1f} s wall"
    )
    inc = bench_nerts_incremental(20, players, args.seed)
    a, b = inc["incremental"], inc["naive"]
    print(f"\nNerts stuck checks per move, {players} seats (apply + stuck_seats, as the server does):")
    for name, r in (("incremental (memo)", a), ("naive (no memo)", b)):
        print(
            f"  {name:20s} {r['answers'] / r['moves']:5.2f} answers/move  {r['searches'] / r['moves']:5.2f} searches/move   "
            f"{r['seconds'] / r['moves'] * 1e6:7.1f} us/move   ({r['moves']} moves)"
        )
    print(f"  incremental / naive time: {a['seconds'] / a['moves'] / (b['seconds'] / b['moves']):.2f}")

    rounds = 20
    demon = bench_move_cost("demon", rounds, players, args.seed)
    nerts = bench_move_cost("nerts", rounds, players, args.seed)
    print(
        f"\nA move, Demon and Nerts side by side: {players} seats, {rounds} seeded rounds each (the same "
        "seeds), up to 400 moves a round; apply then stuck_seats, memo on, as the server does:"
    )
    print(f"  {'':28s} {'Demon':>10s} {'Nerts':>10s} {'Nerts/Demon':>12s}")
    rows = [
        ("apply p50 (us)", lambda m: percentile(m["apply"], 50) * 1e6),
        ("apply p99 (us)", lambda m: percentile(m["apply"], 99) * 1e6),
        ("apply mean (us)", lambda m: statistics.fmean(m["apply"]) * 1e6),
        ("stuck_seats p50 (us)", lambda m: percentile(m["stuck"], 50) * 1e6),
        ("stuck_seats p99 (us)", lambda m: percentile(m["stuck"], 99) * 1e6),
        ("stuck_seats mean (us)", lambda m: statistics.fmean(m["stuck"]) * 1e6),
        ("CPU per move (us)", lambda m: m["cpu"] / m["moves"] * 1e6),
    ]
    for name, f in rows:
        d, n = f(demon), f(nerts)
        print(f"  {name:28s} {d:10.1f} {n:10.1f} {n / d if d else float('nan'):12.2f}")
    print(f"  {'moves timed':28s} {demon['moves']:10d} {nerts['moves']:10d}")


def run_devils_grip() -> None:
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "engine_devils_grip.py")
    if not os.path.exists(path):
        print("\n(bench/engine_devils_grip.py not found: Devil's Grip bench skipped)")
        return
    spec = importlib.util.spec_from_file_location("engine_devils_grip_bench", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    print()
    module.main()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=60, help="seeded rounds to play (default 60)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--every", type=int, default=5, help="sample a position every N actions")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--no-nerts", action="store_true", help="skip the Nerts bench")
    ap.add_argument("--no-grip", action="store_true", help="skip the Devil's Grip bench")
    args = ap.parse_args(argv)

    print(
        f"Demon stuck detection (rule 16): {args.rounds} seeded rounds, {args.players} players, "
        f"a position every {args.every} actions from the 15th, every seat timed"
    )
    t0 = time.perf_counter()
    res = bench_demon(args.rounds, args.players, args.every, args.seed)
    wall = time.perf_counter() - t0
    all_times = res["stuck"] + res["free"]
    print(f"  is_stuck, all positions   {fmt(all_times)}")
    print(f"  is_stuck, stuck seats     {fmt(res['stuck'])}")
    print(f"  is_stuck, not stuck       {fmt(res['free'])}")
    print(f"  apply (incl. end check)   {fmt(res['apply'])}")
    print(
        f"  {res['actions']} actions played; rounds ended: "
        + ", ".join(f"{k} {v}" for k, v in sorted(res["ends"].items()))
        + f"; {wall:.1f} s wall"
    )
    p99_ms = percentile(all_times, 99) * 1e3 if all_times else 0.0
    print(f"  target p99 <= 1 ms: {'OK' if p99_ms <= 1.0 else 'MISSED'} ({p99_ms:.3f} ms)")
    inc = bench_incremental(20, 8, args.seed)
    a, b = inc["incremental"], inc["naive"]
    print("\nStuck checks per move, 8 seats (apply + stuck_seats, as the server does):")
    for name, r in (("incremental (memo)", a), ("naive (every seat)", b)):
        print(
            f"  {name:20s} {r['answers'] / r['moves']:5.2f} answers/move  {r['searches'] / r['moves']:5.2f} searches/move   "
            f"{r['seconds'] / r['moves'] * 1e6:7.1f} us/move   ({r['moves']} moves)"
        )
    print(f"  incremental / naive time: {a['seconds'] / a['moves'] / (b['seconds'] / b['moves']):.2f}")
    if not args.no_nerts:
        print_nerts(args)
    if not args.no_grip:
        run_devils_grip()


if __name__ == "__main__":
    main()
