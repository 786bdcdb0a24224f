"""A real Prometheus (Debian's `prometheus`) scrapes a real server while a round is played,
and answers the dashboard's queries: moves per second among them.

.ci/run installs the package; where the binary is absent the test is skipped and says so.
"""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import RACE_SEED
from tests.server.test_ws_play import bot, seat_players, start_round
from tests.support.live_server import ROOT, LiveServer, free_port

PROMETHEUS = shutil.which("prometheus")
DASHBOARD = ROOT / "docker" / "grafana" / "dashboards" / "demon.json"

pytestmark = pytest.mark.skipif(PROMETHEUS is None, reason="no prometheus binary here (apt-get install prometheus)")


class Prometheus:
    """`prometheus` scraping `targets` every second, its data in `work`."""

    def __init__(self, work: Path, targets: list[str], job: str = "demon") -> None:
        self.port = free_port()
        config = work / "prometheus.yml"
        config.write_text(
            f"global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: {job}\n"
            "    static_configs:\n      - targets: [" + ", ".join(f'"{t}"' for t in targets) + "]\n"
        )
        self.log = open(work / "prometheus.log", "wb")
        self.proc = subprocess.Popen(
            [
                str(PROMETHEUS),
                f"--config.file={config}",
                f"--storage.tsdb.path={work / 'tsdb'}",
                f"--web.listen-address=127.0.0.1:{self.port}",
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def query(self, expr: str) -> list[dict]:
        answer = httpx.get(f"http://127.0.0.1:{self.port}/api/v1/query", params={"query": expr}, timeout=5)
        body = answer.json()
        assert body["status"] == "success", (expr, body)
        return body["data"]["result"]

    def wait_until(self, expr: str, holds, timeout: float = 30.0) -> list[dict]:
        deadline = time.monotonic() + timeout
        while True:
            try:
                result = self.query(expr)
                if holds(result):
                    return result
            except httpx.HTTPError:
                result = None
            if time.monotonic() > deadline:
                raise AssertionError(f"{expr} answered {result} after {timeout} s")
            time.sleep(0.5)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


@pytest.mark.slow
def test_prometheus_scrapes_two_shards_and_answers_moves_per_second(tmp_path):
    servers = [
        LiveServer(
            tmp_path / letter, test_seed=RACE_SEED, countdown_s=0.2, shard=letter, rate_per_s=400, rate_burst=400
        )
        for letter in "AB"
    ]
    for srv in servers:
        srv.start()
    # a job name of the self-hoster's own: the dashboard must not depend on it
    prom = Prometheus(tmp_path, [f"127.0.0.1:{srv.port}" for srv in servers], job="cards")
    try:
        # both processes are up as targets, each with its shard label
        up = prom.wait_until('up{job="cards"}', lambda r: len(r) == 2 and all(s["value"][1] == "1" for s in r))
        assert len(up) == 2
        shards = prom.wait_until("demon_open_sockets", lambda r: len(r) == 2)
        assert sorted(s["metric"]["shard"] for s in shards) == ["A", "B"]

        async def play_on(srv: LiveServer) -> int:
            players = await seat_players(srv, 2)
            await start_round(players)
            rng = random.Random(7)
            await asyncio.gather(*(bot(p, rng) for p in players))
            for p in players:
                await p.close()
            return sum(1 for p in players for r in p.replies.values() if r["type"] == "ack")

        async def play_for(seconds: float) -> int:
            """Rounds on shard A, one after another, for a few scrapes' time."""
            acks, end = 0, time.monotonic() + seconds
            while time.monotonic() < end:
                acks += await play_on(servers[0])
            return acks

        acks = asyncio.run(play_for(4.0))
        assert acks > 0
        rate = prom.wait_until(
            'sum by (shard) (rate(demon_moves_total{result="applied"}[30s]))',
            lambda r: any(float(s["value"][1]) > 0 for s in r),
        )
        by_shard = {s["metric"].get("shard"): float(s["value"][1]) for s in rate}
        assert by_shard["A"] > 0 and by_shard.get("B", 0.0) == 0.0
        total = prom.wait_until(
            'sum(demon_moves_total{result="applied"})', lambda r: r and float(r[0]["value"][1]) == acks
        )
        assert float(total[0]["value"][1]) == acks

        # every query of the Grafana dashboard is valid PromQL that this Prometheus answers
        dashboard = json.loads(DASHBOARD.read_text())
        exprs = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
        assert len(exprs) >= 12
        for expr in exprs:
            prom.query(expr.replace("$__rate_interval", "30s"))
        # the processes' CPU and memory, by shard, whatever the job is called
        process_panels = [
            p
            for p in dashboard["panels"]
            if any(name in p["targets"][0]["expr"] for name in ("process_cpu_seconds", "process_resident_memory"))
        ]
        assert len(process_panels) == 2
        for panel in process_panels:
            expr = panel["targets"][0]["expr"].replace("$__rate_interval", "30s")
            shards = prom.wait_until(expr, lambda r: len(r) == 2)
            assert sorted(s["metric"]["shard"] for s in shards) == ["A", "B"], panel["title"]
        moves_panel = next(p for p in dashboard["panels"] if p["title"].startswith("Moves per second"))
        answer = prom.query(moves_panel["targets"][0]["expr"].replace("$__rate_interval", "30s"))
        assert any(float(s["value"][1]) > 0 for s in answer)
    finally:
        prom.stop()
        for srv in servers:
            srv.stop()
