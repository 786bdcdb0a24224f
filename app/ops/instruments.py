"""The counters and histograms the server's hot paths feed (prometheus-client).

Why these and not gauges: what is *state* (rooms, people, sockets, queue depth) is read
when Prometheus scrapes (`census.py`) and costs a move nothing; only what *happens*
(a move applied or refused, a flush, a hint) must be counted as it happens. Each call
below is a pre-bound child (`.labels()` looked up once, here), so a move pays a lock
and an addition, not a label lookup; refusals look their code up, being rarer.

They live in one registry of their own, `REGISTRY`, process-wide like the process
itself; `census.py` exposes it beside the state of the app that is scraped. Times are
in seconds (Prometheus' base unit).
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.process_collector import ProcessCollector

REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)  # CPU seconds, resident memory, open files (Linux /proc)

# Fast paths: a move is ~0.1-0.3 ms of CPU, a flush ~0.05-2 ms, a commit ~0.05-5 ms.
_FAST = (0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
_HINT = (0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0, 2.5, 5.0)

_moves = Counter(
    "demon_moves_total", "Demon moves handled, by result (applied or refused).", ["result"], registry=REGISTRY
)
MOVES_APPLIED = _moves.labels("applied")
_MOVES_REFUSED = _moves.labels("refused")
_refusals = Counter(
    "demon_moves_refused_total", "Demon moves refused, by the refusal's code.", ["code"], registry=REGISTRY
)
MOVE_SECONDS = Histogram(
    "demon_move_seconds",
    "Time to handle one Demon move (validation done; the room's change and its events queued).",
    buckets=_FAST,
    registry=REGISTRY,
)
FANOUT_SECONDS = Histogram(
    "demon_fanout_seconds",
    "Time a flush spends handing frames to sockets (onlookers and movers together).",
    buckets=_FAST,
    registry=REGISTRY,
)
FLUSH_SECONDS = Histogram(
    "demon_flush_seconds", "Time of one whole flush (frames and commit).", buckets=_FAST, registry=REGISTRY
)
SAVE_SECONDS = Histogram(
    "demon_save_seconds", "Time of one group commit of the rooms a flush changed.", buckets=_FAST, registry=REGISTRY
)

# The rooms' event loop: how late a timer due every 0.1 s fires (app/server/loop/watch.py),
# and the process's full garbage collections (app/server/loop/collector.py).
_LAG = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
LOOP_LAG_SECONDS = Histogram(
    "demon_loop_lag_seconds",
    "How late the event loop runs a timer due every 0.1 s: what every table of the process waited at that moment.",
    buckets=_LAG,
    registry=REGISTRY,
)
LOOP_STALLS = Counter(
    "demon_loop_stalls_total",
    "Times the event loop ran a timer 0.1 s late or more (every table of the process stopped for that long).",
    registry=REGISTRY,
)
_full_collections = Histogram(
    "demon_gc_full_collection_seconds",
    "Full garbage collections and their pause, by whether people were racing (racing) or not (quiet).",
    ["when"],
    buckets=_LAG,
    registry=REGISTRY,
)
GC_FULL_QUIET = _full_collections.labels("quiet")
GC_FULL_RACING = _full_collections.labels("racing")

GRIP_GAMES = Counter("devils_grip_games_started_total", "Devil's Grip games dealt.", registry=REGISTRY)
GRIP_HINTS = Counter("devils_grip_hints_total", "Devil's Grip hints asked for.", registry=REGISTRY)
GRIP_HINT_SECONDS = Histogram(
    "devils_grip_hint_seconds",
    "Time from a hint's arrival to its answer (queue and search).",
    buckets=_HINT,
    registry=REGISTRY,
)
_grip_refusals = Counter(
    "devils_grip_refusals_total",
    "Devil's Grip requests refused, by reason: "
    "rate_limit (429), busy (hint engine full, 503), guessing (unknown game id or "
    "token).",
    ["reason"],
    registry=REGISTRY,
)
GRIP_REFUSED_RATE = _grip_refusals.labels("rate_limit")
GRIP_REFUSED_BUSY = _grip_refusals.labels("busy")
GRIP_REFUSED_GUESSING = _grip_refusals.labels("guessing")


def move_refused(code: str) -> None:
    """A move the room refused (`rejected`, not a duplicate), by its code."""
    _MOVES_REFUSED.inc()
    _refusals.labels(code).inc()
