"""bench/hub_cpu.py (our code's CPU per move without the network, docs/performance.md)
still runs against the hub as it is: a few plays in two rooms are applied, and its
parts and its reading of a message are timed. Its figures are not checked here (they
are the machine's)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_hub_cpu_applies_moves_and_times_its_parts():
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "hub_cpu.py"),
            "--rooms",
            "2",
            "--moves",
            "60",
            "--warm",
            "10",
            "--parts",
            "--messages",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    applied = re.search(r"(\d+) moves applied of 60 plays; (\d+) us of CPU per applied move", run.stdout)
    assert applied and int(applied.group(1)) > 0, run.stdout
    for part in ("dispatch", "frames", "commit"):
        timed = re.search(rf"{part}.* \d+ us/move", run.stdout)
        # A compiled hub (app/support/native.py) refuses the timing wrapper; the store never is.
        untimed = part != "commit" and re.search(rf"{part}.* not timed: compiled", run.stdout)
        assert timed or untimed, run.stdout
    for way in ("pydantic validate_json", "read_client_message"):
        assert re.search(rf"reading an action message: {way} +\d+\.\d+ us", run.stdout), run.stdout
