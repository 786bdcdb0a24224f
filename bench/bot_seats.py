"""What bots cost the event loop: `.venv/bin/python bench/bot_seats.py [--rooms 5] [--bots 7]`.

Runs the real hub, rooms and bot driver in this one process (no sockets, no server):
practice rooms of one person (who votes to end at once) and N bots of a level, their
think time scaled down so that whole rounds go by in seconds, until every round has
ended. Every call the driver makes to build a seat's view and to decide is timed, once
with the garbage collector on (as the server runs) and once with it off (what the calls
themselves cost). The decision engine's own benchmark is bench/bots.py.

`--loop SECONDS` instead runs 50 practice rooms of 7 bots at their real think times,
with the SQLite store, for that long, and lists the longest event-loop callbacks (the
flush, a bot's timer) and what inside them took the time: a stall of the server's loop
that the bots cause would show here, without a network or a client in the way.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import app.demon.hub.bot_driver as driver_module
from app.config import Settings
from app.demon.hub.flush import Outbox
from app.demon.hub.hub import Hub
from app.demon.room.room import Phase, Room
from app.protocol import messages as m
from app.server.loop.collector import Collector
from app.storage.store import Store


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
    hub = Hub(
        Settings(
            countdown_s=0.0,
            test_seed=args.seed,
            bot_think_scale=args.scale,
            persist=False,
            max_bots=args.rooms * args.bots,
        )
    )
    tables = [
        hub.create_practice(m.PracticeRoom(name="P", bots=args.bots, level=args.level, rounds=1))
        for _ in range(args.rooms)
    ]
    for handle, _, _ in tables:
        handle.person_seen = True  # the person is at the table (their socket's `Hub.attach` would say so)
    await asyncio.sleep(0.05)
    for handle, person, _ in tables:
        hub.bot_message(handle, person, m.Vote(type="vote", end=True))
    t0 = time.perf_counter()
    while any(h.room.phase is Phase.PLAYING for h, _, _ in tables):
        await asyncio.sleep(0.05)
    for handle, _, _ in tables:
        hub.bots.forget(handle)
    return time.perf_counter() - t0


def watch_slow(owner, name: str, label: str, slow: list, limit: float = 0.02) -> None:
    """Replace `owner.name` by a wrapper that notes calls longer than `limit` seconds."""
    fn = getattr(owner, name)

    def wrapper(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            took = time.perf_counter() - t0
            if took > limit:
                slow.append((took, label))

    setattr(owner, name, wrapper)


async def loop_load(args: argparse.Namespace) -> int:
    work = Path(tempfile.mkdtemp(prefix="bot-seats-"))
    store = Store.open(work)
    hub = Hub(Settings(data_dir=work, countdown_s=0.1, test_seed=args.seed, max_bots=args.rooms * args.bots), store)
    await hub.start()
    tables = [
        hub.create_practice(m.PracticeRoom(name="P", bots=args.bots, level=args.level, rounds=20))
        for _ in range(args.rooms)
    ]
    for handle, _, _ in tables:
        handle.person_seen = True  # the person is at the table (their socket's `Hub.attach` would say so)
    collector = Collector(busy=lambda: True)  # as the server sets it while people race (app/server/loop/collector.py)
    collector.start()
    full: list[float] = []
    started = [0.0]

    pauses: list[tuple[int, float]] = []

    def on_gc(phase: str, info: dict) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            pauses.append((info["generation"], time.perf_counter() - started[0]))
            if info["generation"] == 2:
                full.append(pauses[-1][1])

    gc.callbacks.append(on_gc)
    t0 = time.monotonic()
    while time.monotonic() - t0 < args.loop:
        await asyncio.sleep(0.5)
        for handle, person, _ in tables:  # the person deals the next round
            if handle.room.phase is Phase.ROUND_OVER:
                hub.bot_message(handle, person, m.NextRound(type="next_round"))
    gc.callbacks.remove(on_gc)
    collector.stop()
    young = [d for g, d in pauses if g < 2]
    print(
        f"young collections: {len(young)}, longest {max(young, default=0) * 1e3:.1f} ms; "
        f"collector: {collector.ticks} ticks, {collector.full_collections} full collections (start-up's "
        f"included); frozen objects at the end {gc.get_freeze_count()}"
    )
    await hub.stop()
    store.close()
    print(f"full collections: {len(full)}, longest {max(full, default=0) * 1e3:.0f} ms")
    return hub.bots.actions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rooms", type=int, default=5)
    ap.add_argument("--bots", type=int, default=7)
    ap.add_argument("--level", default="hard", choices=("easy", "medium", "hard"))
    ap.add_argument("--seed", type=int, default=20240, help="DEMON_TEST_SEED: the deal")
    ap.add_argument("--scale", type=float, default=0.002, help="think-time scale (testing only)")
    ap.add_argument(
        "--loop",
        type=float,
        metavar="SECONDS",
        help="instead: 50 rooms at real think times; the longest event-loop callbacks",
    )
    args = ap.parse_args()
    if args.loop:
        if args.rooms == 5:
            args.rooms = 50
        slow: list = []
        watch_slow(Outbox, "flush", "flush", slow)
        watch_slow(driver_module.BotDriver, "_fire", "a bot's timer", slow)
        watch_slow(driver_module, "seat_view", "  seat_view", slow)
        watch_slow(driver_module, "decide", "  decide", slow)
        watch_slow(Room, "public_stuck", "  public_stuck", slow)
        watch_slow(Room, "legal_news", "  legal_news", slow)
        actions = asyncio.run(loop_load(args))
        slow.sort(reverse=True)
        print(
            f"bench/bot_seats.py --loop: {args.rooms} rooms of 1 person + {args.bots} {args.level} bots, "
            f"{args.loop:g} s, {actions} bot messages; calls over 20 ms: {len(slow)}; the longest:"
        )
        for took, label in slow[:15]:
            print(f"  {took * 1e3:7.1f} ms  {label}")
        return
    # bot_driver's own (private) imports of the two, swapped for timed wrappers and back
    real_view, real_decide = driver_module.seat_view, driver_module.decide  # type: ignore[attr-defined]
    print(f"bench/bot_seats.py: {args.rooms} rooms of 1 person + {args.bots} {args.level} bots, seed {args.seed}")
    print(f"{'':28}{'calls':>8}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for collector in ("on", "off"):
        views: list[float] = []
        decisions: list[float] = []
        views_cpu: list[float] = []
        decisions_cpu: list[float] = []
        driver_module.seat_view = timed(real_view, views, views_cpu)  # type: ignore[attr-defined]
        driver_module.decide = timed(real_decide, decisions, decisions_cpu)  # type: ignore[attr-defined]
        gc.collect()
        if collector == "off":
            gc.disable()
        try:
            elapsed = asyncio.run(play(args))
        finally:
            gc.enable()
            driver_module.seat_view, driver_module.decide = real_view, real_decide  # type: ignore[attr-defined]
        for name, values in (
            ("seat_view", views),
            ("  (CPU time)", views_cpu),
            ("decide", decisions),
            ("  (CPU time)", decisions_cpu),
        ):
            values.sort()
            print(
                f"{name + (', gc ' + collector if name[0] != ' ' else ''):28}{len(values):8d}"
                f"{pct(values, 50) * 1e3:9.3f}"
                f"{pct(values, 99) * 1e3:9.3f}{values[-1] * 1e3:9.2f}"
            )
        print(f"  (rounds played in {elapsed:.1f} s)")


if __name__ == "__main__":
    main()
