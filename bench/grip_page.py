"""How fast a Devil's Grip move shows on the page, with the server far away
(bench/results/2026-12-03-grip-page-first-step.md and -partial-drawing.md).

    .venv/bin/python bench/grip_page.py [--latency 150] [--moves 30] [--root /tmp/before-grip]
                                        [--profile FILE]

Starts the real server (`python -m app`, from this checkout or from `--root`, e.g. a
worktree of the commit before the page played with its own rules: `git worktree add /tmp/before-grip cf446f0`) and a
real Chromium (Playwright), opens /grip, deals deal `--deal` and adds `--latency` ms to
every request (CDP `Network.emulateNetworkConditions`: a home server reached over the
internet, or a phone on mobile data). Then it plays legal moves by clicking as a person
does (the stock; or a card, then the cell it goes to), choosing them with the Python
engine, which replays the same moves to know what the page must show. Two figures:

    input -> shown   per move: from the input event that makes the move (the click on
                     the stock or on the target cell; its `timeStamp`) to the first frame
                     after the page's DOM shows the card at its destination (a
                     MutationObserver notes the DOM change, requestAnimationFrame the next
                     frame). Median, p90 and max over `--moves` moves played one by one.
    30 moves         `--moves` moves played as fast as the page accepts them: each next
                     input as soon as the previous move shows (the old page refuses input
                     until the server answers). From the first input to the last move shown,
                     in frames of 16.7 ms; and, for the page that sends moves in batches,
                     until the server has acknowledged every one; and the CPU time the
                     page's renderer main thread ran meanwhile (Linux schedstat: unlike
                     wall time, it does not grow when a neighbour takes the core away),
                     the page's own cost per move, with the harness's dispatching.

`--profile FILE` also records the burst: a Chromium trace (FILE, opened by DevTools'
Performance panel or https://ui.perfetto.dev) summarised as the main thread's time by
event, the layouts it ran and how many of them JavaScript forced (a `Layout` inside a
script's task before the frame's own), and the JavaScript functions that took the most
self time (CDP `Profiler`, sampled every 100 µs).

Both include Playwright's own time to deliver the clicks (a few ms a click over CDP),
which a person's hand does not have. The machine is shared: note `uptime`, and run
before and after alternately in the same session.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from page import TRACE_CATEGORIES, renderer_main_cpu, trace_summary  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from app.grip.rules import GripGame, grip_action_from_json  # noqa: E402
from app.grip.rules.shapes import ActionJson  # noqa: E402
from app.grip.service.legal import legal_json  # noqa: E402
from tests.support.chromium import CHROMIUM_ARGS, DEBIAN_CHROMIUM  # noqa: E402
from tests.support.live_server import LiveServer  # noqa: E402

VIEWPORT = {"width": 1280, "height": 900}
FRAME_MS = 1000 / 60
GUIDE_SEEN = "localStorage.setItem('dg.prefs', JSON.stringify({ guideGrip: true, guideDemon: true }));"

# Installed before the page's scripts: the input events' times, and a watcher that
# resolves once a condition on the DOM holds (noting the mutation's time and the next
# frame's).
HOOKS = """(() => {
  window.__inputs = [];
  for (const type of ['pointerdown', 'pointerup', 'click']) {
    window.addEventListener(type, (e) => window.__inputs.push([type, e.timeStamp]), true);
  }
  window.__shows = (t) => JSON.stringify([...document.querySelectorAll(t.sel)].map((e) => e.dataset.card)) === t.want
    && (t.stock === null || document.querySelector('#grip-stock .stock-count').textContent === t.stock);
  window.__watch = (check) => new Promise((resolve, reject) => {
    setTimeout(() => reject(new Error(`not shown within 20 s: ${check}`)), 20000);
    const done = () => {
      const dom = performance.now();
      requestAnimationFrame(() => resolve({ dom, frame: performance.now() }));
    };
    if (check()) { done(); return; }
    const seen = new MutationObserver(() => { if (check()) { seen.disconnect(); done(); } });
    seen.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
  });
})();"""


class RootServer(LiveServer):
    """`python -m app` from another checkout (`root`): the page and server of that commit."""

    def __init__(self, data_dir: Path, root: Path, **settings: object) -> None:
        super().__init__(data_dir, **settings)
        self.root = root

    def start(self, timeout: float = 30.0) -> RootServer:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app"], cwd=self.root, env=self.env(), stdout=log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/health", timeout=0.5).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"server did not start:\n{self.log()}")


def next_action(game: GripGame) -> ActionJson:
    """A legal move that a person clicks: a card into a pile first, else the stock."""
    legal = [a for a in legal_json(game.state) if a["type"] != "swap"]
    for kind in ("talon", "move", "deal", "redeal"):
        for action in legal:
            if action["type"] == kind:
                return action
    raise RuntimeError("no move left: choose another deal")


def target(game: GripGame, action: Mapping[str, Any]) -> dict:
    """Where `action` lands and what the page must show there once `game` has played it:
    {sel: the cards' selector, want: their JSON, stock: the stock count's text or None}."""
    view = game.state.view()
    if action["type"] in ("deal", "redeal"):
        return {
            "sel": "#grip-talon [data-card]",
            "want": json.dumps(view["talon"], separators=(",", ":")),
            "stock": str(view["stock"]),
        }
    return {
        "sel": f'.cell[data-target="c:{action["dst"]}"] [data-card]',
        "want": json.dumps(view["grid"][action["dst"]], separators=(",", ":")),
        "stock": None,
    }


def condition(game: GripGame, action: Mapping[str, Any]) -> str:
    """JavaScript: whether the page shows the state after `action` where it lands."""
    return f"() => window.__shows({json.dumps(target(game, action))})"


def click_move(page, before: GripGame, action: Mapping[str, Any]) -> None:
    """The clicks a person makes; the last one is the move's input."""
    if action["type"] in ("deal", "redeal"):
        page.click("#grip-stock")
        return
    if action["type"] == "talon":
        page.click('#grip-talon [data-pick="talon"]')
    else:
        j = len(before.state.grid[action["src"]]) - action["count"]
        page.click(f'[data-pick="c:{action["src"]}:{j}"]', position={"x": 8, "y": 6})
    page.click(f'.cell[data-target="c:{action["dst"]}"]', position={"x": 6, "y": 6})


