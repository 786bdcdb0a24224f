"""Which event loop the server runs on (app/server/loop/choice.py, DEMON_LOOP).

uvloop where it imports, asyncio's own loop otherwise or when DEMON_LOOP=asyncio asks for
it; /health and the start-up lines name the loop that runs, read from the loop itself.
The live tests start the real server (uvicorn, `python -m app`) in a subprocess.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import sys

import httpx
import pytest

from app.server.loop.choice import LoopUnavailable, choose, name_of, startup_line
from tests.support.live_server import LiveServer

HAVE_UVLOOP = importlib.util.find_spec("uvloop") is not None
needs_uvloop = pytest.mark.skipif(not HAVE_UVLOOP, reason="uvloop is not installed here")


@pytest.fixture
def no_uvloop(monkeypatch):
    """`import uvloop` fails, as on a platform without its wheel (None in sys.modules
    is how Python itself marks a module that must not import)."""
    monkeypatch.setitem(sys.modules, "uvloop", None)


def test_auto_without_uvloop_falls_back_to_asyncio_and_says_how_to_get_it(no_uvloop):
    choice = choose("auto")
    assert choice.name == "asyncio"
    assert choice.why.startswith("uvloop is not installed")
    line = startup_line("asyncio", choice.why)
    assert line.startswith("loop: asyncio (uvloop is not installed") and "pip install uvloop" in line


def test_uvloop_asked_for_without_it_is_a_clear_error(no_uvloop):
    with pytest.raises(LoopUnavailable, match="DEMON_LOOP=uvloop"):
        choose("uvloop")


def test_asyncio_asked_for_is_asyncio_even_with_uvloop_installed():
    choice = choose("asyncio")
    assert choice.name == "asyncio"
    assert startup_line("asyncio", choice.why) == "loop: asyncio (DEMON_LOOP=asyncio)"


@needs_uvloop
@pytest.mark.parametrize("setting", ["auto", "uvloop"])
def test_auto_and_uvloop_pick_uvloop_when_it_imports(setting):
    choice = choose(setting)
    assert choice.name == "uvloop" and choice.why == ""
    assert startup_line("uvloop", "") == "loop: uvloop"


def test_the_running_loop_is_named_by_its_class():
    loop = asyncio.new_event_loop()
    try:
        assert name_of(loop) == "asyncio"
    finally:
        loop.close()


@needs_uvloop
def test_a_uvloop_loop_is_named_uvloop():
    loop = importlib.import_module("uvloop").new_event_loop()
    try:
        assert name_of(loop) == "uvloop"
    finally:
        loop.close()


def _loop_of(srv: LiveServer) -> str:
    return httpx.get(srv.base + "/health", timeout=5).json()["loop"]["impl"]


@needs_uvloop
def test_the_server_runs_on_uvloop_by_default(tmp_path):
    with LiveServer(tmp_path, grip_worker=False) as srv:
        assert _loop_of(srv) == "uvloop"
        srv.wait_for_log(lambda text: "loop: uvloop" in text)


def test_demon_loop_asyncio_runs_asyncio(tmp_path):
    with LiveServer(tmp_path, grip_worker=False, loop="asyncio") as srv:
        assert _loop_of(srv) == "asyncio"
        srv.wait_for_log(lambda text: "loop: asyncio (DEMON_LOOP=asyncio)" in text)


def test_a_bad_demon_loop_names_the_variable(tmp_path):
    srv = LiveServer(tmp_path, loop="libuv")
    with pytest.raises(RuntimeError, match="DEMON_LOOP"):
        srv.start(timeout=30)
