"""What the Demon (or Nerts) table costs the browser: `.venv/bin/python bench/page.py [--seconds 20]`.

Starts the real server (`python -m app`, tests/support/live_server.py) and a real
Chromium (Playwright), and for each table size (one person, idle, and Hard bots: 2, 4
and 8 seats) opens the table at 1366x768 and watches it for `--seconds`, once at full
speed and once with the CPU slowed 4x (CDP `Emulation.setCPUThrottlingRate`, roughly a
mid-range phone). It prints, from Chromium's own counters (CDP `Performance.getMetrics`):

    busy %          TaskDuration over the wall time watched: how much of the time the page's
                    main thread was doing anything (script, style, layout, paint, ...)
    script/style/layout s   ScriptDuration, RecalcStyleDuration, LayoutDuration
    long tasks      count and longest, from a `longtask` PerformanceObserver (> 50 ms)
    moves           `move` events that reached the page's socket (counted in the page, on
                    the raw frames, so a page that falls behind counts fewer)
    ms/move         main-thread ms per move: TaskDuration / moves. The person is idle, so
                    every move is a remote play; the 200 ms clock tick and the like are in
                    it too, which is why an idle table is measured on its own.
    cpu%, cpu ms/move   the same from the CPU time the renderer's main thread was given
                    (Linux /proc schedstat): not inflated when a neighbour on a shared
                    machine takes the core mid-task (the figure to compare on a loaded one);
                    at 1x only: Chromium's throttle keeps the thread busy while it slows it

and the same for an idle table showing the first-round guide (a guided practice room:
one Easy bot, the coach bubble up). `--first-visit` instead loads the home page in a
fresh browser under Chromium's emulated "Fast 4G" (CDP `Network.emulateNetworkConditions`)
and prints first contentful paint, the time until the home page's buttons work (the
"Play against bots" button exists: its handler is attached when it is made) and the
bytes that came over the wire. `--clicks N` instead clicks one of the person's own cards
N times per table and prints the time from the pointer going down to the first frame
that shows the card held (the page's answer to a click while the bots race on).

`--game nerts` measures the Nerts table instead (practice rooms dealt Nerts, house rules
at their defaults; the same figures, each table named by its game). `--game both` watches
a Demon table and a Nerts table alternately (each table size and CPU speed: Demon then
Nerts, then with `--repeat` Nerts then Demon, and so on), so that both meet the same
moments of a noisy machine, and ends with a line per table size and CPU speed setting
Nerts' busy % and ms/move beside Demon's (medians of the runs) with a verdict: "met"
(Nerts no busier), "within noise" (dearer, but Nerts' cheapest run is no dearer than
Demon's dearest: `--repeat 2` or more) or "MISSED". The target is at 8 seats: the page
at 8 Nerts seats no busier than at 8 Demon seats. The moves differ between the games (a Nerts move is often a draw from the
stock), so busy % and ms/move are both said; a table whose round ends while it is watched
is watched only until then (a table idle after its round is not a cheap one), and said.

The machine is shared and noisy: compare runs made in the same session, alternately.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.support.chromium import CHROMIUM_ARGS, DEBIAN_CHROMIUM  # noqa: E402
from tests.support.live_server import LiveServer  # noqa: E402

VIEWPORT = {"width": 1366, "height": 768}

# Installed before any page script: counts the `move` events in the socket's raw frames
# (one JSON message a line; orjson writes no spaces) and collects long tasks. Counting on
# the frames, not in the app, measures what arrived whether or not the app kept up.
HOOKS = """(() => {
  window.__bench = { moves: 0, frames: 0, longtasks: [], longAt: [], since: 0, log: [], endedAt: null };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        if (typeof e.data !== 'string') return;
        window.__bench.frames += 1;
        let i = -1;
        let n = 0;
        while ((i = e.data.indexOf('"kind":"move"', i + 1)) !== -1) n += 1;
        window.__bench.moves += n;
        if (window.__bench.endedAt === null && e.data.includes('"kind":"round_ended"')) window.__bench.endedAt = performance.now();
        // what each frame carried, for `--long-tasks` (where a long task fell)
        const what = e.data.includes('"type":"snapshot"') ? 'snapshot' : e.data.includes('"kind":"move"') ? 'move' : 'other';
        window.__bench.log.push([Math.round(performance.now()), what, n, e.data.length]);
        if (window.__bench.log.length > 5000) window.__bench.log.shift();
      });
    }
  };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.startTime < window.__bench.since) continue; // before the watch began
        window.__bench.longtasks.push(e.duration);
        window.__bench.longAt.push([Math.round(e.startTime), Math.round(e.duration)]);
      }
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) { /* no longtask support: none counted */ }
})();"""

# The first-round guide shows once per browser; the tables measured here are a browser
# that has seen it, except the guided one.
GUIDE_SEEN = """(() => { try {
  const prefs = JSON.parse(localStorage.getItem('dg.prefs') || '{}');
  localStorage.setItem('dg.prefs', JSON.stringify({ ...prefs, guideGrip: true, guideDemon: true }));
} catch (e) { /* no storage */ } })();"""

METRICS = ("TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration", "RecalcStyleCount", "LayoutCount")

# Chromium DevTools' "Fast 4G" preset (9 Mbit/s down, 1.5 Mbit/s up, 60 ms RTT, each
# scaled as DevTools does: 0.9 of the throughput, 2.75x the latency).
FAST_4G = {
    "offline": False,
    "latency": 165,
    "downloadThroughput": 9_000_000 / 8 * 0.9,
    "uploadThroughput": 1_500_000 / 8 * 0.9,
}


# What a `--trace` records: the main thread's tasks and what they did (the DevTools
# timeline's own categories), and the JavaScript sampling profile.
TRACE_CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "blink",
    "v8.execute",
    "disabled-by-default-v8.cpu_profiler",
    "toplevel",
]


def main_thread_spans(path: Path) -> list[tuple[float, float, str, float]]:
    """The renderer main thread's complete events in a trace: (start us, end us, name,
    thread CPU us), parents before their children."""
    events = json.loads(path.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    main = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain"
    }
    return sorted(
        (
            (e["ts"], e["ts"] + e["dur"], e["name"], e.get("tdur", 0))
            for e in events
            if e.get("ph") == "X" and "dur" in e and (e["pid"], e["tid"]) in main
        ),
        key=lambda s: (s[0], -s[1]),
    )


def long_tasks_summary(path: Path, over_ms: float = 50.0, top: int = 6) -> str:
    """Each main-thread task longer than `over_ms` in a trace, with the events that
    took its time (self time by name), so a long task says what it was: a frame, a
    socket message, a collection."""
    spans = main_thread_spans(path)
    lines = []
    origin = spans[0][0] if spans else 0.0
    i = 0
    while i < len(spans):
        start, end, name, _ = spans[i]
        j = i + 1
        while j < len(spans) and spans[j][0] < end:  # everything inside this task
            j += 1
        if (end - start) / 1000 > over_ms:
            inside = spans[i:j]
            own: dict[str, float] = {}
            for k, (s0, e0, n0, _c) in enumerate(inside):
                children = sum(e1 - s1 for s1, e1, _n, _c1 in direct_children(inside, k))
                own[n0] = own.get(n0, 0.0) + (e0 - s0) - children
            ranked = sorted(own.items(), key=lambda kv: -kv[1])
            parts = ", ".join(f"{n} {us / 1000:.1f}" for n, us in ranked[:top])
            # V8's sampler starting with the trace stops the thread: not the page's work
            tool = (
                " (the trace's sampler starting)" if ranked and ranked[0][0] == "V8.InvokeApiInterruptCallbacks" else ""
            )
            lines.append(
                f"  long task at {(start - origin) / 1e6:.2f} s: {(end - start) / 1000:.1f} ms ({name}){tool}: {parts}"
            )
        i = j
    return "\n".join(lines) if lines else f"  no task over {over_ms:.0f} ms in the trace"


def direct_children(spans: list[tuple[float, float, str, float]], k: int) -> list[tuple[float, float, str, float]]:
    """The events directly inside spans[k] (spans sorted parents first)."""
    start, end = spans[k][0], spans[k][1]
    out = []
    reach = start
    for s in spans[k + 1 :]:
        if s[0] >= end:
            break
        if s[0] >= reach:  # not inside an earlier child
            out.append(s)
            reach = s[1]
    return out


def trace_summary(path: Path, top: int = 25) -> str:
    """The renderer main thread's time by trace event name (self time, nested events
    subtracted), so a trace says at once where the page's time goes: wall ms, and the
    thread's CPU ms (the events' `tdur`), which a neighbour taking the core does not
    inflate, so two traces taken on a loaded machine compare by it."""
    spans = main_thread_spans(path)
    own: dict[str, float] = {}
    own_cpu: dict[str, float] = {}
    count: dict[str, int] = {}
    stack: list[list] = []  # [end, name, child wall, start, cpu, child cpu]

    def close(upto: float) -> None:
        while stack and stack[-1][0] <= upto:
            end, name, child, start, cpu, child_cpu = stack.pop()
            own[name] = own.get(name, 0.0) + (end - start) - child
            own_cpu[name] = own_cpu.get(name, 0.0) + cpu - child_cpu
            if stack:
                stack[-1][2] += end - start
                stack[-1][5] += cpu

    for start, end, name, cpu in spans:
        close(start)
        stack.append([end, name, 0.0, start, cpu, 0.0])
        count[name] = count.get(name, 0) + 1
    close(float("inf"))
    lines = [f"{'event':<40} {'self ms':>9} {'cpu ms':>8} {'count':>7}"]
    for name, us in sorted(own.items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"{name:<40} {us / 1000:9.1f} {own_cpu[name] / 1000:8.1f} {count[name]:7d}")
    lines.append(f"{'(all)':<40} {sum(own.values()) / 1000:9.1f} {sum(own_cpu.values()) / 1000:8.1f}")
    return "\n".join(lines)


def profile_summary(profile: dict, top: int = 20) -> str:
    """A CDP `Profiler` sampling profile's self time by function (url:line), the
    JavaScript side of where the page's time goes ((program) and (garbage collector)
    included, as V8 names them)."""
    nodes = profile["nodes"]
    gaps = profile.get("timeDeltas") or []
    per_sample = (profile["endTime"] - profile["startTime"]) / max(1, len(gaps))  # us
    own: dict[str, float] = {}
    for node in nodes:
        frame = node["callFrame"]
        where = frame["url"].rsplit("/", 1)[-1]
        name = (
            f"{frame['functionName'] or '(anonymous)'} {where}:{frame['lineNumber'] + 1}"
            if where
            else frame["functionName"] or "(anonymous)"
        )
        own[name] = own.get(name, 0.0) + node.get("hitCount", 0) * per_sample
    lines = [f"{'function (self)':<60} {'ms':>8}"]
    for name, us in sorted(own.items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"{name[:60]:<60} {us / 1000:8.1f}")
    return "\n".join(lines)


def renderer_main_cpu(browser) -> dict[int, float]:
    """CPU seconds each renderer's main thread has run, from Linux's
    /proc/<pid>/task/<pid>/schedstat. Unlike TaskDuration (wall time), this does not grow
    when a busy neighbour on a shared machine takes the core away in the middle of a task:
    it is what the page's work costs, comparable between runs on a loaded machine (not with
    the CPU throttled: Chromium slows the thread by keeping it busy). {} where there is no
    /proc."""
    cdp = browser.new_browser_cdp_session()
    try:
        pids = [p["id"] for p in cdp.send("SystemInfo.getProcessInfo")["processInfo"] if p["type"] == "renderer"]
    finally:
        cdp.detach()
    out = {}
    for pid in pids:
        try:  # a renderer's main thread is its first thread (its id is the process's)
            out[pid] = int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[0]) / 1e9
        except OSError:
            continue
    return out


# Where a long task fell: the sizes of the table's rows as the browser laid them out (a
# ResizeObserver reports after layout, so it adds none), to tell a frame in which the
# foundations wrapped to a new row from one that only drew plays.
SIZES_WATCH = """() => { window.__bench.sizes = [];
  const seen = new Set(); // an observer reports each node once when it starts: not a change
  const ro = new ResizeObserver((entries) => { for (const e of entries) {
    if (!seen.has(e.target)) { seen.add(e.target); continue; }
    window.__bench.sizes.push([Math.round(performance.now()), e.target.className.split(' ')[0], Math.round(e.contentRect.height)]);
  } });
  for (const sel of ['.foundations', '.opponents', '.mine', '.table-status', '.results-slot']) {
    const node = document.querySelector(sel); if (node) ro.observe(node); } }"""


def long_tasks_seen(got: dict, over_ms: float = 100.0) -> str:
    """Each long task over `over_ms` the page's `longtask` observer saw, with what the
    socket brought in the 300 ms before it ended and any row of the table that changed
    size in it: a long task says whether it was a wrap, a burst of plays, a snapshot."""
    since = got.get("since", 0)
    lines = []
    for start, dur in got.get("longAt", []):
        if dur <= over_ms:
            continue
        frames = [f for f in got.get("log", []) if start - 300 <= f[0] <= start + dur]
        moves = sum(f[2] for f in frames)
        kinds = sorted({f[1] for f in frames})
        sizes = [f"{n} {h}px" for at, n, h in got.get("sizes", []) if start - 20 <= at <= start + dur + 20]
        lines.append(
            f"  long task at {(start - since) / 1000:5.2f} s: {dur} ms; socket in the 300 ms before: "
            f"{len(frames)} frames, {moves} moves ({', '.join(kinds) or '-'}); "
            f"resized: {', '.join(sizes) or '-'}"
        )
    return "\n".join(lines)


def metrics(cdp) -> dict:
    got = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {k: got.get(k, 0.0) for k in METRICS}


# `--reduced-motion`: the browser asks for less motion, so the page starts with its
# animations off (settings.js): what the card flights and the like cost, by difference.
REDUCED_MOTION = False
# `--long-tasks`: each long task over 100 ms the page saw, when and beside what
LONG_TASKS = False


def open_table(browser, base: str, seats: int, *, guided: bool = False, game: str = "demon"):
    """A new browser (own storage) seated in a fresh practice room of `game`: one person
    and `seats - 1` Hard bots (or the guided room: one Easy bot and the coach)."""
    context = browser.new_context(
        viewport=VIEWPORT, locale="en-GB", base_url=base, reduced_motion="reduce" if REDUCED_MOTION else "no-preference"
    )
    context.add_init_script(HOOKS)
    if not guided:
        context.add_init_script(GUIDE_SEEN)
    page = context.new_page()
    page.goto("/")
    body: dict[str, Any] = (
        {"name": "Ann", "bots": 1, "level": "easy", "rounds": 1}
        if guided
        else {"name": "Ann", "bots": seats - 1, "level": "hard", "rounds": 20}
    )
    if game != "demon":  # a Demon room is made as it was before there was a choice
        body["game"] = game
    grant = page.request.post(base + "/api/rooms/practice", data=body).json()
    creds = {
        "code": grant["code"],
        "token": grant["token"],
        "seat": grant["seat"],
        "you": grant.get("you"),
        "spectator": grant.get("spectator"),
        "name": "Ann",
        "saved": int(time.time() * 1000),
    }
    page.evaluate(
        """([creds, guided]) => {
        localStorage.setItem('dg.room.' + creds.code, JSON.stringify(creds));
        if (guided) {
          const prefs = JSON.parse(localStorage.getItem('dg.prefs') || '{}');
          localStorage.setItem('dg.prefs', JSON.stringify({ ...prefs, guideRoom: creds.code }));
        }
    }""",
        [creds, guided],
    )
    page.goto(f"/r/{grant['code']}")
    page.wait_for_selector(".mine .tableau [data-pick]", timeout=20000)
    page.wait_for_selector(".countdown", state="hidden", timeout=20000)
    if guided:
        page.wait_for_selector(".guide-bubble:not([hidden])", timeout=20000)
    return context, page


def watch(
    page,
    seconds: float,
    throttle: float,
    trace: Path | None = None,
    profile: Path | None = None,
    stop_at_end: bool = False,
) -> dict:
    """The page's costs over `seconds` of the race; with `stop_at_end`, only until its
    round ends (polled each half second), so that a table idle after its round does not
    pass for a cheap one."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    if profile:
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 500})
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.wait_for_timeout(1000)  # the first drawing and the deal's animations are not the race
    if trace:
        page.context.browser.start_tracing(page=page, path=str(trace), screenshots=False, categories=TRACE_CATEGORIES)
    if profile:
        cdp.send("Profiler.start")
    if trace or profile:
        # starting V8's sampler stops the page's thread for a while (a trace's first task,
        # `V8.InvokeApiInterruptCallbacks`: 280 ms at 4x): the tool's own, not the page's
        page.wait_for_timeout(500)
    page.evaluate(
        "() => { window.__bench.moves = 0; window.__bench.frames = 0; window.__bench.longtasks = []; window.__bench.longAt = []; window.__bench.since = performance.now(); window.__bench.endedAt = null; }"
    )
    page.evaluate(SIZES_WATCH)
    c0 = renderer_main_cpu(page.context.browser)
    m0 = metrics(cdp)
    t0 = time.perf_counter()
    if stop_at_end:
        while (left := seconds - (time.perf_counter() - t0)) > 0:
            time.sleep(min(0.5, left))
            if page.evaluate("() => window.__bench.endedAt") is not None:
                break
    else:
        time.sleep(seconds)
    m1 = metrics(cdp)
    wall = time.perf_counter() - t0
    c1 = renderer_main_cpu(page.context.browser)
    # the page's renderer is the one that worked (the others are idle or closing)
    cpu = max((c1[pid] - c0[pid] for pid in c1 if pid in c0), default=None)
    if trace:
        page.context.browser.stop_tracing()
    if profile:
        profile.write_text(json.dumps(cdp.send("Profiler.stop")["profile"]))
    got = page.evaluate("() => ({ ...window.__bench, phase: document.querySelector('#results') ? 'over' : 'playing' })")
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    cdp.detach()
    d = {k: m1[k] - m0[k] for k in METRICS}
    longs = got["longtasks"]
    return {
        "busy": 100 * d["TaskDuration"] / wall,
        "wall": wall,
        "script": d["ScriptDuration"],
        "style": d["RecalcStyleDuration"],
        "layout": d["LayoutDuration"],
        "styles": int(d["RecalcStyleCount"]),
        "layouts": int(d["LayoutCount"]),
        "long": len(longs),
        "long_max": max(longs) if longs else 0.0,
        "moves": got["moves"],
        "ms_move": 1000 * d["TaskDuration"] / got["moves"] if got["moves"] else None,
        "cpu": cpu,
        "cpu_move": 1000 * cpu / got["moves"] if got["moves"] and cpu is not None else None,
        "ended": got["phase"] == "over",
        # seconds into the watch when the round ended (its `round_ended` arrived), or None
        "ended_s": (got["endedAt"] - got["since"]) / 1000 if got.get("endedAt") is not None else None,
        "seen": long_tasks_seen(got),
    }


