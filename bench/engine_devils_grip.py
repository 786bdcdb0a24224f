"""Benchmark of the Devil's Grip engine.

    .venv/bin/python bench/engine_devils_grip.py [--deals 300] [--seed 1] [--samples 5000]

1. Random deals played to the end: a seeded random player that mostly takes a play that
   brings a card into the grid when there is one, otherwise deals or redeals, and now and
   then makes a random part-pile move or (at most a few times per deal) a swap. A deal
   stops when the engine detects its end (rule 10); a safety cap ends it by hand.
   Reports deals per second and actions per second (each action: legal_actions + apply,
   which includes end detection).
2. End detection: `is_over()` on positions sampled from those playouts, each timed on a
   fresh state object (so nothing is cached): p50 / p99 / max per call.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from app.grip.rules import (
    DealThree,
    EndDeal,
    GridToGrid,
    GripState,
    Redeal,
    Swap,
    TalonToGrid,
)

MAX_SWAPS_PER_DEAL = 5
MAX_ACTIONS_PER_DEAL = 5000


def pick(rng: random.Random, s: GripState, swaps_left: int):
    acts = s.legal_actions(swaps=swaps_left > 0 and rng.random() < 0.02)
    entering = [
        a for a in acts if isinstance(a, TalonToGrid) or (isinstance(a, GridToGrid) and a.count == len(s.grid[a.src]))
    ]
    if entering and rng.random() < 0.9:
        return rng.choice(entering)
    cycle = [a for a in acts if isinstance(a, (DealThree, Redeal))]
    if cycle and rng.random() < 0.8:
        return cycle[0]
    return rng.choice(acts)


def play(number: int, passes: int | None, rng: random.Random, samples: list, sample_rate: float):
    s = GripState.deal(number, passes)
    actions = 0
    swaps_left = MAX_SWAPS_PER_DEAL
    while not s.is_over():
        if actions >= MAX_ACTIONS_PER_DEAL:
            s, _ = s.apply(EndDeal())
            break
        a = pick(rng, s, swaps_left)
        if isinstance(a, Swap):
            swaps_left -= 1
        s, _ = s.apply(a)
        actions += 1
        if rng.random() < sample_rate:
            samples.append(s)
    return s, actions


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    i = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[i]


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=5000, help="end-detection positions to time")
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    samples: list[GripState] = []
    total_actions = 0
    scores = []
    capped = 0
    t0 = time.perf_counter()
    for i in range(args.deals):
        passes = (1, 3, None)[i % 3]
        final, n = play(rng.randrange(1, 10**9), passes, rng, samples, 0.05)
        total_actions += n
        scores.append(final.score())
        capped += n >= MAX_ACTIONS_PER_DEAL
    elapsed = time.perf_counter() - t0

    rng.shuffle(samples)
    positions = samples[: args.samples]
    timings = []
    for s in positions:
        fresh = GripState(s.grid, s.stock, s.talon, s.passes_allowed, s.passes_used, False)
        t = time.perf_counter_ns()
        fresh.is_over()
        timings.append((time.perf_counter_ns() - t) / 1000)
    timings.sort()

    result = {
        "deals": args.deals,
        "deals_per_s": args.deals / elapsed,
        "actions": total_actions,
        "actions_per_s": total_actions / elapsed,
        "mean_score": sum(scores) / len(scores),
        "wins": sum(1 for x in scores if x == 0),
        "capped": capped,
        "is_over_positions": len(timings),
        "is_over_p50_us": percentile(timings, 0.50),
        "is_over_p99_us": percentile(timings, 0.99),
        "is_over_max_us": timings[-1] if timings else float("nan"),
    }
    print(f"Devil's Grip engine benchmark (seed {args.seed})")
    print(
        f"  random deals played to the end: {args.deals} in {elapsed:.2f} s = "
        f"{result['deals_per_s']:.1f} deals/s ({total_actions} actions, "
        f"{result['actions_per_s']:.0f} actions/s; mean score {result['mean_score']:.1f}, "
        f"{result['wins']} won, {capped} stopped by the cap)"
    )
    print(
        f"  end detection is_over() on {len(timings)} sampled positions: "
        f"p50 {result['is_over_p50_us']:.1f} us, p99 {result['is_over_p99_us']:.1f} us, "
        f"max {result['is_over_max_us']:.1f} us"
    )
    return result


if __name__ == "__main__":
    main()
