"""Devil's Grip's rules exist twice: the Python engine (the authority, `app.grip.rules`)
and the browser's `static/grip/grip-rules.js`. This test holds the second to the first.

Both engines play the same 10,002 seeded games (3,334 per pass limit: 1, 3, unlimited)
and at every step compare:

* the state (canonical JSON: keys sorted, no spaces);
* the legal set (every action's canonical JSON, sorted);
* whether the deal is over, and the score (and at the end the rating);
* a *probe*: one action drawn from every well-formed action (most of them illegal),
  applied or rejected by each engine, so `apply`'s own checks are compared, not just the
  legal list.

The games (`game_plan` in grip_py_differential.py says which is which): 23 in 30 start
from a made-up position near the end of a deal (`end_game_layout`: complete piles with a
few cards taken off into the stock and talon, in a random pass of the limit) and are
played mostly by dealing, so that they reach the end of a pass, the last pass and rule
10's end within a few plays, with few cards left outside, where rule 10's exact reasoning
(which cards the talon can still show) decides; 6 in 30 are real deals (even games deal
small numbers like the ones players see, odd games 64-bit ones) played 12 plays, half of
them talon plays and moves; 1 in 30 real deals mostly dealt, up to 120 plays. Moves are
chosen the same way on both sides (`choose` in both halves): a SplitMix64 seeded from the
game index picks from the legal list sorted by canonical JSON; a game ends by rule 10, by
the chooser's rare "end", or at its step cap.

To stay fast each side writes one digest per game (SHA-256 over all its steps), in
worker processes: two Python ones and one `node`. Only a game whose digests differ is
replayed step by step on both sides, and the failure names it: deal number, pass limit,
the moves up to the first differing step and what each engine said there.

``GRIP_DIFF_GAMES=300`` runs fewer games for a quick local check.

What it catches (docs/architecture.md has the table): each of nine one-line changes
planted in rule 10 of the JS module (`stuck`, `talonShowable`, `everyThird`) made from 6
to 436 of the first 1,000 games differ; before the end-game layouts, four of them went
through 1,000 games unseen. With ``if (seq.length % DRAW) into.push(...)`` deleted from
`everyThird` (a pass no longer shows its last card when the stock does not divide by
three), 139 of the first 1,000 games differed and the report began::

    game 23: an end-game layout, passes unlimited
      GripState.from_layout([['3H', '6H', '9H', 'QH'], ...], ['KH', 'JC', 'KS'], [], None, 4), then these 9 actions:
        [{"count":1,"dst":13,"src":20,"type":"move"}, {"type":"deal"}, {"type":"redeal"}, ...]
      differ at step 9:
        state (Python): {"ended":false,"grid":[...],"passes_allowed":null,"passes_used":7,"stock":["JC","KS"],"talon":[]}
        chosen: Python '{"type":"deal"}'
                    JS None
        ...
        over: Python False
                  JS True
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from grip_py_differential import game_plan, trace

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
JS_HALF = HERE / "grip_js_differential.mjs"
PY_HALF = HERE / "grip_py_differential.py"
GAMES = int(os.environ.get("GRIP_DIFF_GAMES", 3 * 3334))
PY_WORKERS = 2
SHOWN = 3  # differing games replayed and reported in full


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    return node


def _start(cmd: list[str]) -> subprocess.Popen:
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _digests(proc: subprocess.Popen) -> dict[int, str]:
    out, err = proc.communicate(timeout=900)
    assert proc.returncode == 0, err
    lines = (line.split(" ", 1) for line in out.splitlines() if line)
    return {int(g): rest for g, rest in lines}


def _shares(total: int, parts: int) -> list[tuple[int, int]]:
    """(first, count) for each worker: the games split into contiguous blocks."""
    size = -(-total // parts)
    return [(first, min(size, total - first)) for first in range(0, total, size)]


def js_trace(g: int) -> list[dict]:
    done = subprocess.run(
        [_node(), str(JS_HALF), "trace", str(g)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line]


# --------------------------------------------------------------------------- the report


def first_difference(g: int, py: list[dict], js: list[dict]) -> str:
    """Game `g`'s first disagreement as a reproduction: deal number, pass limit, the
    moves that lead there, and what each engine said at that step."""
    moves: list[str] = []
    for i in range(max(len(py), len(js))):
        p = py[i] if i < len(py) else {"missing": "no such step"}
        j = js[i] if i < len(js) else {"missing": "no such step"}
        if p != j:
            return _report(g, moves, i, p, j)
        moves.append(p.get("chosen", "(over)"))
    return f"game {g}: the digests differ but the step traces agree: is the digest written alike on both sides?"


def _report(g: int, moves: list[str], i: int, p: dict, j: dict) -> str:
    plan = game_plan(g)
    passes = plan["passes"]
    if "layout" in plan:
        lay = plan["layout"]
        start = f"GripState.from_layout({lay['grid']}, {lay['stock']}, {lay['talon']}, {passes}, {lay['passes_used']})"
        what = f"an end-game layout, passes {passes if passes is not None else 'unlimited'}"
    else:
        start = f"GripState.deal({plan['number']}, {passes})"
        what = f"deal number {plan['number']}, passes {passes if passes is not None else 'unlimited'}"
    lines = [
        f"game {g}: {what}",
        f"  {start}, then these {len(moves)} actions:",
        "    [" + ", ".join(moves) + "]",
        f"  differ at step {i}:",
    ]
    if "state" in p:
        lines.append(f"    state (Python): {p['state']}")
    for key in sorted((set(p) | set(j)) - {"step"}):
        pv, jv = p.get(key), j.get(key)
        if pv == jv:
            continue
        if key == "legal" and isinstance(pv, list) and isinstance(jv, list):
            lines.append(f"    legal only in Python: {sorted(set(pv) - set(jv))}")
            lines.append(f"    legal only in JS:     {sorted(set(jv) - set(pv))}")
        else:
            lines.append(f"    {key}: Python {pv!r}")
            lines.append(f"    {' ' * len(key)}      JS {jv!r}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- the test


@pytest.mark.slow
@pytest.mark.timeout(600)  # 119 s at load 14 on 2 cores: room to spare on a worse day
def test_python_and_js_rules_agree_on_every_step():
    node = _node()
    started = time.monotonic()
    js_proc = _start([node, str(JS_HALF), "digest", "0", str(GAMES)])
    py_procs = [
        _start([sys.executable, str(PY_HALF), "digest", str(first), str(count)])
        for first, count in _shares(GAMES, PY_WORKERS)
    ]
    py: dict[int, str] = {}
    for proc in py_procs:
        py |= _digests(proc)
    js = _digests(js_proc)
    elapsed = time.monotonic() - started
    assert sorted(py) == list(range(GAMES)) and sorted(js) == list(range(GAMES)), "a half skipped games"

    differing = [g for g in range(GAMES) if py[g] != js[g]]
    reports = [first_difference(g, trace(g), js_trace(g)) for g in differing[:SHOWN]]
    steps = sum(int(v.split()[1]) for v in py.values())
    print(f"\n{GAMES} games, {steps} steps compared in {elapsed:.0f} s")
    assert not differing, (
        f"Devil's Grip: Python and static/grip/grip-rules.js disagree in {len(differing)} of {GAMES} games "
        f"(first: {differing[:10]}).\n\n" + "\n\n".join(reports)
    )
