"""How many players one process holds, and what several processes behind HAProxy add.
Run through bench/server.py (whose rooms, seats, phases and servers this reuses):

    .venv/bin/python bench/server.py --capacity [--seconds 8] [--capacity-steps 50,100,...]
    .venv/bin/python bench/server.py --processes 2 [--rooms 50] [--seconds 10] [--sat-seconds 10]

**--capacity**: for our server (persistence on) and the bare fan-out (bench/bare_server.py),
in the same run, rooms of 8 seats are added step by step (each seat plays about once a
second, the open loop of bench/server.py) and each step is measured for `--seconds`; the
steps stop once the fan-out p99 passes `--capacity-p99-ms` (50 ms: about where a race
starts to feel unfair). A server holds the players of its last step under that line. The
ratio ours / bare is the capacity target's figure (>= 0.6, docs/performance.md).

**--processes N**: the same rooms against three set-ups, in one run: one process alone
(clients connect to it), one process behind HAProxy, and N processes behind HAProxy
(docker/cluster.py: shard letters, DEMON_PEERS, the generated haproxy.cfg). For each: the
open loop (fan-out p50/p99: the balancer's added latency is "one behind HAProxy" minus
"one alone") and the saturated loop (moves/s: N behind HAProxy against one behind it;
target >= 1.4 for N = 2). Rooms are created through the balancer, so round-robin spreads
them. All load comes from this one client process, on the same machine.

The certified-deal search is off in every set-up here (DEMON_WINNABLE_READY=0): at start
it keeps a worker busy for tens of seconds per process, which would be measured as noise.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "docker"))

from cluster import Cluster, haproxy_path  # noqa: E402

import server as S  # noqa: E402  (bench/server.py)

P99_LIMIT_MS = 50.0
DEFAULT_STEPS = "25,50,100,150,200,250,300,350,400,500,600,700,800"
NO_SEARCH = {"DEMON_WINNABLE_READY": "0"}


# ====================================================================== servers


class ProcessGroup:
    """Several server processes seen as one by bench/server.py's phases: CPU is their sum,
    and one that exits fails the run."""

    def __init__(self, procs: list, ports: list[int]) -> None:
        self.procs = procs
        self.ports = ports

    def cpu_s(self) -> float:
        total = 0.0
        for proc in self.procs:
            with open(f"/proc/{proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / S.CLK_TCK
        return total

    def family_cpu_s(self) -> tuple[float, float]:
        return S.descendants_cpu_s({proc.pid for proc in self.procs})

    def loop_stalls(self) -> int | None:
        """The processes' stalls summed (each counts its own, on its own /metrics)."""
        counts = [S.loop_stalls_at(port) for port in self.ports]
        return sum(c for c in counts if c is not None) if None not in counts else None

    def check(self) -> None:
        for proc in self.procs:
            if proc.poll() is not None:
                raise RuntimeError(f"a server process exited with {proc.returncode}")


async def add_rooms(kind: str, driver, base: str, port: int, n_add: int, rooms: list, seats: list, server) -> None:
    """`n_add` more rooms of 8 connected seats, their rounds started (ours)."""
    first = len(rooms)
    new_rooms = [S.Room(f"r{first + i}") for i in range(n_add)]
    new_seats: list = []
    if kind == "ours":
        grants = await S.create_rooms(base, n_add, f"c{first}-")
        for room, room_grants in zip(new_rooms, grants):
            room.code = room_grants[0]["code"]
            for i, grant in enumerate(room_grants):
                seat: S.DemonSeat | S.BareSeat = S.DemonSeat(
                    driver, room, grant, i == 0, random.Random(f"{room.key}-{i}")
                )
                room.seats.append(seat)
                new_seats.append(seat)
        await S.connect_all(driver, port, new_seats, lambda s: f"/ws/{s.room.code}")
    else:
        for room in new_rooms:
            for i in range(S.SEATS):
                seat = S.BareSeat(driver, room, i, random.Random(f"{room.key}-{i}"))
                room.seats.append(seat)
                new_seats.append(seat)
        await S.connect_all(driver, port, new_seats, lambda s: f"/ws/{s.room.key}")
    await S.wait_until(lambda: all(s.welcomed for s in new_seats), 60, "every new seat's welcome", server)
    if kind == "ours":
        for room in new_rooms:
            room.seats[0].ws.send_text('{"type":"start"}')
        await S.wait_until(lambda: all(s.playing and s.legal for s in new_seats), 60, "the new rounds", server)
    rooms.extend(new_rooms)
    seats.extend(new_seats)


def close_all(seats: list) -> None:
    for s in seats:
        if s.ws is not None:
            s.ws.close()


# ====================================================================== --capacity


