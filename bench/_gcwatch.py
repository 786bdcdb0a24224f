"""Run a Python program and log every garbage collection it does, of every generation.

    python bench/_gcwatch.py LOG -m app
    python bench/_gcwatch.py LOG bench/bare_server.py --port 8765

Each line of LOG is `<start, time.monotonic()> <duration in seconds> <objects collected>
<generation>`. Every collection stops the event loop (a young one of a large heap of
young objects can take tens of milliseconds: bench/results/2026-12-03-collector-stalls.md), so
bench/server.py (`--gc-log`) sets these pauses against its measurement windows. The program runs exactly as with
`python -m ...` / `python script.py` (same `sys.argv`, `__main__`); the callback costs
nothing between collections.
"""

from __future__ import annotations

import gc
import os
import runpy
import sys
import time


def main() -> None:
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    log = open(sys.argv[1], "a", buffering=1)
    started: list[float] = [0.0]

    def watch(phase: str, info: dict) -> None:
        if phase == "start":
            started[0] = time.monotonic()
        else:
            log.write(
                f"{started[0]:.6f} {time.monotonic() - started[0]:.6f} {info['collected']} {info['generation']}\n"
            )

    gc.callbacks.append(watch)
    if sys.argv[2] == "-m":
        module = sys.argv[3]
        sys.argv = [module] + sys.argv[4:]
        sys.path[0] = os.getcwd()  # as `python -m` does
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    else:
        sys.argv = sys.argv[2:]
        runpy.run_path(sys.argv[0], run_name="__main__")


if __name__ == "__main__":
    main()
