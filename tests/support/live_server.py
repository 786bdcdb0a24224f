"""A real server for tests: `python -m app` in a subprocess on a free loopback port.

Tests talk to it over real sockets (httpx, websockets, Chromium), so they exercise the
same uvicorn, WebSocket implementation and settings a self-hoster runs.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# Every test client connects from 127.0.0.1, so a whole test session is one client
# address to the server: the per-address budgets (docs/security.md) are raised out of
# the way here, unless a test sets them itself (tests/server/test_abuse*.py do).
GENEROUS_LIMITS = {
    "room_create_burst": 100_000,
    "join_burst": 100_000,
    "grip_create_burst": 100_000,
    "miss_burst": 100_000,
    "max_connections_per_addr": 5000,
    "max_connections_per_prefix": 5000,
    "bot_create_burst": 100_000,
}


class LiveServer:
    def __init__(self, data_dir: Path, **settings: object) -> None:
        self.data_dir = data_dir
        self.settings = settings
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.log_path = data_dir / f"server-{self.port}.log"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def env(self) -> dict:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DEMON_")}
        env.update(
            {
                "DEMON_PORT": str(self.port),
                "DEMON_HOST": "127.0.0.1",
                "DEMON_DATA_DIR": str(self.data_dir),
                "DEMON_LOG_LEVEL": "info",
            }
        )
        env.update({f"DEMON_{k.upper()}": str(v) for k, v in {**GENEROUS_LIMITS, **self.settings}.items()})
        return env

    def in_child(self) -> None:
        """Runs in the server's process before it starts: a subclass sets limits here."""

    # Start-up is two interpreters' imports since the Devil's Grip worker process: at
    # load averages of 20-40 on the shared test machine, more than the 20 s this was.
    def start(self, timeout: float = 45.0) -> LiveServer:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app"],
            cwd=ROOT,
            env=self.env(),
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=self.in_child,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.log()}")
            try:
                health = httpx.get(self.base + "/health", timeout=0.5)
                # Demon is served at once; Devil's Grip once its worker is up (a test may
                # start with either, so both are waited for).
                if health.status_code == 200 and health.json().get("grip") in ("ready", "in-process", None):
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop(signal.SIGKILL)  # not left running behind the failed test
        raise RuntimeError(f"server did not become healthy:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def wait_for_log(self, done: Callable[[str], bool], since: int = 0, timeout: float = 10.0) -> str:
        """The log from character `since` on, as soon as `done` holds for it: a test waits
        for what a server timer writes (a summary at the end of an interval) instead of
        sleeping for the longest the timer could take."""
        deadline = time.monotonic() + timeout
        while not done(text := self.log()[since:]):
            if time.monotonic() > deadline:
                raise AssertionError(f"not in the server's log within {timeout} s:\n{text[-3000:]}")
            time.sleep(0.05)
        return text

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 10.0) -> int | None:
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        code = self.proc.returncode
        self.proc = None
        return code

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