async def capacity_of(name: str, args: argparse.Namespace, work: Path) -> dict:
    label, kind, extra_env = S.TARGETS[name]
    port = S.free_port()
    data_dir = work / f"data-cap-{name}"
    data_dir.mkdir()
    if kind == "ours":
        env = S.our_server_env(port, data_dir, args, **extra_env, **NO_SEARCH)
        argv = [sys.executable, "-m", "app"]
    else:
        env = dict(os.environ)
        argv = [sys.executable, str(HERE / "bare_server.py"), "--port", str(port), "--impl", args.bare_impl]
    server = S.ServerProcess(argv, env, work / f"server-cap-{name}.log", port)
    base = f"http://{S.HOST}:{port}"
    print(f"- {label}: starting (load average {S.loadavg()})", flush=True)
    server.start()
    steps: list[dict] = []
    rooms: list = []
    seats: list = []
    try:
        await S.warm_up(kind, server, base)
        driver = S.Driver(args.rate)
        for n_rooms in args.steps:
            await add_rooms(kind, driver, base, port, n_rooms - len(rooms), rooms, seats, server)
            gc.collect()
            gc.freeze()
            r = await S.run_phase(driver, f"open-{n_rooms}", S.OPEN, args.seconds, rooms, seats, server)
            step = {
                "players": len(seats),
                "moves_s": r["moves_s"],
                "p50": r["p50"],
                "p99": r["p99"],
                "server_cpu": r["server_cpu"],
                "client_cpu": r["client_cpu"],
                "other_cpu": r["other_cpu"],
                "cpu_us_per_move": r["cpu_us_per_move"],
                "loop_stalls": r["loop_stalls"],
            }
            steps.append(step)
            print(
                f"  {step['players']:5d} players: {r['moves_s']:6.0f} moves/s, fan-out p50 {r['p50'] * 1e3:6.1f} ms, "
                f"p99 {r['p99'] * 1e3:7.1f} ms; server {r['server_cpu'] * 100:3.0f}% of a core "
                f"({r['cpu_us_per_move']:.0f} us/move), client "
                f"{r['client_cpu'] * 100:3.0f}%, other processes {r['other_cpu'] * 100:3.0f}% "
                + (f", server loop stalls {r['loop_stalls']} " if r["loop_stalls"] is not None else "")
                + f"(load {S.loadavg()})",
                flush=True,
            )
            if r["p99"] * 1e3 > args.capacity_p99_ms:
                break
    finally:
        close_all(seats)
        gc.unfreeze()
        server.stop()
        await asyncio.sleep(0.3)
    under = [s for s in steps if s["p99"] * 1e3 <= args.capacity_p99_ms]
    return {
        "name": name,
        "label": label,
        "steps": steps,
        "held": under[-1]["players"] if under else 0,
        "passed_at": next((s["players"] for s in steps if s["p99"] * 1e3 > args.capacity_p99_ms), None),
    }


def run_capacity(args: argparse.Namespace) -> None:
    args.steps = [int(x) for x in args.capacity_steps.split(",")]
    work = Path(tempfile.mkdtemp(prefix="demon-capacity-"))
    print(
        f"bench/server.py --capacity: rooms of {S.SEATS}, {args.rate:g} play/s/seat, {args.seconds:g} s per "
        f"step, steps of {args.capacity_steps} rooms, until fan-out p99 > {args.capacity_p99_ms:g} ms; "
        f"{os.cpu_count()} CPUs; code {S.code_version()}",
        flush=True,
    )
    try:
        results = [asyncio.run(capacity_of(name, args, work)) for name in ("on", "bare")]
    finally:
        if args.keep:
            print(f"(kept the servers' logs and data in {work})")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(
        f"\nplayers held with fan-out p99 <= {args.capacity_p99_ms:g} ms (rooms of {S.SEATS}, "
        f"~{args.rate:g} play/s/seat):"
    )
    for r in results:
        over = f", p99 passed it at {r['passed_at']}" if r["passed_at"] else ", never passed it (raise the steps)"
        print(f"  {r['label']:<22} {r['held']:6d}{over}")
    ours, bare = results[0]["held"], results[1]["held"]
    if bare:
        ratio = ours / bare
        print(f"  ours / bare (target >= 0.7): {ratio:.2f}  {'met' if ratio >= 0.7 else 'MISSED'}")


# ====================================================================== --processes N


