"""Several server processes and HAProxy on one host, without Docker.

    python docker/cluster.py [--processes 2] [--port 8000] [--host 127.0.0.1] [--data-dir data]
    make run-scaled N=2

Starts N `python -m app` processes on the loopback (ports 8101, 8102, ... unless
--first-port says otherwise), process i with shard letter A, B, C... (`DEMON_SHARD`), its
own SQLite file (DATA_DIR/shard-A/), and every process as a peer of the others
(`DEMON_PEERS`); then HAProxy on HOST:PORT with the configuration of
docker/haproxy-cfg.sh (written to DATA_DIR/haproxy.cfg). Every process's log lines go to
standard output prefixed with its letter ("A | ..."; HAProxy's with "lb | "). A process
that exits is started again after a second, like a container with `restart:
unless-stopped`; Ctrl-C (or SIGTERM) stops them all. The process ids are printed at start;
`kill -USR1 PID` drains a process, `kill -USR2 PID` makes it accept new rooms again
(docs/self-hosting.md, "Draining a process").

`Cluster` is what tests/server/test_scale.py and bench/scale.py drive: they start,
SIGKILL, restart and drain the processes themselves. Standard library only.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parent.parent
HAPROXY_CFG = ROOT / "docker" / "haproxy-cfg.sh"
LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # the room-code alphabet (app/support/secrets_util.py)


def haproxy_path() -> str | None:
    return shutil.which("haproxy") or next(
        (p for p in ("/usr/sbin/haproxy", "/usr/local/sbin/haproxy") if os.path.exists(p)), None
    )


def haproxy_config(bind: str, backends: dict[str, str], stats_socket: Path | None = None) -> str:
    """docker/haproxy-cfg.sh's output for these {letters: "host:port"}."""
    args = [f"{letters}={address}" for letters, address in backends.items()]
    env = {**os.environ, "HAPROXY_STATS": str(stats_socket) if stats_socket else ""}
    return subprocess.run(
        ["sh", str(HAPROXY_CFG), bind, *args], check=True, capture_output=True, text=True, env=env
    ).stdout


class LinePrefixer:
    """Copies a child's output, line by line, to `sink` with a prefix (one thread)."""

    def __init__(self, stream, prefix: str, sink: Callable[[str], None]) -> None:
        self.thread = threading.Thread(target=self._copy, args=(stream, prefix, sink), daemon=True)
        self.thread.start()

    @staticmethod
    def _copy(stream, prefix: str, sink: Callable[[str], None]) -> None:
        for line in iter(stream.readline, ""):
            sink(f"{prefix} | {line.rstrip()}")
        stream.close()


