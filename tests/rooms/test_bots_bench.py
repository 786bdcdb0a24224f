"""bench/bots.py (the bots' strength and cost, docs/bots.md) still runs against the room
as it is. It had stopped: after the one action model it still handed `Room.act` the JSON
of an action, and every round died on its first play. Its figures are not checked here
(a handful of rounds says nothing of a level); only that rounds are played through to
their end and every target line is printed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bots_bench_plays_rounds_against_each_other_and_the_reference_players():
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bots.py"), "--rounds", "2", "--big", "1", "--reference", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    for pair in ("easy v hard", "beginner v easy", "club v medium", "club v hard"):
        row = re.search(rf"^{pair}\s+\d+%\s+\d+%\s+\d+%\s+[\d.]+\s+[\d.]+\s+(\d+)/(\d+)/(\d+)/(\d+)", run.stdout, re.M)
        assert row and sum(map(int, row.groups())) == 2, run.stdout  # both rounds ended
    assert len(re.findall(r"^target: .* (met|MISSED)$", run.stdout, re.M)) == 6, run.stdout
    assert "8-bot rounds" in run.stdout
