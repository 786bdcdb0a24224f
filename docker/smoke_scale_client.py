"""The client side of docker/smoke-scale.sh: tests/server/test_scale.py's scenarios, played
against docker/compose.scale.yml instead of docker/cluster.py's processes: every link many
times (replays and the daily race among them), /metrics spelled every way, SIGKILL,
draining and recent games.

    python docker/smoke_scale_client.py URL PROJECT_ARGS...

URL is the balancer's published address; the rest is the compose command line that
reaches the project (e.g. `docker-compose -p demonscale1 -f docker/compose.scale.yml`).
Process A is SIGKILLed and started again with that command, drained with SIGUSR1 and
undrained with SIGUSR2. HAProxy's state cannot be read from here (its stats socket is in
its container), so waiting for its health checks to see a change is a fixed 3 s: the
checks run every second and one failed or passed check changes a server's state.
Prints one PASS/FAIL line per scenario; exits 1 if one failed.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
import traceback
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.server.test_scale import (  # noqa: E402
    drain_scenario,
    every_link,
    finished_match_on_each,
    kill_scenario,
    raw_get,
)

CHECKS_SETTLE_S = 3.0


class ComposeCluster:
    """What the scenarios ask of a cluster, done with docker compose."""

    letters = ("A", "B")

    def __init__(self, base: str, compose: list[str]) -> None:
        self.base = base.rstrip("/")
        self.ws_base = "ws" + self.base[4:]
        self.compose = compose

    def service(self, letter: str) -> str:
        return f"app-{letter.lower()}"

    def dc(self, *args: str) -> str:
        return subprocess.run([*self.compose, *args], check=True, capture_output=True, text=True).stdout

    def process_base(self, letter: str) -> str:
        """The container's own address on the compose network (reachable from a Linux host)."""
        cid = self.dc("ps", "-q", self.service(letter)).strip()
        ip = subprocess.run(
            ["docker", "inspect", "-f", "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}", cid],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        return f"http://{ip}:8000"

    def kill(self, letter: str) -> None:
        self.dc("kill", self.service(letter))  # SIGKILL

    def start_process(self, letter: str) -> None:
        self.dc("start", self.service(letter))

    def drain(self, letter: str, accepting: bool = False) -> None:
        self.dc("kill", "-s", "SIGUSR2" if accepting else "SIGUSR1", self.service(letter))

    def wait_ready(self, timeout: float = 90.0, letters: list[str] | None = None) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                if httpx.get(self.base + "/health/all", timeout=3).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError("/health/all did not turn ok")
            time.sleep(0.5)
        time.sleep(CHECKS_SETTLE_S)

    def wait_servers(self, backend: str, expected: set[str], timeout: float = 30.0) -> None:
        """Until /health/all shows what the balancer's checks will see in `backend`: the
        processes accepting new rooms (new_rooms), the live ones (any), or whether shard X's
        process is live (shard_X); then the checks are given time to see it too."""
        deadline = time.monotonic() + timeout
        while True:
            answer = httpx.get(self.base + "/health/all", timeout=3).json()
            live = {p["shard"] for p in answer["processes"] if p.get("status") == "ok"}
            if backend == "new_rooms":
                seen = {p["shard"] for p in answer["processes"] if p.get("accepting")}
            elif backend.startswith("shard_"):
                seen = live & {backend[len("shard_") :]}
            else:
                seen = live
            if seen == expected:
                break
            if time.monotonic() > deadline:
                raise TimeoutError(f"{backend}: {sorted(seen)}, expected {sorted(expected)}")
            time.sleep(0.3)
        time.sleep(CHECKS_SETTLE_S)


async def history_scenario(cluster: ComposeCluster) -> None:
    # A listed room's match on each process: in the public list through the balancer; and
    # each seat's own matches, asked with its token, from the room's process (the home page's recent games).
    codes, tokens = await finished_match_on_each(cluster)
    answer = httpx.get(cluster.base + "/api/history", timeout=5).json()
    assert answer["complete"] is True and set(codes.values()) <= {g["code"] for g in answer["games"]}
    for letter, code in codes.items():
        mine = httpx.post(f"{cluster.base}/api/rooms/{code}/history", json={"token": tokens[letter]}, timeout=5).json()
        assert [g["code"] for g in mine["games"]] == [code], mine


async def metrics_scenario(cluster: ComposeCluster) -> None:
    for target in ("/metrics", "/%6Detrics", "/%6D%65trics", "//metrics", "/./metrics", "/METRICS"):
        status, body = raw_get(cluster.base, target)
        assert status == 404 and b"demon_build_info" not in body, target


def main() -> None:
    cluster = ComposeCluster(sys.argv[1], sys.argv[2:])
    cluster.wait_ready()
    failed = 0
    for label, scenario in (
        ("links", every_link),
        ("metrics", metrics_scenario),
        ("kill", kill_scenario),
        ("drain", drain_scenario),
        ("history", history_scenario),
    ):
        what = {
            "links": "every link opened 10 times through the balancer, the same answer each time: rooms, "
            "spectators, own and shared replays, recent games, Devil's Grip games and replays, the daily "
            "race's one table and its replays; a second daily attempt refused on every process",
            "metrics": "the balancer refuses /metrics however the path is spelled (%6Detrics, //metrics, ...)",
            "kill": "SIGKILL of app-a mid-round: app-b's room plays on, app-a's comes back with every "
            "acknowledged move and Devil's Grip game",
            "drain": "SIGUSR1 drains app-a: new rooms and games go to app-b, app-a's room plays on; SIGUSR2 undoes it",
            "history": "a finished match on each process is in /api/history through the balancer",
        }[label]
        try:
            asyncio.run(scenario(cluster))
            print(f"PASS  [scale] {what}", flush=True)
        except Exception:
            failed += 1
            print(f"FAIL  [scale] {what}", flush=True)
            traceback.print_exc()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
