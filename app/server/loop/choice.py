"""Which event loop the server runs on: uvloop's (libuv) where it is installed, else asyncio's.

uvloop relays the same plays with less CPU per message (docs/decisions/0104-uvloop-by-default.md:
about a fifth more moves per second for the server, half again for a bare relay). It is a
declared dependency wherever a wheel exists (CPython, not Windows: pyproject.toml's marker),
so a platform without it falls back to asyncio's own loop with no setting needed.
`DEMON_LOOP` lets a self-hoster choose: `auto` (the default: uvloop when it imports),
`uvloop` (refuse to start without it) or `asyncio` (never uvloop: to rule it out when
something misbehaves).

`choose` decides before the server starts (uvicorn is handed the name as `loop=`); what
actually runs is read from the running loop (`running`) for the start-up line and
`GET /health`, so neither can claim a loop the setting only asked for.
"""

from __future__ import annotations

import asyncio
import importlib
from dataclasses import dataclass
from typing import Literal

LoopSetting = Literal["auto", "uvloop", "asyncio"]


class LoopUnavailable(Exception):
    """`DEMON_LOOP=uvloop`, and uvloop does not import here."""


@dataclass(frozen=True)
class LoopChoice:
    name: Literal["uvloop", "asyncio"]  # uvicorn's `loop=` value
    why: str  # for the start-up line: why this one (empty when it is the fast one)


def _uvloop_missing() -> str | None:
    """None when uvloop imports; else why not, in a few words."""
    try:
        importlib.import_module("uvloop")  # by name: mypy need not find it where it is not installed
    except ImportError as err:
        return str(err) or type(err).__name__
    return None


def choose(setting: LoopSetting) -> LoopChoice:
    """The loop to start, by `DEMON_LOOP`; raises LoopUnavailable for `uvloop` without it."""
    if setting == "asyncio":
        return LoopChoice("asyncio", "DEMON_LOOP=asyncio")
    missing = _uvloop_missing()
    if missing is None:
        return LoopChoice("uvloop", "")
    if setting == "uvloop":
        raise LoopUnavailable(f"DEMON_LOOP=uvloop, but uvloop does not import: {missing}")
    return LoopChoice("asyncio", f"uvloop is not installed: {missing}")


def name_of(loop: asyncio.AbstractEventLoop) -> str:
    """`uvloop` or `asyncio` (or another loop's module, should someone run one): the running
    loop's own class decides, not the setting."""
    module = type(loop).__module__
    if module.startswith("uvloop"):
        return "uvloop"
    if module.startswith("asyncio"):
        return "asyncio"
    return module.split(".")[0]


def running() -> str:
    """The name of the loop running this coroutine (call it from inside the loop)."""
    return name_of(asyncio.get_running_loop())


def startup_line(name: str, why: str) -> str:
    """The start-up line naming the loop, and how to get the faster one when it is not."""
    if name == "uvloop":
        return "loop: uvloop"
    hint = "; pip install uvloop for the faster loop" if why.startswith("uvloop is not installed") else ""
    return f"loop: {name} ({why}{hint})" if why else f"loop: {name}"
