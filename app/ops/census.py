"""The registry `/metrics` exposes: the hot paths' instruments and the state read at scrape.

Rooms by phase, people, spectators, bots, open sockets, Devil's Grip games held, the hint
queue and the database's size are *state*: they are read here, when Prometheus asks
(every 15 s or so), from a `Census` the web edge fills in by looking at the hub, so a
move pays nothing for them. The read runs on the event loop, so it sees the rooms
between two changes (one pass over at most `DEMON_MAX_ROOMS` rooms: well under a
millisecond for hundreds of rooms).

Several processes behind HAProxy (docs/self-hosting.md, "Several processes"): every
sample carries the process's `shard` label (none when the process runs alone), added
here at scrape time too, so that one Prometheus scraping every process can tell them
apart or sum them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from prometheus_client import CollectorRegistry, Metric
from prometheus_client.core import GaugeMetricFamily, InfoMetricFamily
from prometheus_client.registry import Collector

from app.ops import instruments


@dataclass
class Census:
    """What the process holds right now (filled by the web edge, `app/server/metrics_http.py`)."""

    rooms_by_phase: dict[str, int] = field(default_factory=dict)
    people: int = 0  # seated people (not bots), connected or within their grace period
    spectators: int = 0
    bots: int = 0
    sockets: int = 0  # open room sockets
    grip_games: int = 0  # Devil's Grip games held in memory
    hint_queue: int = 0  # hints queued or being searched
    search_queue: int = 0  # par searches a player waits for, pending
    database: Path | None = None  # the SQLite file, None without persistence


def _file_size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _with_shard(families: Iterable[Metric], shard: str) -> Iterable[Metric]:
    """The families with `shard` added to every sample's labels (fresh objects each
    collect, so they are changed in place)."""
    for family in families:
        if shard:
            family.samples = [s._replace(labels={**s.labels, "shard": shard}) for s in family.samples]
        yield family


class _Instruments(Collector):
    """The process-wide instruments (`instruments.REGISTRY`), with the shard label; with a
    Devil's Grip worker (app/server/gripproc), the Devil's Grip ones are the worker's
    (`worker`, read at the scrape), this process's own being zeros it never counts."""

    def __init__(self, shard: str, worker: Callable[[], Iterable[Metric]] | None = None) -> None:
        self.shard = shard
        self.worker = worker

    def collect(self) -> Iterable[Metric]:
        if self.worker is None:
            return _with_shard(instruments.REGISTRY.collect(), self.shard)
        own = [f for f in instruments.REGISTRY.collect() if not f.name.startswith("devils_grip")]
        return _with_shard([*own, *self.worker()], self.shard)


class _State(Collector):
    """The gauges, read from a fresh `Census` at each scrape."""

    def __init__(self, read: Callable[[], Census], shard: str, version: str, schema: Callable[[], int | None]) -> None:
        self.read = read
        self.shard = shard
        self.version = version
        self.schema = schema

    def collect(self) -> Iterable[Metric]:
        census = self.read()
        rooms = GaugeMetricFamily("demon_rooms", "Demon rooms held, by phase.", labels=["phase"])
        for phase, count in sorted(census.rooms_by_phase.items()):
            rooms.add_metric([phase], count)
        families: list[Metric] = [rooms]
        for name, text, value in (
            ("demon_people", "People seated at a Demon table (bots not counted).", census.people),
            ("demon_spectators", "Spectators of Demon rooms.", census.spectators),
            ("demon_bots", "Computer players seated in Demon rooms.", census.bots),
            ("demon_open_sockets", "Room WebSockets open.", census.sockets),
            ("devils_grip_games", "Devil's Grip games held in memory.", census.grip_games),
            ("devils_grip_hint_queue", "Devil's Grip hints queued or being searched.", census.hint_queue),
            ("devils_grip_search_queue", "Par searches players wait for, pending.", census.search_queue),
        ):
            families.append(GaugeMetricFamily(name, text, value=value))
        if census.database is not None:
            families.append(
                GaugeMetricFamily(
                    "demon_sqlite_file_bytes",
                    "Size of the SQLite database file.",
                    value=_file_size(str(census.database)),
                )
            )
            families.append(
                GaugeMetricFamily(
                    "demon_sqlite_wal_bytes", "Size of its write-ahead log.", value=_file_size(f"{census.database}-wal")
                )
            )
        schema = self.schema()
        info = InfoMetricFamily("demon_build", "The server's version and database schema version.")
        info.add_metric([], {"version": self.version, "schema": "" if schema is None else str(schema)})
        families.append(info)
        return _with_shard(families, self.shard)


def registry(
    read: Callable[[], Census],
    *,
    shard: str,
    version: str,
    schema: Callable[[], int | None],
    worker: Callable[[], Iterable[Metric]] | None = None,
) -> CollectorRegistry:
    """A registry for one app: the process's instruments and this app's state. (One per
    app, not the global one, so that tests can build several apps in one process.)
    `worker`: the Devil's Grip worker's instruments, when it has one."""
    reg = CollectorRegistry(auto_describe=False)
    reg.register(_Instruments(shard, worker))
    reg.register(_State(read, shard, version, schema))
    return reg