class Cluster:
    def __init__(
        self,
        processes: int = 2,
        *,
        port: int = 8000,
        host: str = "127.0.0.1",
        first_port: int = 8101,
        ports: list[int] | None = None,
        data_dir: Path = Path("data"),
        env: dict[str, str] | None = None,
        log: TextIO | None = None,
        python: str = sys.executable,
    ) -> None:
        if not 1 <= processes <= len(LETTERS):
            raise ValueError(f"1 to {len(LETTERS)} processes")
        self.port, self.host, self.data_dir = port, host, Path(data_dir)
        ports = ports or [first_port + i for i in range(processes)]
        self.ports = {LETTERS[i]: ports[i] for i in range(processes)}
        self.extra_env = env or {}
        # The daily race's key: one for every process, or each would deal its own race
        # (app/daily/secret.py); `env` may name one.
        self.daily_secret = secrets.token_hex(32)
        self.python = python
        self.procs: dict[str, subprocess.Popen] = {}
        self.balancer: subprocess.Popen | None = None
        self._log = log or sys.stdout
        self._log_lock = threading.Lock()

    # ------------------------------------------------------------ addresses

    @property
    def base(self) -> str:
        """The balancer's address: the one players use."""
        return f"http://{'127.0.0.1' if self.host in ('0.0.0.0', '') else self.host}:{self.port}"

    @property
    def ws_base(self) -> str:
        return "ws" + self.base[4:]

    def process_base(self, letter: str) -> str:
        return f"http://127.0.0.1:{self.ports[letter]}"

    @property
    def stats_socket(self) -> Path:
        return self.data_dir / "haproxy.sock"

    def servers_up(self, backend: str = "new_rooms") -> set[str]:
        """The servers HAProxy now counts as up in a backend (from its stats socket)."""
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(2)
            s.connect(str(self.stats_socket))
            s.sendall(b"show stat\n")
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        lines = data.decode().splitlines()
        if not lines:
            return set()
        head = lines[0].lstrip("# ").split(",")
        name, server, status = head.index("pxname"), head.index("svname"), head.index("status")
        return {
            row[server]
            for row in (line.split(",") for line in lines[1:] if line)
            if len(row) > status
            and row[name] == backend
            and row[server] not in ("FRONTEND", "BACKEND")
            and row[status].startswith("UP")
        }

    def wait_servers(self, backend: str, expected: set[str], timeout: float = 30.0) -> None:
        """Until HAProxy's health checks count exactly `expected` as up in `backend`."""
        deadline = time.monotonic() + timeout
        while (up := self.servers_up(backend)) != expected:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{backend}: up {sorted(up)}, expected {sorted(expected)}")
            time.sleep(0.1)

    @property
    def letters(self) -> list[str]:
        return list(self.ports)

    # ------------------------------------------------------------ processes

    def write(self, line: str) -> None:
        with self._log_lock:
            self._log.write(line + "\n")
            self._log.flush()

    def process_env(self, letter: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DEMON_")}
        env.update(
            {
                "DEMON_HOST": "127.0.0.1",
                "DEMON_PORT": str(self.ports[letter]),
                "DEMON_DATA_DIR": str(self.data_dir / f"shard-{letter}"),
                "DEMON_SHARD": letter,
                "DEMON_PEERS": ",".join(self.process_base(x) for x in self.ports),
                "DEMON_DAILY_SECRET": self.daily_secret,
                "DEMON_SHARE_LAN_ADDRESS": "false",
                "PYTHONUNBUFFERED": "1",
                # HAProxy reaches the processes over the loopback and sets X-Forwarded-For
                # itself (it drops the client's): believe it, and only it, about players'
                # addresses. The server trusts no proxy unless told (docs/security.md).
                "DEMON_TRUSTED_PROXIES": "127.0.0.1,::1",
            }
        )
        env.update(self.extra_env)
        return env

    def start_process(self, letter: str) -> subprocess.Popen:
        (self.data_dir / f"shard-{letter}").mkdir(parents=True, exist_ok=True)
        proc = subprocess.Popen(
            [self.python, "-m", "app"],
            cwd=ROOT,
            env=self.process_env(letter),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        LinePrefixer(proc.stdout, letter, self.write)
        self.procs[letter] = proc
        return proc

    def start_balancer(self) -> subprocess.Popen:
        binary = haproxy_path()
        if binary is None:
            raise FileNotFoundError("haproxy is not installed (Debian: apt-get install haproxy)")
        self.data_dir.mkdir(parents=True, exist_ok=True)
        cfg = self.data_dir / "haproxy.cfg"
        cfg.write_text(
            haproxy_config(
                f"{self.host}:{self.port}", {x: f"127.0.0.1:{p}" for x, p in self.ports.items()}, self.stats_socket
            )
        )
        self.balancer = subprocess.Popen(
            [binary, "-db", "-f", str(cfg)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        LinePrefixer(self.balancer.stdout, "lb", self.write)
        return self.balancer

    def start(self, timeout: float = 60.0) -> None:
        """The processes, then (once they answer) the balancer, so that its first health
        checks find them up."""
        for letter in self.ports:
            self.start_process(letter)
        self.wait_processes(timeout)
        self.start_balancer()
        self.wait_ready(timeout)

    def wait_processes(self, timeout: float = 60.0, letters: list[str] | None = None) -> None:
        deadline = time.monotonic() + timeout
        for letter in letters or self.letters:
            while not self._answers(self.process_base(letter) + "/health"):
                self._check_alive(letter)
                if time.monotonic() > deadline:
                    raise TimeoutError(f"process {letter} did not answer /health")
                time.sleep(0.1)

    def wait_ready(self, timeout: float = 60.0, letters: list[str] | None = None) -> None:
        """Until each process answers /health directly and through the balancer (for a
        process: its shard's backend, /health/accepting's new-room check included)."""
        deadline = time.monotonic() + timeout
        self.wait_processes(timeout, letters)
        while not self._answers(self.base + "/health"):
            if self.balancer is not None and self.balancer.poll() is not None:
                raise RuntimeError(f"haproxy exited with {self.balancer.returncode}")
            if time.monotonic() > deadline:
                raise TimeoutError("the balancer did not answer /health")
            time.sleep(0.1)
        for backend in ("new_rooms", "play_now", "any"):
            up = self.servers_up(backend)
            self.wait_servers(backend, up | set(letters or self.letters), max(1.0, deadline - time.monotonic()))
        for letter in letters or self.letters:
            self.wait_servers(f"shard_{letter}", {letter}, max(1.0, deadline - time.monotonic()))

    def _check_alive(self, letter: str) -> None:
        proc = self.procs.get(letter)
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process {letter} exited with {proc.returncode}")

    @staticmethod
    def _answers(url: str) -> bool:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                return answer.status == 200
        except (urllib.error.URLError, OSError):
            return False

    def kill(self, letter: str, sig: int = signal.SIGKILL) -> None:
        proc = self.procs[letter]
        proc.send_signal(sig)
        if sig in (signal.SIGKILL, signal.SIGTERM, signal.SIGINT):
            proc.wait(timeout=15)

    def drain(self, letter: str, accepting: bool = False) -> None:
        """SIGUSR1 (drain) or SIGUSR2 (accept again) to one process."""
        self.procs[letter].send_signal(signal.SIGUSR2 if accepting else signal.SIGUSR1)

    def stop(self) -> None:
        for proc in [*self.procs.values(), self.balancer]:
            if proc is not None and proc.poll() is None:
                proc.terminate()
        for proc in [*self.procs.values(), self.balancer]:
            if proc is None:
                continue
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--processes", "-n", type=int, default=2, help="server processes (default 2)")
    ap.add_argument("--host", default="127.0.0.1", help="address the balancer listens on (0.0.0.0: the network)")
    ap.add_argument("--port", type=int, default=8000, help="the balancer's port (default 8000)")
    ap.add_argument("--first-port", type=int, default=8101, help="the first process's port on the loopback")
    ap.add_argument(
        "--data-dir",
        type=Path,
        default=Path(os.environ.get("DEMON_DATA_DIR", "data")),
        help="one SQLite directory per process under it (default data/)",
    )
    args = ap.parse_args(argv)
    cluster = Cluster(
        args.processes, port=args.port, host=args.host, first_port=args.first_port, data_dir=args.data_dir
    )
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    signal.signal(signal.SIGINT, lambda *_: stopping.set())
    try:
        cluster.start()
        assert cluster.balancer is not None  # start() started it
        for letter, proc in cluster.procs.items():
            cluster.write(
                f"cluster | process {letter}: pid {proc.pid}, {cluster.process_base(letter)}, "
                f"data {cluster.data_dir / ('shard-' + letter)}"
            )
        cluster.write(f"cluster | balancer: {cluster.base} (haproxy pid {cluster.balancer.pid})")
        while not stopping.wait(1.0):
            for letter, proc in list(cluster.procs.items()):
                if proc.poll() is not None:
                    cluster.write(f"cluster | process {letter} exited ({proc.returncode}); starting it again")
                    cluster.start_process(letter)
                    cluster.write(f"cluster | process {letter}: pid {cluster.procs[letter].pid}")
            if cluster.balancer.poll() is not None:
                cluster.write(f"cluster | haproxy exited ({cluster.balancer.returncode}); starting it again")
                cluster.start_balancer()
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
