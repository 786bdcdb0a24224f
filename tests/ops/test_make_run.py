"""`make run` installs only what the server needs, and says nothing alarming.

A newcomer's first command is `make run`: it must not install the test tools (pytest,
Playwright, mypy: `make test` adds those) nor install the project itself editable, whose
setuptools warning ("Editable installation... be careful") reads like a fault. `make -n`
prints the commands a fresh checkout would run without running them.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def _planned(target: str, tmp_path: Path, *settings: str) -> str:
    """The commands `make <target> [settings]` would run with no virtual environment yet."""
    venv = tmp_path / "fresh-venv"
    done = subprocess.run(
        ["make", "-n", "-B", target, f"VENV={venv}", *settings], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout


def test_make_run_installs_the_server_lock_only(tmp_path: Path) -> None:
    planned = _planned("run", tmp_path)
    assert "requirements.lock" in planned
    assert "requirements-dev.lock" not in planned
    assert "-e ." not in planned, "an editable install prints setuptools' warning"
    assert "-m app" in planned


def test_make_run_takes_the_host_and_the_port_a_newcomer_gives(tmp_path: Path) -> None:
    """`make run PORT=8080` when 8000 is taken: the server is told, not left on 8000."""
    planned = _planned("run", tmp_path, "HOST=0.0.0.0", "PORT=8080")
    assert "DEMON_HOST=0.0.0.0 DEMON_PORT=8080 " in planned
    assert "DEMON_PORT" not in _planned("run", tmp_path)


def test_make_test_adds_the_test_tools(tmp_path: Path) -> None:
    planned = _planned("test", tmp_path)
    assert "requirements-dev.lock" in planned
    assert "pytest" in planned