def play_one(page, game: GripGame) -> tuple[float, float]:
    """Plays the next move; returns (input -> DOM shown, input -> frame shown) in ms."""
    action = next_action(game)
    before_clicks = page.evaluate("() => window.__inputs.length")
    after = GripGame.from_json(game.to_json())
    after.apply(grip_action_from_json(action))
    page.evaluate(f"() => {{ window.__pending = window.__watch({condition(after, action)}); }}")
    click_move(page, game, action)
    shown = page.evaluate("() => window.__pending")
    inputs = page.evaluate(f"() => window.__inputs.slice({before_clicks})")
    started = [t for kind, t in inputs if kind == "pointerup"][-1]  # the last release makes the move
    game.apply(grip_action_from_json(action))
    return shown["dom"] - started, shown["frame"] - started


def open_deal(browser, base: str, deal: int, latency: float):
    context = browser.new_context(viewport=VIEWPORT, base_url=base, locale="en-GB", service_workers="block")
    context.add_init_script(GUIDE_SEEN)
    context.add_init_script(HOOKS)
    page = context.new_page()
    page.goto("/grip")
    page.wait_for_selector("#grip-stock")
    page.fill("#grip-number", str(deal))
    page.click("#grip-by-number")
    page.wait_for_function(f"() => document.querySelector('.deal-no')?.textContent === 'Deal #{deal}'")
    # the deal exists on the server (both pages keep its id); its par may take seconds more
    while not page.evaluate(f"""() => {{ const g = JSON.parse(localStorage.getItem('dg.grip.current') || 'null');
            return Boolean(g && g.id && (!('number' in g) || g.number === {deal}))
              && !document.querySelector('#grip-stock').disabled; }}"""):
        time.sleep(0.05)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": latency, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    return context, page


