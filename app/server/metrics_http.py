"""`GET /metrics`: Prometheus' view of this process (docs/self-hosting.md, "Watching and backing up").

Off with `DEMON_METRICS=false` (the route then answers 404); on, it answers only the
addresses of `DEMON_METRICS_ALLOW` (the loopback and private ranges by default) and 404
to anybody else, so a public server shows strangers nothing. The exposition is the
library's (`prometheus_client.generate_latest`); what is read at scrape time comes from
`census`, which looks at the hub, the Devil's Grip games and the hint pools as they are
between two changes (the handler runs on the event loop, like every change). With the
Devil's Grip worker (the default), its games, pools and `devils_grip_*` counters are
asked of it first (`GripRelay.refresh_metrics`, one frame each way).
"""

from __future__ import annotations

from collections import Counter

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

import app as app_pkg
from app.demon.hub.hub import Hub
from app.ops import census as ops_census
from app.ops.access import Network, allowed, parse_networks
from app.server.gripproc.parts import GripFigures, GripParts
from app.server.gripproc.relay import GripRelay
from app.storage.store import Store

router = APIRouter()


def census(hub: Hub, grip: GripFigures | None, store: Store | None) -> ops_census.Census:
    """Count what the process holds now: one pass over its rooms (and what the Devil's
    Grip service holds: zeros while its worker is down)."""
    phases: Counter[str] = Counter()
    people = spectators = bots = sockets = 0
    for handle in hub.rooms.values():
        room = handle.room
        phases[room.phase.value] += 1
        for player in room.players:
            if player.bot is not None:
                bots += 1
            elif not player.left:
                people += 1
        spectators += len(room.spectators)
        sockets += len(handle.pipes)
    return ops_census.Census(
        rooms_by_phase=dict(phases),
        people=people,
        spectators=spectators,
        bots=bots,
        sockets=sockets,
        grip_games=grip.games if grip else 0,
        hint_queue=grip.hint_queue if grip else 0,
        search_queue=grip.search_queue if grip else 0,
        database=store.path if store is not None else None,
    )


def build(hub: Hub, grip: GripParts | GripRelay, store: Store | None, shard: str) -> CollectorRegistry:
    """The registry of one app (`create_app` calls it once). `grip`: the Devil's Grip
    service in this process, or the relay to its worker (whose figures `metrics` has
    fetched just before the registry is read)."""
    return ops_census.registry(
        lambda: census(hub, grip.figures(), store),
        shard=shard,
        version=app_pkg.__version__,
        schema=lambda: store.version if store is not None else None,
        worker=grip.metric_families if isinstance(grip, GripRelay) else None,
    )


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    state = request.app.state
    networks: list[Network] | None = getattr(state, "metrics_networks", None)
    client = request.client.host if request.client is not None else None
    if not state.settings.metrics or networks is None or not allowed(client, networks):
        raise HTTPException(404, "Not Found")
    relay: GripRelay | None = getattr(state, "grip_relay", None)
    if relay is not None:
        await relay.refresh_metrics()
    return Response(generate_latest(state.metrics_registry), media_type=CONTENT_TYPE_LATEST)


def install(
    app_state: object, hub: Hub, grip: GripParts | GripRelay, store: Store | None, shard: str, allow: str
) -> None:
    """Put the registry and the allowed networks on the app's state."""
    # setattr: Starlette's State takes any attribute, which its type does not say
    setattr(app_state, "metrics_registry", build(hub, grip, store, shard))  # noqa: B010
    setattr(app_state, "metrics_networks", parse_networks(allow))  # noqa: B010