def ended_note(r: dict, when: bool) -> str:
    """ "(round ended)"; with `when`, at what second of the watch (whose figures stop there
    when `--game` is not Demon alone)."""
    if when and r.get("ended_s") is not None:
        return f"  (round ended at {r['ended_s']:.1f} s)"
    return "  (round ended)" if r["ended"] else ""


def row(name: str, throttle: float, r: dict, width: int = 12) -> str:
    per = f"{r['ms_move']:7.1f}" if r["ms_move"] is not None else "      -"
    # (with the CPU throttled, Chromium keeps the thread busy for the slow-down: its CPU
    # time is then about two thirds of the wall time whatever the page does, so not shown)
    shown = r["cpu"] is not None and throttle == 1
    cpu = f"{100 * r['cpu'] / r['wall']:5.1f}" if shown else "    -"
    cpu_per = f"{r['cpu_move']:7.2f}" if shown and r["cpu_move"] is not None else "      -"
    return (
        f"{name:<{width}} {throttle:>3.0f}x  {r['busy']:6.1f}  {r['script']:6.2f} {r['style']:6.2f} {r['layout']:6.2f}"
        f"  {r['styles']:5d} {r['layouts']:5d}  {r['long']:4d} {r['long_max']:6.0f}  {r['moves']:5d} {per}"
        f"  {cpu} {cpu_per}{ended_note(r, width != 12)}"
    )


