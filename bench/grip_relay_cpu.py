"""CPU each kind of Devil's Grip request costs the rooms' process, and the Devil's Grip
worker process: `.venv/bin/python bench/grip_relay_cpu.py [--root DIR] [--n 300]`.

Starts the server (`python -m app` from `--root`: another checkout for a before/after,
e.g. `git worktree add /tmp/before 5fd353e`) with a temporary data directory, then sends
N requests of each kind one after another from one keep-alive client and reads, from
/proc, the CPU time the server's own process used meanwhile and that of its Devil's Grip
worker (a child running `python -m app.server.gripproc`, when there is one) and of the
search pools (the other descendants). CPU time, not wall time: what a request takes from
the loop that relays Demon's plays, robust to a shared machine's load (which is printed
all the same). `/health` is the baseline: what any request costs there (uvicorn, the
guard, the middleware).
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

CLK_TCK = os.sysconf("SC_CLK_TCK")
ROOT = Path(__file__).resolve().parents[1]


def cpu_of(pid: int) -> tuple[float, int]:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK, int(fields[1])


def tree_cpu(server: int) -> tuple[float, float, float]:
    """(the server's process, its Devil's Grip worker, the other descendants) in CPU seconds."""
    times, parents, worker = {}, {}, set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                times[int(entry)], parents[int(entry)] = cpu_of(int(entry))
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    if b"-m\x00app.server.gripproc\x00" in f.read():
                        worker.add(int(entry))
            except OSError:
                pass
    own = times.get(server, 0.0)
    grip = rest = 0.0
    for pid, t in times.items():
        up = parents.get(pid)
        while up not in (None, 0, 1, server):
            up = parents.get(up)
        if up == server:
            if pid in worker:
                grip += t
            else:
                rest += t
    return own, grip, rest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout whose server runs (default: this one)")
    ap.add_argument("--n", type=int, default=300, help="requests of each kind (hints: a tenth)")
    args = ap.parse_args()
    port, data = free_port(), Path(tempfile.mkdtemp(prefix="grip-relay-cpu-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEMON_")}
    env.update(
        DEMON_PORT=str(port),
        DEMON_DATA_DIR=str(data),
        DEMON_LOG_LEVEL="warning",
        DEMON_WINNABLE_READY="0",
        DEMON_GRIP_CREATE_BURST="100000",
        DEMON_GRIP_SEARCH_RATE_PER_S="1000",
        DEMON_GRIP_SEARCH_BURST="1000",
        DEMON_GRIP_ADDR_RATE_PER_S="10000",
        DEMON_GRIP_ADDR_BURST="10000",
        DEMON_HINT_DEADLINE_S="30",
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "app"], cwd=args.root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
    )
    base = f"http://127.0.0.1:{port}"
    print(f"bench/grip_relay_cpu.py --root {args.root} --n {args.n}; load {open('/proc/loadavg').read().split()[:3]}")
    try:
        with httpx.Client(base_url=base, timeout=60) as http:
            for _ in range(300):
                try:
                    if http.get("/health").status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            game = http.post("/api/grip", json={"number": 7}).json()
            auth = {"Authorization": f"Bearer {game['token']}"}
            http.post(f"/api/grip/{game['id']}", headers=auth, json={"op": "hint"})  # the pool is warm
            state = {"game": game}

            def act() -> None:
                current = state["game"]
                if not current["legal"]:
                    current = state["game"] = http.post("/api/grip", json={"number": 8}).json()
                    auth["Authorization"] = f"Bearer {current['token']}"
                answer = http.post(
                    f"/api/grip/{current['id']}", headers=auth, json={"op": "action", "action": current["legal"][0]}
                )
                assert answer.status_code == 200, answer.text
                state["game"] = {**answer.json(), "token": current.get("token")}

            def hint() -> None:
                current = state["game"]
                answer = http.post(f"/api/grip/{current['id']}", headers=auth, json={"op": "hint"})
                assert answer.status_code in (200, 409), answer.text

            kinds = [
                ("GET /health", args.n, lambda: http.get("/health")),
                ("POST /api/grip (new game)", args.n, lambda: http.post("/api/grip", json={})),
                (
                    "GET /api/grip/{id} (look)",
                    args.n,
                    lambda: http.get(f"/api/grip/{state['game']['id']}", headers=auth),
                ),
                ("POST /api/grip/{id} (action)", args.n, act),
                ("POST /api/grip/{id} (hint)", max(1, args.n // 10), hint),
            ]
            print(
                f"{'request':34}{'n':>6}{'rooms process':>16}{'grip worker':>14}{'search pools':>14}   (us of CPU per request)"
            )
            for title, n, call in kinds:
                before = tree_cpu(proc.pid)
                for _ in range(n):
                    call()
                after = tree_cpu(proc.pid)
                per = [(b - a) / n * 1e6 for a, b in zip(before, after)]
                print(f"{title:34}{n:>6}{per[0]:>16.0f}{per[1]:>14.0f}{per[2]:>14.0f}", flush=True)
    finally:
        proc.terminate()
        proc.wait(20)
    print(f"load {open('/proc/loadavg').read().split()[:3]}")


if __name__ == "__main__":
    main()
