"""The hot path compiled with mypyc, when it can be; plain Python when not.

Demon's rules and the room's move path run on every move of every table, and they are
plain, fully typed Python (`mypy --strict` passes over app/), which is what mypyc needs
to turn them into C extension modules. `python -m app.support.native build` (what
`make compile` runs) compiles the modules listed in `NATIVE_MODULES` in place: each
`x.py` gets an `x.cpython-…so` beside it, and Python's import system prefers the
extension to the source in the same folder, so nothing else changes. `make clean`
deletes them, and the same source runs as pure Python again. Where no C compiler or no
mypyc is present the build says so and stops; the app runs as pure Python, unchanged
(pip install on such a machine needs neither).

The list is what the profile of a move names (bench/results/2026-12-03-mypyc-hot-path.md, "Fewer
microseconds per move"), minus what mypyc cannot take as it is:

* `app/common/events.py` and `app/demon/rules/events.py` stay Python: Devil's Grip's
  events (not compiled) subclass the shared `Event` base, and a Python class cannot
  subclass a compiled one;
* `app/demon/rules/ending.py` stays Python: a `RoundEnd`'s reason is a `Termination`,
  a `str` enum, and callers (tests among them) build one from the reason's text, which
  a compiled class would refuse; it is not on the hot path;
* `app/demon/room/errors.py` stays Python: compiled, an exception subclass loses the
  `code` its class body sets, and the room answers refusals with `err.code`;
* `app/nerts/rules/options.py` stays Python: its checks say which house rule is off
  (`OptionsError`); compiled, a wrong type is a TypeError at the call, before them;
* `app/nerts/rules/bot_view.py` stays Python: its test reads the view type's fields to
  show that no hidden card fits in it, which a compiled dataclass does not describe;
* `app/common/decision.py` stays Python: the bots' `Decision` is generic over the game's
  action type, and mypyc built a class that failed on import;
* `app/common/cards.py` stays Python: Devil's Grip sends its cards to the hint search
  in another process by pickling, which a compiled `Card` breaks (every hint was
  refused as busy);
* the hub's move path is compiled (the socket's `Pipe` and its coroutines in
  `connection.py`, `dispatch.py`, `flush.py`, `handle.py`), and so is the socket's
  short way of reading an `action` message (`app/protocol/fast_action.py`);
  `bench/hub_cpu.py --parts` cannot wrap a compiled method, so it says which parts it
  did not time. tests/rooms/test_hub_flush.py replaces `flush._legal_message` to count
  the flush's questions; that works compiled only because `_send_turn` calls it with
  `*seat`, which mypyc makes a look-up in the module (a plain two-argument call would
  be bound at compile time and the test would see no question);
* the rest of the hub stays Python: `hub.py`, because tests/rooms/test_bot_pacer.py
  counts the bots' plays by replacing `Hub.bot_message` on the instance, which a
  compiled class refuses; the timers, bots, pacer, coach, emotes and open tables,
  because they are not on a move's path (a person's move meets none of them).

Compiled classes refuse new attributes and the replacement of their methods at run
time, and check their arguments' declared types at the call (a bool passes for an
int, a wrong type is a TypeError): functions that are a door for unchecked values take
`object` and check it themselves (`DemonRound._seat_index`, `action_from_json`).

`status()` says which variant runs; the server prints it at start-up and the tests in
their header, so a CI log says which it ran.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.machinery
import os
import shutil
import sys
from pathlib import Path

__all__ = ["NATIVE_MODULES", "build", "compiled_modules", "stale_modules", "status"]

ROOT = Path(__file__).resolve().parents[2]

NATIVE_MODULES: tuple[str, ...] = (
    "app.common.bots",
    "app.common.checks",
    "app.common.rng",
    "app.demon.rules.actions",
    "app.demon.rules.analysis",
    "app.demon.rules.bot",
    "app.demon.rules.describe",
    "app.demon.rules.layout",
    "app.demon.rules.legal",
    "app.demon.rules.play",
    "app.demon.rules.position",
    "app.demon.rules.record",
    "app.demon.rules.round",
    "app.demon.rules.stuck",
    "app.demon.rules.view",
    "app.nerts.rules.actions",
    "app.nerts.rules.bot",
    "app.nerts.rules.layout",
    "app.nerts.rules.legal",
    "app.nerts.rules.play",
    "app.nerts.rules.position",
    "app.nerts.rules.round",
    "app.nerts.rules.stuck",
    "app.nerts.rules.view",
    "app.demon.room.action_ids",
    "app.demon.room.answers",
    "app.demon.room.bot_seat",
    "app.demon.room.event_log",
    "app.demon.room.fixed_layout",
    "app.demon.room.outcome",
    "app.demon.room.persist",
    "app.demon.room.phases",
    "app.demon.room.play",
    "app.demon.room.room",
    "app.demon.room.round_record",
    "app.demon.room.scores",
    "app.demon.room.seating",
    "app.demon.room.views",
    "app.demon.hub.connection",
    "app.demon.hub.dispatch",
    "app.demon.hub.flush",
    "app.demon.hub.handle",
    "app.protocol.fast_action",
)

# The one extension module the compiled modules share (mypyc's runtime and the code of
# all of them); named inside the package so that an install carries it along.
GROUP = "app.native"


def compiled_modules() -> list[str]:
    """The modules of `NATIVE_MODULES` that were loaded from a compiled extension."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    compiled = []
    for name in NATIVE_MODULES:
        module = importlib.import_module(name)
        if str(getattr(module, "__file__", "")).endswith(suffixes):
            compiled.append(name)
    return compiled


