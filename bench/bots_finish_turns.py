"""The rooms' loop turns while bots finish rounds, in CPU time: `.venv/bin/python
bench/bots_finish_turns.py [--rooms 57] [--seconds 30] [--game demon] [--against DIR] [--repeat 1]`.

`bench/server.py --bots-finish` counts the loop watch's stalls, which are wall time: on
a shared machine a process that waits for a core is late too, however little it does.
This one asks what the code holds the loop for. In one process, without sockets, it
runs the real hub, rooms, bots and SQLite store (with the server's collector and loop
watch): `--rooms` practice rooms of one person and 7 Hard bots, each person letting the
bots finish every round and asking for the next (a rematch every third), for `--seconds`.
Every turn of the event loop is timed in the loop thread's CPU time
(`time.thread_time`, which a wait for the CPU does not add to); it reports the turns
of 20, 50 and 100 ms of CPU or more, the longest and what ran in it, the rounds
finished and the bots' messages a second, beside the loop watch's (wall) figures and,
for every wake-up 100 ms late, how long the kernel says the loop thread waited for a
core meanwhile (/proc/thread-self/schedstat): a stall of the machine, not of the code.
`--against DIR` runs another checkout's code the same way, alternating (each run is a
subprocess importing `app` from its checkout).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


class Silent:
    """A person's socket that only counts its frames."""

    def __init__(self) -> None:
        self.frames = 0

    async def send_text(self, data: str) -> None:
        self.frames += 1

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass


def time_turns(threshold_s: float) -> tuple[list[tuple[float, dict[str, float]]], list[float]]:
    """Time every loop turn in the thread's CPU time; returns the list the turns of
    `threshold_s` or more go to (with the CPU per callback in them) and [turns, the
    longest turn's CPU]."""
    slow: list[tuple[float, dict[str, float]]] = []
    count = [0, 0.0]
    current: collections.defaultdict[str, float] = collections.defaultdict(float)
    run_once = asyncio.BaseEventLoop._run_once  # type: ignore[attr-defined]
    handle_run = asyncio.Handle._run

    def timed_run(self: asyncio.Handle) -> None:
        t = time.thread_time()
        try:
            handle_run(self)
        finally:
            cb = self._callback  # type: ignore[attr-defined]
            name = getattr(cb, "__qualname__", None) or type(cb).__name__
            owner = getattr(cb, "__self__", None)
            if isinstance(owner, asyncio.Task):
                name += " " + owner.get_coro().__qualname__  # type: ignore[union-attr]
            current[name] += time.thread_time() - t

    def timed_run_once(self: asyncio.AbstractEventLoop) -> None:
        current.clear()
        t = time.thread_time()
        run_once(self)
        took = time.thread_time() - t
        count[0] += 1
        count[1] = max(count[1], took)
        if took >= threshold_s:
            slow.append((took, dict(current)))

    asyncio.BaseEventLoop._run_once = timed_run_once  # type: ignore[attr-defined]
    asyncio.Handle._run = timed_run  # type: ignore[method-assign]
    return slow, count


def schedstat() -> tuple[float, float]:
    """This thread's (time on a CPU, time waiting for one) in seconds, from the kernel."""
    with open("/proc/thread-self/schedstat") as f:
        on_cpu, waiting = f.read().split()[:2]
    return int(on_cpu) / 1e9, int(waiting) / 1e9


async def watch_waits(stalls: list[tuple[float, float, float]], every_s: float = 0.1) -> None:
    """The loop watch's question, asked again with the kernel's answer beside it: each
    wake-up 100 ms late or more, with the CPU the loop thread had and the time it waited
    for a core over that interval (lateness, CPU, waited)."""
    loop = asyncio.get_running_loop()
    while True:
        due = loop.time() + every_s
        cpu0, wait0 = schedstat()
        await asyncio.sleep(every_s)
        late = loop.time() - due
        if late >= 0.1:
            cpu1, wait1 = schedstat()
            stalls.append((late, cpu1 - cpu0, wait1 - wait0))


