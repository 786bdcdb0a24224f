"""Runs the browser's pure modules' unit tests (tests/js/*.test.mjs) with `node --test`.

Node is not a dependency of the app: without it on the machine these are skipped (the
browser tests still cover the same code through the page), and so they are with a Node
older than 20.19. That bound dates from before package.json (the tests' axe-core) said
`"type": "module"`, when Node had to recognise static/*.js as ES modules by their syntax."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.mark.parametrize("path", sorted(HERE.glob("*.test.mjs")), ids=lambda p: p.name)
def test_node_unit_tests(path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    major, minor = (int(x) for x in version.lstrip("v").split(".")[:2])
    if (major, minor) < (20, 19):
        pytest.skip(f"node {version} does not detect ES module syntax")
    done = subprocess.run([node, "--test", str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
