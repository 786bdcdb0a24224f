"""The list of compiled modules (app/support/native.py) and the line that says which
variant runs: the list names real sources, the line agrees with what was loaded."""

from __future__ import annotations

import importlib
import importlib.machinery
import subprocess
import sys
from pathlib import Path

from app.support import native

ROOT = Path(__file__).resolve().parents[1]


def test_every_listed_module_has_its_source():
    missing = [m for m in native.NATIVE_MODULES if not (ROOT / Path(*m.split("."))).with_suffix(".py").exists()]
    assert missing == []


def test_the_status_line_agrees_with_what_was_loaded():
    compiled = native.compiled_modules()
    line = native.status()
    if not compiled:
        assert line.startswith("hot path: pure Python")
    elif len(compiled) == len(native.NATIVE_MODULES) and not native.stale_modules():
        assert line == f"hot path: compiled with mypyc ({len(compiled)} modules)"
    for name in compiled:
        assert str(importlib.import_module(name).__file__).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def test_the_command_prints_the_same_line():
    out = subprocess.run(
        [sys.executable, "-m", "app.support.native", "status"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout.strip()
    assert out == native.status()
