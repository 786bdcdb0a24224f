"""A stop asked for at any moment of the start-up (the imports, the lifespan, the Devil's
Grip worker still starting) ends the server with status 0 well inside Docker's 10 s
grace period, and leaves no worker process behind. (It used to hang at "Waiting for
application shutdown" while the worker started, until Docker killed it: exit 137.)"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.live_server import ROOT, LiveServer

GRACE_S = 10.0


def processes_of(data_dir: Path) -> list[int]:
    """Live processes started with this data directory in their environment (the server
    and its Devil's Grip worker)."""
    marker = f"DEMON_DATA_DIR={data_dir}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            environ = Path(f"/proc/{entry}/environ").read_bytes()
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if marker in environ.split(b"\0") and stat.split(") ", 1)[1][0] != "Z":
            found.append(int(entry))
    return found


def start(data_dir: Path) -> tuple[subprocess.Popen, Path]:
    srv = LiveServer(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    log_path = data_dir / "server.log"
    proc = subprocess.Popen(
        [sys.executable, "-m", "app"], cwd=ROOT, env=srv.env(), stdout=open(log_path, "wb"), stderr=subprocess.STDOUT
    )
    return proc, log_path


def wait_for_line(proc: subprocess.Popen, log_path: Path, text: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while text not in log_path.read_text(errors="replace"):
        assert proc.poll() is None, log_path.read_text()
        assert time.monotonic() < deadline, f"no {text!r} in the log"
        time.sleep(0.02)


@pytest.mark.parametrize("moment", ["importing", "lifespan", "worker_starting"])
def test_a_stop_during_start_up_exits_0_within_the_grace_period(tmp_path, moment):
    data_dir = tmp_path / moment
    proc, log_path = start(data_dir)
    if moment == "importing":
        time.sleep(0.3)
    elif moment == "lifespan":
        wait_for_line(proc, log_path, "Waiting for application startup")
    else:  # served, while the Devil's Grip worker is still importing
        wait_for_line(proc, log_path, "Application startup complete")
        assert "grip_worker_ready" not in log_path.read_text()
    t0 = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        code = proc.wait(GRACE_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError(f"still running {GRACE_S} s after SIGTERM:\n{log_path.read_text()}") from None
    elapsed = time.monotonic() - t0
    assert code == 0, log_path.read_text()
    assert elapsed < GRACE_S / 2, elapsed
    time.sleep(0.2)
    assert processes_of(data_dir) == [], "a worker was left behind"
