"""What bots cost the event loop: `.venv/bin/python bench/bot_seats.py [--rooms 5] [--bots 7]`.

Runs the real hub, rooms and bot driver in this one process (no sockets, no server):
practice rooms of one person (who votes to end at once) and N bots of a level, their
think time scaled down so that whole rounds go by in seconds, until every round has
ended. Every call the driver makes to build a seat's view and to decide is timed, once
with the garbage collector on (as the server runs) and once with it off (what the calls
themselves cost). The decision engine's own benchmark is bench/bots.py.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import app.rooms.bots as driver_module  # noqa: E402
from app.config import Settings  # noqa: E402
from app.protocol import messages as m  # noqa: E402
from app.rooms.hub import Hub  # noqa: E402
from app.rooms.room import Phase  # noqa: E402


def timed(fn, wall: list[float], cpu: list[float]):
    """Wall time (what the loop waited) and this thread's CPU time (what the call cost:
    on a shared machine the wall time also holds the moments the process was not running)."""
    def wrapper(*args, **kwargs):
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            cpu.append(time.thread_time() - c0)
            wall.append(time.perf_counter() - t0)
    return wrapper


def pct(values: list[float], p: float) -> float:
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))] if values else float("nan")


async def play(args: argparse.Namespace) -> float:
    hub = Hub(Settings(countdown_s=0.0, test_seed=args.seed, bot_think_scale=args.scale, persist=False,
                       max_bots=args.rooms * args.bots))
    tables = [hub.create_practice(m.PracticeRoom(name="P", bots=args.bots, level=args.level, rounds=1))
              for _ in range(args.rooms)]
    await asyncio.sleep(0.05)
    for handle, person, _ in tables:
        hub.bot_message(handle, person, m.Vote(type="vote", end=True))
    t0 = time.perf_counter()
    while any(h.room.phase is Phase.PLAYING for h, _, _ in tables):
        await asyncio.sleep(0.05)
    for handle, _, _ in tables:
        hub.bots.forget(handle)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rooms", type=int, default=5)
    ap.add_argument("--bots", type=int, default=7)
    ap.add_argument("--level", default="hard", choices=("easy", "medium", "hard"))
    ap.add_argument("--seed", type=int, default=20240, help="DEMON_TEST_SEED: the deal")
    ap.add_argument("--scale", type=float, default=0.002, help="think-time scale (testing only)")
    args = ap.parse_args()
    real_view, real_decide = driver_module.seat_view, driver_module.decide
    print(f"bench/bot_seats.py: {args.rooms} rooms of 1 person + {args.bots} {args.level} bots, seed {args.seed}")
    print(f"{'':28}{'calls':>8}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for collector in ("on", "off"):
        views: list[float] = []
        decisions: list[float] = []
        views_cpu: list[float] = []
        decisions_cpu: list[float] = []
        driver_module.seat_view = timed(real_view, views, views_cpu)
        driver_module.decide = timed(real_decide, decisions, decisions_cpu)
        gc.collect()
        if collector == "off":
            gc.disable()
        try:
            elapsed = asyncio.run(play(args))
        finally:
            gc.enable()
            driver_module.seat_view, driver_module.decide = real_view, real_decide
        for name, values in (("seat_view", views), ("  (CPU time)", views_cpu),
                             ("decide", decisions), ("  (CPU time)", decisions_cpu)):
            values.sort()
            print(f"{name + (', gc ' + collector if name[0] != ' ' else ''):28}{len(values):8d}"
                  f"{pct(values, 50) * 1e3:9.3f}"
                  f"{pct(values, 99) * 1e3:9.3f}{values[-1] * 1e3:9.2f}")
        print(f"  (rounds played in {elapsed:.1f} s)")


if __name__ == "__main__":
    main()