def stale_modules() -> list[str]:
    """Compiled modules whose source changed after they were built: Python would still
    load the old compiled code, so the source's edit would not run."""
    stale = []
    for name in compiled_modules():
        compiled = Path(str(importlib.import_module(name).__file__))
        source = compiled.parent / (name.rsplit(".", 1)[1] + ".py")
        if source.exists() and source.stat().st_mtime > compiled.stat().st_mtime:
            stale.append(name)
    return stale


def status() -> str:
    """One line: which variant of the hot path this process runs."""
    stale = stale_modules()
    if stale:
        return (
            f"hot path: compiled with mypyc, but STALE: {', '.join(stale)} changed since `make compile`"
            " (run it again, or `make clean-compiled`)"
        )
    done = len(compiled_modules())
    if done == len(NATIVE_MODULES):
        return f"hot path: compiled with mypyc ({done} modules)"
    if done == 0:
        return "hot path: pure Python (`make compile` builds the compiled modules where a C compiler is present)"
    return f"hot path: partly compiled ({done} of {len(NATIVE_MODULES)} modules; run `make compile` again)"


def _sources() -> list[str]:
    return [str(Path(*name.split(".")).with_suffix(".py")) for name in NATIVE_MODULES]


def build(jobs: int = 2) -> int:
    """Compile `NATIVE_MODULES` in place (run from anywhere; works in the repository
    root). Returns a process exit status: 0 built, 1 it cannot be built here."""
    try:
        from mypyc.build import mypycify
        from setuptools import Distribution  # type: ignore[import-untyped]  # no stubs installed
    except ImportError as err:
        print(f"native build: cannot compile here ({err}); the app runs as pure Python", file=sys.stderr)
        return 1
    compiler = os.environ.get("CC") or "cc"
    if shutil.which(compiler) is None and shutil.which("gcc") is None:
        print("native build: no C compiler found; the app runs as pure Python", file=sys.stderr)
        return 1
    os.chdir(ROOT)
    clean()
    extensions = mypycify(_sources(), opt_level="3", group_name=GROUP)
    dist = Distribution({"name": "demon-native", "ext_modules": extensions})
    command = dist.get_command_obj("build_ext")
    command.inplace = True  # build_ext's options, set before it runs
    command.parallel = jobs
    try:
        dist.run_command("build_ext")
    except BaseException:
        # Half a build is worse than none: the compiled modules need their shared part
        # (`GROUP`), so leave the pure Python source alone rather than a broken mix.
        clean()
        raise
    return 0


def clean() -> int:
    """Delete every compiled module (and mypyc's build folder): pure Python again."""
    removed = 0
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for path in (ROOT / "app").rglob(f"*{suffix}"):
            path.unlink()
            removed += 1
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    return removed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m app.support.native", description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("command", choices=["build", "clean", "status"])
    parser.add_argument("--jobs", type=int, default=2, help="compile this many modules at once")
    args = parser.parse_args(argv)
    if args.command == "build":
        raise SystemExit(build(args.jobs))
    if args.command == "clean":
        print(f"native build: removed {clean()} compiled modules")
        return
    print(status())


if __name__ == "__main__":
    main()