def head(width: int = 12) -> str:
    return (
        f"{'table':<{width}} cpu   busy%  script  style layout  recalc  lays  long  max ms  moves ms/move"
        "  cpu% cpu ms/move\n" + "-" * (100 + width)
    )


HEAD = head()


def bench_tables(
    browser,
    base: str,
    seconds: float,
    seat_counts: list[int],
    throttles: list[float],
    guide: bool,
    trace: Path | None = None,
    profile: Path | None = None,
    games: tuple[str, ...] = ("demon",),
    repeat: int = 1,
) -> list[dict]:
    """Each table size at each CPU speed, once per game in `games` and `repeat` times,
    alternately (Demon then Nerts, then Nerts then Demon, ...): the games meet the same
    moments of a noisy machine. Demon alone prints as it always has."""
    out = []
    named = games != ("demon",)  # rows say their game unless the run is Demon's alone
    width = 15 if named else 12
    print(head(width), flush=True)
    cases = [(f"{n} seats", n, False) for n in seat_counts]
    # the first-round guide is Demon's coach (guide.js): its idle table is Demon's
    if guide and "demon" in games:
        cases.append(("idle+guide", 2, True))
    for name, seats, guided in cases:
        for throttle in throttles:
            for i in range(repeat):
                order = [g for g in games if not guided or g == "demon"]
                for game in order if i % 2 == 0 else order[::-1]:
                    label = f"{game.capitalize()} {name}" if named else name
                    tag = f"-{game}" if named else ""
                    tag += f"-{i + 1}" if repeat > 1 else ""
                    # a fresh room per run: the bots' pace at the start of a round is alike each time
                    context, page = open_table(browser, base, seats, guided=guided, game=game)
                    try:
                        path = (
                            trace.with_name(f"{trace.stem}{tag}-{seats}-{throttle:g}x{trace.suffix}") if trace else None
                        )
                        prof = (
                            profile.with_name(f"{profile.stem}{tag}-{seats}-{throttle:g}x{profile.suffix}")
                            if profile
                            else None
                        )
                        r = watch(page, seconds, throttle, path, prof, stop_at_end=named)
                    finally:
                        context.close()
                    print(row(label, throttle, r, width), flush=True)
                    if LONG_TASKS and r["seen"]:
                        print(r["seen"], flush=True)
                    if path:
                        print(trace_summary(path), flush=True)
                        print(long_tasks_summary(path), flush=True)
                    if prof:
                        print(profile_summary(json.loads(prof.read_text())), flush=True)
                    entry = {"table": name, "throttle": throttle, **r}
                    if named:
                        entry["game"] = game
                    out.append(entry)
    if "demon" in games and "nerts" in games:
        print(beside(out, repeat), flush=True)
    return out