# The burst, played inside the page: each move's clicks dispatched as pointer events (as
# input.js reads them: down, then up over the element; a click for the stock button) as
# soon as the previous move shows, so that the harness's own delay is not in the figure.
BURST = """async (moves) => {
  const tap = (selector, dx, dy) => {
    const el = document.querySelector(selector);
    const r = el.getBoundingClientRect();
    const o = { bubbles: true, pointerId: 7, isPrimary: true, button: 0, clientX: r.left + dx, clientY: r.top + dy };
    el.dispatchEvent(new PointerEvent('pointerdown', o));
    el.dispatchEvent(new PointerEvent('pointerup', o));
    el.dispatchEvent(new MouseEvent('click', o));
  };
  let first = null;
  let last = null;
  for (const move of moves) {
    const shown = window.__watch(() => window.__shows(move.target));
    if (first === null) first = performance.now();
    for (const [selector, dx, dy] of move.clicks) tap(selector, dx, dy);
    last = await shown;
  }
  return { first, last: last.frame };
}"""


def clicks_of(before: GripGame, action: Mapping[str, Any]) -> list[tuple[str, int, int]]:
    if action["type"] in ("deal", "redeal"):
        return [("#grip-stock", 10, 10)]
    if action["type"] == "talon":
        first = ('#grip-talon [data-pick="talon"]', 8, 6)
    else:
        j = len(before.state.grid[action["src"]]) - action["count"]
        first = (f'[data-pick="c:{action["src"]}:{j}"]', 8, 6)
    return [first, (f'.cell[data-target="c:{action["dst"]}"]', 6, 6)]


def layout_summary(path: Path) -> str:
    """How many layouts the renderer's main thread ran, and how many a script forced
    (a `Layout` or style recalculation inside a `FunctionCall`/`EventDispatch`/
    `TimerFire`, i.e. read before the frame would have laid out anyway)."""
    events = json.loads(path.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    main = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain"
    }
    spans = [e for e in events if e.get("ph") == "X" and "dur" in e and (e["pid"], e["tid"]) in main]
    scripts = [
        (e["ts"], e["ts"] + e["dur"])
        for e in spans
        if e["name"] in ("FunctionCall", "EventDispatch", "TimerFire", "v8.callFunction")
    ]
    forced = {"Layout": 0, "UpdateLayoutTree": 0}
    total = {"Layout": 0, "UpdateLayoutTree": 0}
    for e in spans:
        if e["name"] in total:
            total[e["name"]] += 1
            if any(a <= e["ts"] < b for a, b in scripts):
                forced[e["name"]] += 1
    return (
        f"layouts: {total['Layout']} ({forced['Layout']} forced by script); style recalculations: "
        f"{total['UpdateLayoutTree']} ({forced['UpdateLayoutTree']} forced)"
    )