async def child(rooms_n: int, seconds: float, game: str) -> dict:
    from app.config import Settings
    from app.demon.hub.connection import Pipe
    from app.demon.hub.hub import Hub
    from app.demon.room.phases import Phase
    from app.protocol import messages as m
    from app.server.loop.collector import Collector
    from app.server.loop.watch import LoopWatch
    from app.storage.store import Store

    data = Path(tempfile.mkdtemp(prefix="demon-finish-turns-"))
    store = Store.open(data)
    settings = Settings(data_dir=data, countdown_s=0.1, test_seed=20240, max_bots=max(400, rooms_n * 7))
    hub = Hub(settings, store)
    await hub.start()
    collector = Collector(hub.racing)
    collector.start()
    watch = LoopWatch()
    watch.start()
    people = []
    for i in range(rooms_n):
        body = m.PracticeRoom.model_validate({"name": f"p{i}", "bots": 7, "level": "hard", "rounds": 3, "game": game})
        handle, person, _ = hub.create_practice(body)
        pipe = Pipe(Silent(), 4096)  # type: ignore[arg-type]
        assert hub.attach(handle, person, pipe, None)
        people.append((handle, person, pipe))
    # The people, as their sockets would: each message a callback of its own.
    loop = asyncio.get_running_loop()
    rounds = 0
    handled: dict[str, tuple[int, str]] = {}

    def person_looks(i: int) -> None:
        nonlocal rounds
        handle, person, pipe = people[i]
        room = handle.room
        state = (room.round_no, room.phase.value)
        if handled.get(room.code) != state:
            handled[room.code] = state
            if room.phase is Phase.PLAYING:
                hub.handle_message(handle, person, pipe, m.Vote(type="vote", end=True, bots_finish=True))
            elif room.phase is Phase.ROUND_OVER:
                rounds += 1
                hub.handle_message(handle, person, pipe, m.NextRound(type="next_round"))
            elif room.phase is Phase.MATCH_OVER:
                rounds += 1
                hub.handle_message(handle, person, pipe, m.Rematch(type="rematch"))
        loop.call_later(0.05, person_looks, i)

    await asyncio.sleep(0.5)  # the first rounds deal (their countdown), outside the timing
    slow, turns = time_turns(0.02)
    stalls: list[tuple[float, float, float]] = []
    waits = asyncio.create_task(watch_waits(stalls))
    cpu0, t0, stalls0, actions0 = time.thread_time(), time.monotonic(), watch.stalls, hub.bots.actions
    watch.worst_s = 0.0
    for i in range(rooms_n):
        loop.call_later(0.05 * i / rooms_n, person_looks, i)
    await asyncio.sleep(seconds)
    elapsed = time.monotonic() - t0
    result = {
        "turns": turns[0],
        "over_20ms": len(slow),
        "over_50ms": sum(1 for took, _ in slow if took >= 0.05),
        "over_100ms": sum(1 for took, _ in slow if took >= 0.1),
        "longest_ms": turns[1] * 1e3,
        "longest": sorted(max(slow, key=lambda s: s[0])[1].items(), key=lambda kv: -kv[1])[:3] if slow else [],
        "rounds": rounds,
        "messages_s": (hub.bots.actions - actions0) / elapsed,
        "cpu": (time.thread_time() - cpu0) / elapsed,
        "watch_stalls": watch.stalls - stalls0,
        "watch_worst_ms": watch.worst_s * 1e3,
        # the stalls the kernel says the loop thread spent mostly waiting for a core
        "stalls": len(stalls),
        "machine_stalls": sum(1 for late, _, waited in stalls if waited >= late / 2),
        "stall_late_s": sum(late for late, _, _ in stalls),
        "stall_cpu_s": sum(cpu for _, cpu, _ in stalls),
        "stall_wait_s": sum(waited for _, _, waited in stalls),
    }
    waits.cancel()
    hub.bots.stopped = True
    for handle in hub.rooms.values():
        hub.bots.forget(handle)
    collector.stop()
    watch.stop()
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rooms", type=int, default=57, help="practice rooms of 1 person + 7 Hard bots (default 57)")
    ap.add_argument("--seconds", type=float, default=30.0, help="how long each run lasts (default 30)")
    ap.add_argument("--game", choices=("demon", "nerts"), default="demon")
    ap.add_argument("--against", metavar="DIR", help="also run DIR's code, alternating (a before)")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each code, alternating (default 1)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        sys.path.insert(0, os.getcwd())
        print(json.dumps(asyncio.run(child(args.rooms, args.seconds, args.game))))
        return
    roots = [ROOT] + ([Path(args.against).resolve()] if args.against else [])
    print(
        f"bench/bots_finish_turns.py: {args.rooms} {args.game} practice rooms letting 7 Hard bots finish, "
        f"{args.seconds:g} s a run, {args.repeat} run(s) each, alternating"
    )
    for run in range(args.repeat):
        for root in roots:
            load = open("/proc/loadavg").read().split()[:3]
            out = subprocess.run(
                [sys.executable, str(Path(__file__).resolve()), "--child", "--rooms", str(args.rooms)]
                + ["--seconds", str(args.seconds), "--game", args.game],
                cwd=root,
                capture_output=True,
                text=True,
                timeout=args.seconds + 300,
            )
            if out.returncode:
                raise SystemExit(out.stderr[-3000:])
            r = json.loads(out.stdout.strip().splitlines()[-1])
            what = ", ".join(f"{name} {took * 1e3:.0f}" for name, took in r["longest"])
            print(
                f"- {root} (run {run + 1}, load {' '.join(load)}): {r['rounds']} rounds, "
                f"{r['messages_s']:.0f} bot messages/s, loop thread CPU {r['cpu'] * 100:.0f}%; "
                f"{r['turns']} loop turns, of CPU >= 20 ms: {r['over_20ms']}, >= 50 ms: {r['over_50ms']}, "
                f">= 100 ms: {r['over_100ms']}, "
                f"longest {r['longest_ms']:.0f} ms ({what or '-'}); loop watch (wall): "
                f"{r['watch_stalls']} stalls, worst {r['watch_worst_ms']:.0f} ms; of {r['stalls']} wake-ups "
                f"100 ms late, {r['machine_stalls']} spent half their lateness or more waiting for a core "
                f"(in all: {r['stall_late_s']:.2f} s late, the loop thread on a CPU {r['stall_cpu_s']:.2f} s "
                f"and waiting for one {r['stall_wait_s']:.2f} s over those intervals)",
                flush=True,
            )


if __name__ == "__main__":
    main()