def verdict(nerts: list[float], demon: list[float], repeat: int) -> tuple[float, str]:
    """Nerts' median over Demon's, and whether Nerts is no busier: "met" (no dearer),
    "within noise" (dearer, but its cheapest run no dearer than Demon's dearest; only said
    with repeated runs) or "MISSED"."""
    q = statistics.median(nerts) / statistics.median(demon)
    if q <= 1:
        return q, "met"
    if repeat > 1 and min(nerts) <= max(demon):
        return q, "within noise"
    return q, "MISSED"


def beside(out: list[dict], repeat: int) -> str:
    """Nerts' table beside Demon's, per table size and CPU speed, from the runs of `out`:
    busy %, ms/move and (at 1x) the CPU ms/move, medians with the runs' range."""
    lines = [
        "",
        f"Nerts beside Demon, same run (medians of {repeat} run{'s' if repeat > 1 else ''} each"
        + ("; runs lowest-highest" if repeat > 1 else "")
        + "): is the Nerts table no busier? (the target: 8 seats)",
    ]
    keys = sorted({(e["table"], e["throttle"]) for e in out if "game" in e and e["table"] != "idle+guide"})
    keys.sort(key=lambda k: (int(k[0].split()[0]), k[1]))
    for table, throttle in keys:
        runs = {
            g: [e for e in out if e.get("game") == g and e["table"] == table and e["throttle"] == throttle]
            for g in ("nerts", "demon")
        }
        if not runs["nerts"] or not runs["demon"]:
            continue
        figures = [("busy %", "busy", "{:.1f}"), ("ms/move", "ms_move", "{:.2f}")]
        if throttle == 1:
            figures.append(("cpu ms/move", "cpu_move", "{:.2f}"))
        for what, key, fmt in figures:
            n = [e[key] for e in runs["nerts"] if e[key] is not None]
            d = [e[key] for e in runs["demon"] if e[key] is not None]
            if not n or not d:
                continue
            q, said = verdict(n, d, repeat)
            cells = f"{fmt.format(statistics.median(n))} / {fmt.format(statistics.median(d))}"
            if repeat > 1:
                cells += "   " + "   ".join(f"{fmt.format(min(v))}-{fmt.format(max(v))}" for v in (n, d))
            lines.append(f"  {table} {throttle:g}x  {what + ', Nerts / Demon':<28} {q:5.2f}  {said:<12}  {cells}")
        ended = [g for g in ("nerts", "demon") for e in runs[g] if e["ended"] or e.get("ended_s") is not None]
        if ended:
            lines.append(
                f"  {table} {throttle:g}x  rounds that ended while watched (figures up to the end): "
                + ", ".join(f"{g.capitalize()} {ended.count(g)}" for g in ("nerts", "demon") if g in ended)
            )
        moves = [f"{g.capitalize()} {statistics.median(e['moves'] for e in runs[g]):.0f}" for g in ("nerts", "demon")]
        lines.append(f"  {table} {throttle:g}x  moves watched (median): {', '.join(moves)}")
    if repeat == 1:
        lines.append("  (one run each: nothing is said to be within noise; --repeat 2 or more for that)")
    return "\n".join(lines)