async def measure_setup(label: str, args: argparse.Namespace, work: Path, processes: int, balanced: bool) -> dict:
    """Open loop then saturated loop on `args.rooms` rooms, against one process alone, or
    `processes` processes behind HAProxy."""
    key = f"{processes}{'lb' if balanced else 'alone'}"
    data_dir = work / key
    env = S.our_server_env(0, data_dir, args, **NO_SEARCH)
    for k in ("DEMON_HOST", "DEMON_PORT", "DEMON_DATA_DIR"):
        env.pop(k)
    print(f"- {label}: starting (load average {S.loadavg()})", flush=True)
    if balanced:
        cluster = Cluster(
            processes,
            port=S.free_port(),
            ports=[S.free_port() for _ in range(processes)],
            data_dir=data_dir,
            env={k: v for k, v in env.items() if k.startswith("DEMON_")},
            log=open(work / f"{key}.log", "w"),
        )
        cluster.start()
        group = ProcessGroup(list(cluster.procs.values()), list(cluster.ports.values()))
        port = cluster.port
        stop: Callable[[], object] = cluster.stop
    else:
        port = S.free_port()
        env.update({"DEMON_HOST": S.HOST, "DEMON_PORT": str(port), "DEMON_DATA_DIR": str(data_dir)})
        data_dir.mkdir()
        single = S.ServerProcess([sys.executable, "-m", "app"], env, work / f"{key}.log", port)
        single.start()
        group = ProcessGroup([single.proc], [port])
        stop = single.stop
    base = f"http://{S.HOST}:{port}"
    seats: list = []
    try:
        driver = S.Driver(args.rate)
        rooms: list = []
        await add_rooms("ours", driver, base, port, args.rooms, rooms, seats, group)
        by_shard: dict[str, int] = {}
        for room in rooms:
            by_shard[room.code[0]] = by_shard.get(room.code[0], 0) + 1
        gc.collect()
        gc.freeze()
        o = await S.run_phase(driver, "open", S.OPEN, args.seconds, rooms, seats, group)
        print(
            f"  open loop: {o['moves_s']:.0f} moves/s, fan-out p50 {o['p50'] * 1e3:.2f} ms, p99 {o['p99'] * 1e3:.2f} ms",
            flush=True,
        )
        s = await S.run_phase(driver, "saturated", S.CLOSED, args.sat_seconds, rooms, seats, group)
        print(
            f"  saturated: {s['moves_s']:.0f} moves/s; servers {s['server_cpu'] * 100:.0f}% of a core, client "
            f"{s['client_cpu'] * 100:.0f}%, other processes (HAProxy among them) {s['other_cpu'] * 100:.0f}%",
            flush=True,
        )
        return {"label": label, "open": o, "sat": s, "rooms_per_process": by_shard}
    finally:
        close_all(seats)
        gc.unfreeze()
        stop()
        await asyncio.sleep(0.3)


def run_processes(args: argparse.Namespace) -> None:
    if haproxy_path() is None:
        raise SystemExit("bench/server.py --processes needs haproxy (apt-get install haproxy)")
    n = args.processes
    work = Path(tempfile.mkdtemp(prefix="demon-scale-"))
    print(
        f"bench/server.py --processes {n}: {args.rooms} rooms x {S.SEATS} seats, open loop {args.seconds:g} s, "
        f"saturated {args.sat_seconds:g} s; {os.cpu_count()} CPUs; code {S.code_version()}",
        flush=True,
    )
    try:
        alone = asyncio.run(measure_setup("1 process alone", args, work, 1, False))
        one = asyncio.run(measure_setup("1 process behind HAProxy", args, work, 1, True))
        many = asyncio.run(measure_setup(f"{n} processes behind HAProxy", args, work, n, True))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    rows = [alone, one, many]
    print(f"\n{'':<34}" + "".join(f"{r['label']:>30}" for r in rows))
    lines = [
        (
            "rooms per shard",
            lambda r: (
                " ".join(f"{k}:{v}" for k, v in sorted(r["rooms_per_process"].items()))
                if len(r["rooms_per_process"]) <= 4
                else "(no shard: any letter)"
            ),
        ),
        ("open loop: moves/s", lambda r: f"{r['open']['moves_s']:.0f}"),
        ("open loop: fan-out p50 / p99 (ms)", lambda r: f"{r['open']['p50'] * 1e3:.2f} / {r['open']['p99'] * 1e3:.2f}"),
        ("saturated: moves/s", lambda r: f"{r['sat']['moves_s']:.0f}"),
        ("saturated: fan-out p50 / p99 (ms)", lambda r: f"{r['sat']['p50'] * 1e3:.1f} / {r['sat']['p99'] * 1e3:.1f}"),
        ("saturated: servers' CPU (cores)", lambda r: f"{r['sat']['server_cpu']:.2f}"),
        ("saturated: client CPU (cores)", lambda r: f"{r['sat']['client_cpu']:.2f}"),
        ("saturated: other CPU (cores)", lambda r: f"{r['sat']['other_cpu']:.2f}"),
    ]
    for name, cell in lines:
        print(f"{name:<34}" + "".join(f"{cell(r):>30}" for r in rows))
    added50 = (one["open"]["p50"] - alone["open"]["p50"]) * 1e3
    added99 = (one["open"]["p99"] - alone["open"]["p99"]) * 1e3
    print(f"\nthe balancer's added fan-out latency, open loop: p50 {added50:+.2f} ms, p99 {added99:+.2f} ms")
    ratio = many["sat"]["moves_s"] / one["sat"]["moves_s"]
    print(
        f"saturated moves/s, {n} processes / 1 process, both behind HAProxy (target >= 1.4 for 2): {ratio:.2f}  "
        f"{'met' if ratio >= 1.4 else 'MISSED'}"
    )