def js_self_time(profile: dict, top: int = 15) -> str:
    """The JavaScript functions with the most self time in a CDP CPU profile."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    hits: dict[int, int] = {}
    for sample in profile.get("samples", []):
        hits[sample] = hits.get(sample, 0) + 1
    deltas = profile.get("timeDeltas", [])
    per_sample_ms = (sum(deltas) / len(deltas) / 1000) if deltas else 0.1
    by_fn: dict[str, float] = {}
    for node_id, n in hits.items():
        frame = nodes[node_id]["callFrame"]
        url = frame["url"].rsplit("/", 1)[-1]
        key = (
            f"{frame['functionName'] or '(anonymous)'} {url}:{frame['lineNumber'] + 1}"
            if url
            else frame["functionName"]
        )
        by_fn[key] = by_fn.get(key, 0.0) + n * per_sample_ms
    lines = [f"{'JavaScript function (self)':<60} {'ms':>8}"]
    for key, ms in sorted(by_fn.items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"{key[:60]:<60} {ms:8.1f}")
    # and with what they called (a function counted once per sample however deep it recurs)
    parent = {c: n["id"] for n in profile["nodes"] for c in n.get("children", [])}
    total: dict[str, float] = {}
    for node_id, n in hits.items():
        seen = set()
        at: int | None = node_id
        while at is not None:
            frame = nodes[at]["callFrame"]
            url = frame["url"].rsplit("/", 1)[-1]
            if url.endswith(".js"):
                key = f"{frame['functionName'] or '(anonymous)'} {url}:{frame['lineNumber'] + 1}"
                if key not in seen:
                    seen.add(key)
                    total[key] = total.get(key, 0.0) + n * per_sample_ms
            at = parent.get(at)
    lines.append(f"{'JavaScript function of the page (total)':<60} {'ms':>8}")
    for key, ms in sorted(total.items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"{key[:60]:<60} {ms:8.1f}")
    return "\n".join(lines)


def all_acknowledged(page) -> bool:
    return bool(
        page.evaluate("""() => { const g = JSON.parse(localStorage.getItem('dg.grip.current') || 'null');
        return !g || !('pending' in g) || (g.id && g.pending.length === 0); }""")
    )


def bench(browser, base: str, deal: int, latency: float, moves: int, profile: Path | None = None) -> dict:
    context, page = open_deal(browser, base, deal, latency)
    game = GripGame.new(deal)
    one = [play_one(page, game) for _ in range(moves)]
    context.close()

    context, page = open_deal(browser, base, deal, latency)
    game = GripGame.new(deal)
    moves_js = []
    for _ in range(moves):
        action = next_action(game)
        before = GripGame.from_json(game.to_json())
        game.apply(grip_action_from_json(action))
        moves_js.append({"clicks": clicks_of(before, action), "target": target(game, action)})
    if profile:
        cdp = context.new_cdp_session(page)
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 100})
        cdp.send("Profiler.start")
        browser.start_tracing(page=page, path=str(profile), screenshots=False, categories=TRACE_CATEGORIES)
    wall = time.monotonic()
    cpu0 = renderer_main_cpu(browser)
    burst = page.evaluate(BURST, moves_js)
    cpu1 = renderer_main_cpu(browser)
    # the page's renderer is the one that worked (the others are idle or closing)
    cpu_ms = max((cpu1[pid] - cpu0[pid] for pid in cpu1 if pid in cpu0), default=float("nan")) * 1000
    if profile:
        browser.stop_tracing()
        print(trace_summary(profile, top=15))
        print(layout_summary(profile))
        print(js_self_time(cdp.send("Profiler.stop")["profile"]))
    shown_ms = burst["last"] - burst["first"]
    while not all_acknowledged(page):
        time.sleep(0.005)
    acked_ms = (time.monotonic() - wall) * 1000
    context.close()
    dom = [d for d, _ in one]
    frame = [f for _, f in one]
    return {
        "moves": moves,
        "latency_ms": latency,
        "shown_dom_median": statistics.median(dom),
        "shown_frame_median": statistics.median(frame),
        "shown_frame_p90": sorted(frame)[int(0.9 * (len(frame) - 1))],
        "shown_frame_max": max(frame),
        "burst_shown_ms": shown_ms,
        "burst_frames": shown_ms / FRAME_MS,
        "burst_acked_ms": acked_ms,
        "burst_cpu_ms": cpu_ms,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--latency", type=float, default=150.0, help="ms added to every request (CDP)")
    ap.add_argument("--moves", type=int, default=30)
    ap.add_argument("--deal", type=int, default=4242)
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout whose server and page to run")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--json", type=Path, help="also write the figures here")
    ap.add_argument(
        "--profile",
        type=Path,
        metavar="FILE",
        help="also trace and profile the burst (the trace written to FILE; summaries printed)",
    )
    args = ap.parse_args()
    print(f"uptime: {os.popen('uptime').read().strip()}")
    print(f"server and page from {args.root}")
    results = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        server = RootServer(
            Path(tmp) / "server", args.root.resolve(), winnable_ready=0, hint_budget_s=0.1, par_budget_s=0.1
        )
        server.start()
        browser = pw.chromium.launch(executable_path=DEBIAN_CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for _ in range(args.repeat):
                r = bench(browser, server.base, args.deal, args.latency, args.moves, args.profile)
                results.append(r)
                print(
                    f"latency +{r['latency_ms']:.0f} ms, {r['moves']} moves one by one: input -> shown "
                    f"median {r['shown_frame_median']:.1f} ms (DOM {r['shown_dom_median']:.1f}), "
                    f"p90 {r['shown_frame_p90']:.1f}, max {r['shown_frame_max']:.1f}"
                )
                print(
                    f"  {r['moves']} moves as fast as accepted: last shown after {r['burst_shown_ms']:.0f} ms "
                    f"({r['burst_frames']:.1f} frames), "
                    f"all acknowledged by the server after {r['burst_acked_ms']:.0f} ms; the page's main thread "
                    f"ran {r['burst_cpu_ms']:.0f} ms of CPU ({r['burst_cpu_ms'] / r['moves']:.1f} ms a move)"
                )
        finally:
            browser.close()
            server.stop()
    print(f"uptime: {os.popen('uptime').read().strip()}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