# From the pointer going down on one of your cards to the first frame that shows it held:
# what "the page answers a click" means at a busy table.
CLICK_WATCH = """() => { window.__lat = []; let t0 = null;
  document.addEventListener('pointerdown', (e) => { t0 = e.timeStamp; }, true);
  new MutationObserver(() => {
    if (t0 === null || !document.querySelector('.mine .selected')) return;
    const start = t0; t0 = null;
    requestAnimationFrame(() => window.__lat.push(performance.now() - start));
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['class'] }); }"""


def click_latency(
    browser, base: str, seat_counts: list[int], throttles: list[float], clicks: int, games: tuple[str, ...] = ("demon",)
) -> list[dict]:
    out = []
    named = games != ("demon",)
    print(f"{'table':<{15 if named else 12}} cpu   clicks  median ms  max ms", flush=True)
    for seats, throttle, game in ((s, t, g) for s in seat_counts for t in throttles for g in games):
        context, page = open_table(browser, base, seats, game=game)
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        page.evaluate(CLICK_WATCH)
        missed = 0
        for i in range(clicks):
            try:  # a card redrawn under the pointer again and again never takes the click
                page.locator(".mine .tableau [data-pick]").nth(i % 3).click(timeout=10000, force=True)
            except Exception:  # noqa: BLE001 - counted, and the run goes on
                missed += 1
            page.wait_for_timeout(300)
            page.keyboard.press("Escape")
            page.wait_for_timeout(300)
        lat = page.evaluate("window.__lat")
        context.close()
        med = statistics.median(lat) if lat else None
        label = f"{game.capitalize()} {seats} seats" if named else f"{seats} seats"
        print(
            f"{label:<{15 if named else 12}} {throttle:>3.0f}x  {len(lat):3d}/{clicks:<3d} "
            f"{med if med is not None else float('nan'):9.0f} {max(lat) if lat else float('nan'):7.0f}"
            f"{f'  ({missed} clicks never landed in 10 s)' if missed else ''}",
            flush=True,
        )
        out.append(
            {"seats": seats, "throttle": throttle, "latencies": lat, "missed": missed}
            | ({"game": game} if named else {})
        )
    return out


