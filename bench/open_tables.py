"""What the open-tables list costs the server: `.venv/bin/python bench/open_tables.py
[--pages 1000] [--seconds 30] [--rooms 200] [--changes-per-s 2]`.

Starts the real server (`python -m app`, one process, persistence on) on a free
loopback port, opens `--rooms` open tables over HTTP (some with a second person), then
runs two phases of `--seconds` each:

* churn only: the tables change (`--changes-per-s`: a join at an open table, or a new
  open table, in turn), and nobody looks at the list;
* churn and pages: the same changes, and `--pages` home pages each asking
  `GET /api/tables` every `refresh_s` (the answer's, 5 s), starting at a random moment
  of the first period, sending back the ETag they hold (`If-None-Match`): a 304 when the
  list did not change since, the new list when it did.

The server's CPU is read from /proc (utime + stime of its process) around each phase;
the pages' cost is the second phase's CPU minus the first's, per second and per list
request. Latency is from a request's send to its answer's end, in this process (the
client shares the machine with the server: read the p99 as an upper bound), and also
from the moment the page's request was due. The pages share `--connections`
keep-alive connections (a hand-written HTTP/1.1 client), as they would behind a proxy.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from server import HOST, ServerProcess, code_version, free_port, loadavg  # noqa: E402


def server_env(port: int, data_dir: Path) -> dict[str, str]:
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith("DEMON_")}
    env.update(
        {
            "DEMON_HOST": HOST,
            "DEMON_PORT": str(port),
            "DEMON_DATA_DIR": str(data_dir),
            "DEMON_LOG_LEVEL": "warning",
            "DEMON_MAX_CONNECTIONS": "100000",
            "DEMON_MAX_CONNECTIONS_PER_ADDR": "100000",
            "DEMON_MAX_CONNECTIONS_PER_PREFIX": "100000",
            "DEMON_ROOM_CREATE_BURST": "1000000",
            "DEMON_JOIN_BURST": "1000000",
            "DEMON_MISS_BURST": "1000000",
            "DEMON_UNUSED_ROOM_TTL_S": "3600",
            "DEMON_GRIP_WORKER": "false",
        }
    )
    return env


class Churn:
    """The tables changing: a join at an open table or a new open table, in turn."""

    def __init__(self, http: httpx.AsyncClient, codes: list[str], per_s: float) -> None:
        self.http, self.codes, self.per_s = http, codes, per_s
        self.done = 0

    async def run(self, until: float) -> None:
        n = 0
        while time.monotonic() < until:
            n += 1
            if n % 2:
                code = random.choice(self.codes)
                await self.http.post(f"/api/rooms/{code}/join", json={"name": f"J{n}"})
            else:
                r = await self.http.post("/api/rooms", json={"name": f"C{n}", "open": True, "language": "de"})
                self.codes.append(r.json()["code"])
            self.done += 1
            await asyncio.sleep(1 / self.per_s)


class Conn:
    """One keep-alive HTTP/1.1 connection, written by hand: httpx's own cost per request,
    times 200 a second on the same two cores as the server, was the bench's bottleneck."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(HOST, self.port)

    async def get_tables(self, etag: str | None) -> tuple[int, str | None]:
        for attempt in (0, 1):
            try:
                if self.writer is None:
                    await self.open()
                assert self.reader is not None and self.writer is not None
                match = f"If-None-Match: {etag}\r\n" if etag else ""
                self.writer.write(f"GET /api/tables HTTP/1.1\r\nHost: bench\r\n{match}\r\n".encode())
                head = await self.reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                status = int(lines[0].split()[1])
                headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
                await self.reader.readexactly(int(headers.get("content-length", "0")))
                return status, headers.get("etag", etag)
            except (OSError, asyncio.IncompleteReadError):  # closed while idle: open again
                self.writer = None
                if attempt:
                    raise
        raise AssertionError("unreachable")


class Pages:
    def __init__(self, port: int, n: int, connections: int) -> None:
        self.n = n
        self.pool: asyncio.Queue[Conn] = asyncio.Queue()
        for _ in range(connections):
            self.pool.put_nowait(Conn(port))
        self.latencies: list[float] = []  # from the request's send to its answer's end
        self.waits: list[float] = []  # from the moment it was due (a free connection's wait included)
        self.statuses: dict[int, int] = {}

    async def page(self, until: float, refresh_s: float) -> None:
        etag: str | None = None
        await asyncio.sleep(random.uniform(0, refresh_s))
        while time.monotonic() < until:
            due = time.monotonic() + refresh_s
            t_due = time.perf_counter()
            conn = await self.pool.get()
            try:
                t0 = time.perf_counter()
                status, etag = await conn.get_tables(etag)
                t1 = time.perf_counter()
            finally:
                self.pool.put_nowait(conn)
            self.latencies.append(t1 - t0)
            self.waits.append(t1 - t_due)
            self.statuses[status] = self.statuses.get(status, 0) + 1
            await asyncio.sleep(max(0.0, due - time.monotonic()))

    async def run(self, until: float, refresh_s: float) -> None:
        await asyncio.gather(*(self.page(until, refresh_s) for _ in range(self.n)))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def measure(args: argparse.Namespace, server: ServerProcess) -> dict:
    base = f"http://{HOST}:{server.port}"
    limits = httpx.Limits(max_connections=args.connections, max_keepalive_connections=args.connections)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as http:
        codes = []
        for i in range(args.rooms):
            r = await http.post("/api/rooms", json={"name": f"Host{i}", "open": True, "max_players": 8})
            codes.append(r.json()["code"])
            if i % 2:
                await http.post(f"/api/rooms/{codes[-1]}/join", json={"name": "Guest"})
        first = (await http.get("/api/tables")).json()
        refresh_s = float(first["refresh_s"])

        churn = Churn(http, codes, args.changes_per_s)
        cpu0, t0 = server.cpu_s(), time.monotonic()
        await churn.run(t0 + args.seconds)
        cpu1, t1 = server.cpu_s(), time.monotonic()
        churn_only = {"cpu_s": cpu1 - cpu0, "seconds": t1 - t0, "changes": churn.done}

        churn.done = 0
        pages = Pages(server.port, args.pages, args.connections)
        cpu2, t2 = server.cpu_s(), time.monotonic()
        until = t2 + args.seconds
        await asyncio.gather(churn.run(until), pages.run(until, refresh_s))
        cpu3, t3 = server.cpu_s(), time.monotonic()
        requests = sum(pages.statuses.values())
        with_pages = {"cpu_s": cpu3 - cpu2, "seconds": t3 - t2, "changes": churn.done, "requests": requests}
        server.check()

    busy_churn = churn_only["cpu_s"] / churn_only["seconds"]
    busy_pages = with_pages["cpu_s"] / with_pages["seconds"]
    extra = busy_pages - busy_churn
    return {
        "commit": code_version(),
        "load_before": args.load_before,
        "load_after": loadavg(),
        "pages": args.pages,
        "refresh_s": refresh_s,
        "open_tables_listed": len(first["tables"]),
        "rooms": len(codes),
        "changes_per_s": args.changes_per_s,
        "churn_only": churn_only,
        "with_pages": with_pages,
        "list_requests_per_s": requests / with_pages["seconds"],
        "statuses": pages.statuses,
        "server_cpu_per_s_churn_only_ms": busy_churn * 1e3,
        "server_cpu_per_s_with_pages_ms": busy_pages * 1e3,
        "pages_cpu_per_s_ms": extra * 1e3,
        "pages_cpu_per_request_us": extra / (requests / with_pages["seconds"]) * 1e6 if requests else None,
        "latency_p50_ms": pct(pages.latencies, 0.50) * 1e3,
        "latency_p99_ms": pct(pages.latencies, 0.99) * 1e3,
        "latency_max_ms": max(pages.latencies) * 1e3 if pages.latencies else None,
        "due_to_answer_p99_ms": pct(pages.waits, 0.99) * 1e3,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--changes-per-s", type=float, default=2.0)
    parser.add_argument("--connections", type=int, default=100)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON only")
    args = parser.parse_args()
    args.load_before = loadavg()
    data_dir = Path(tempfile.mkdtemp(prefix="bench-open-tables-"))
    port = free_port()
    server = ServerProcess([sys.executable, "-m", "app"], server_env(port, data_dir), data_dir / "server.log", port)
    try:
        server.start()
        time.sleep(1.0)
        result = asyncio.run(measure(args, server))
    finally:
        server.stop()
        shutil.rmtree(data_dir, ignore_errors=True)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"commit {result['commit']}, load {result['load_before']} -> {result['load_after']}")
    print(
        f"{result['pages']} pages every {result['refresh_s']:.0f} s: "
        f"{result['list_requests_per_s']:.0f} list requests/s, statuses {result['statuses']}; "
        f"{result['open_tables_listed']} tables listed at the start, {result['changes_per_s']} changes/s"
    )
    print(
        f"server CPU: {result['server_cpu_per_s_churn_only_ms']:.1f} ms/s churn only, "
        f"{result['server_cpu_per_s_with_pages_ms']:.1f} ms/s with the pages: "
        f"the pages {result['pages_cpu_per_s_ms']:.1f} ms/s, {result['pages_cpu_per_request_us']:.0f} µs a request"
    )
    print(
        f"latency: p50 {result['latency_p50_ms']:.1f} ms, p99 {result['latency_p99_ms']:.1f} ms, "
        f"max {result['latency_max_ms']:.1f} ms; from due to answered (a free connection's wait too) "
        f"p99 {result['due_to_answer_p99_ms']:.1f} ms"
    )


if __name__ == "__main__":
    main()