FIRST_VISIT_HOOK = """(() => {
  window.__ready = null;
  const seen = () => {
    if (window.__ready === null && document.getElementById('practice-start')) {
      window.__ready = performance.now();
      return true;
    }
    return false;
  };
  new MutationObserver((_, obs) => { if (seen()) obs.disconnect(); })
    .observe(document, { childList: true, subtree: true });
})();"""


def first_visit(browser, base: str, runs: int) -> list[dict]:
    out = []
    print("first visit (Fast 4G)   FCP ms   buttons ms   bytes   requests", flush=True)
    for _ in range(runs):
        context = browser.new_context(viewport=VIEWPORT, locale="en-GB", base_url=base)
        context.add_init_script(FIRST_VISIT_HOOK)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        cdp.send("Network.emulateNetworkConditions", FAST_4G)
        sizes: dict[str, float] = {}
        cdp.on("Network.loadingFinished", lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]))
        page.goto("/", wait_until="load")
        deadline = time.monotonic() + 30
        # polled from here: the page's CSP (script-src 'self') refuses wait_for_function's eval
        while page.evaluate("() => window.__ready") is None and time.monotonic() < deadline:
            time.sleep(0.05)
        page.wait_for_timeout(1500)  # late requests (the service worker's own are not the page's)
        got = page.evaluate("""() => ({
            fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime ?? null,
            ready: window.__ready })""")
        r = {"fcp": got["fcp"], "ready": got["ready"], "bytes": int(sum(sizes.values())), "requests": len(sizes)}
        print(f"{'':<23} {r['fcp'] or 0:7.0f}   {r['ready']:9.0f}   {r['bytes']:6d}   {r['requests']:4d}", flush=True)
        out.append(r)
        context.close()
    if out:
        print(
            f"{'median':<23} {statistics.median(r['fcp'] or 0 for r in out):7.0f}   "
            f"{statistics.median(r['ready'] for r in out):9.0f}",
            flush=True,
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="how long each table is watched")
    ap.add_argument("--seats", type=int, nargs="*", default=[2, 4, 8])
    ap.add_argument("--throttle", type=float, nargs="*", default=[1, 4], help="CPU slow-down factors")
    ap.add_argument("--no-guide", action="store_true", help="skip the idle table with the guide")
    ap.add_argument(
        "--first-visit",
        type=int,
        default=0,
        metavar="RUNS",
        help="instead: RUNS first visits of the home page on emulated Fast 4G",
    )
    ap.add_argument(
        "--clicks",
        type=int,
        default=0,
        metavar="N",
        help="instead: N clicks on your own cards per table, pointer down to the frame showing them held",
    )
    ap.add_argument(
        "--game",
        choices=("demon", "nerts", "both"),
        default="demon",
        help="the tables' game: both = a Demon table and a Nerts table alternately, then Nerts beside Demon",
    )
    ap.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="watch each table this many times (alternating the games' order); the verdicts use the runs' range",
    )
    ap.add_argument("--json", type=Path, help="also write the figures here")
    ap.add_argument(
        "--trace",
        type=Path,
        metavar="FILE",
        help="also record a Chromium trace of each table watched (FILE-<seats>-<cpu>x.json; "
        "opens in DevTools' Performance panel) and print its main-thread time by event",
    )
    ap.add_argument(
        "--profile",
        type=Path,
        metavar="FILE",
        help="also record a CDP Profiler sampling profile of each table watched "
        "(FILE-<seats>-<cpu>x.cpuprofile; opens in DevTools) and print its self time by function",
    )
    ap.add_argument(
        "--reduced-motion",
        action="store_true",
        help="the browser asks for less motion: the tables with their animations off",
    )
    ap.add_argument(
        "--long-tasks",
        action="store_true",
        help="also list each long task over 100 ms: when, what the socket brought, what resized",
    )
    args = ap.parse_args()
    games = ("demon", "nerts") if args.game == "both" else (args.game,)
    if args.repeat < 1:
        ap.error("--repeat must be 1 or more")
    global REDUCED_MOTION, LONG_TASKS
    REDUCED_MOTION = args.reduced_motion
    LONG_TASKS = args.long_tasks
    with (
        tempfile.TemporaryDirectory() as tmp,
        LiveServer(Path(tmp), countdown_s=0.5) as server,
        sync_playwright() as pw,
    ):
        browser = pw.chromium.launch(executable_path=DEBIAN_CHROMIUM, args=CHROMIUM_ARGS)
        try:
            if args.first_visit:
                result = first_visit(browser, server.base, args.first_visit)
            elif args.clicks:
                result = click_latency(browser, server.base, args.seats, args.throttle, args.clicks, games)
            else:
                result = bench_tables(
                    browser,
                    server.base,
                    args.seconds,
                    args.seats,
                    args.throttle,
                    not args.no_guide,
                    args.trace,
                    args.profile,
                    games,
                    args.repeat,
                )
        finally:
            browser.close()
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
