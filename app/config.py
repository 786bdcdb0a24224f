"""Server settings, read from environment variables prefixed `DEMON_` (pydantic-settings).

Every setting has an embedded default so `make run` needs no configuration; docs/self-hosting.md
lists them all. Settings are passed explicitly to the parts that need them (no global
singleton), so tests can build an app with their own values.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DEMON_", extra="ignore")

    host: str = Field("127.0.0.1", description="Address to listen on (0.0.0.0 in Docker).")
    port: int = Field(8000, description="TCP port.")
    public_url: str | None = Field(
        None,
        pattern=r"^https?://[^/\s]+/?$",
        description="The address friends use, e.g. https://cards.example.org; invite links carry it "
        "(default: the page's own address, or this machine's network address when listening on 0.0.0.0).",
    )
    published: str | None = Field(
        None,
        pattern=r"^(\[[0-9A-Fa-f:.]+\]:|[0-9A-Za-z.-]+:)?[0-9]{0,5}$",
        description="Where Docker publishes the server's port, written as Compose's PUBLISH_PORT is (8000, "
        "127.0.0.1:8080; 127.0.0.1: lets Docker choose the port, which the start-up line then cannot name): read "
        "only for the start-up line's address (the compose files pass it).",
    )
    share_lan_address: bool = Field(
        True,
        description="Offer this machine's local-network address for invite links and at start-up "
        "(false in the Docker image, where it would be the container's).",
    )
    data_dir: Path = Field(Path("data"), description="Where the SQLite database lives.")
    allowed_origins: str = Field(
        "",
        description="Comma-separated extra Origins allowed to open WebSockets; "
        "the page's own origin is always allowed.",
    )
    reconnect_grace_s: float = Field(120.0, description="How long a dropped seat is held.")
    empty_room_ttl_s: float = Field(300.0, description="A room nobody is connected to is removed after this.")
    countdown_s: float = Field(3.0, description="Countdown before a round starts (rule 4).")
    hello_timeout_s: float = Field(5.0, description="A socket must authenticate within this.")
    max_frame_bytes: int = Field(4096, description="Largest WebSocket frame accepted (close 1009 above).")
    rate_per_s: float = Field(20.0, description="Messages per second allowed per socket (sustained).")
    rate_burst: int = Field(40, description="Burst of messages allowed per socket before close 1008.")
    send_queue: int = Field(
        256, description="Messages waiting for a socket that cannot take them yet, before it is dropped (1013)."
    )
    replay_window: int = Field(512, description="Events a room keeps for reconnecting clients.")
    max_rooms: int = Field(2000, description="Rooms (and Devil's Grip games) held at once.")
    persist: bool = Field(True, description="Save rooms and Devil's Grip games to SQLite.")
    log_level: str = Field("info", description="Log level.")
    max_bots: int = Field(400, ge=0, description="Computer players held at once, in all rooms together.")
    open_tables: bool = Field(
        True,
        description='Open tables: hosts may list a table for strangers on this server, and "Play now" seats '
        "a person at one (false: no list, no Play now, every table is by link only).",
    )
    daily_time_limit_s: int = Field(300, ge=2, le=3600, description="The daily race's round lasts this long (seconds).")
    daily_secret: str = Field(
        "",
        description="The key mixed into the daily race's deal so that nobody can compute it from the source "
        "(16 characters or more; docs/daily.md). Unset: one is made on first start and kept in the data "
        "directory. Required, and the same on every process, with DEMON_PEERS.",
    )
    bot_think_scale: float = Field(
        1.0, gt=0, le=10, description="Testing only: multiplies every bot's think time (0.05 = twenty times faster)."
    )
    hint_workers: int = Field(1, ge=1, le=16, description="Worker processes answering Devil's Grip hints.")
    search_workers: int = Field(
        1, ge=1, le=16, description="Worker processes computing par and certifying winnable deals."
    )
    hint_queue: int = Field(8, ge=1, le=1000, description="Hints pending at once; more are refused (503) at once.")
    hint_budget_s: float = Field(
        0.25,
        gt=0,
        le=10,
        description="Search work for one hint, as the time it takes with a core to itself (a fixed amount of work: the same view gets the same hint on a busy machine).",
    )
    hint_deadline_s: float = Field(
        1.0, gt=0, le=30, description="Safety stop: a hint not answered this long after it arrives is refused (503)."
    )
    par_budget_s: float = Field(0.25, gt=0, le=10, description="Search time per hint when computing a deal's par.")
    solve_budget_s: float = Field(
        10.0, gt=0, le=600, description="Solver time per deal tried for 'only deals that can be won'."
    )
    winnable_ready: int = Field(
        3, ge=0, le=100, description="Certified winnable deals kept ready (0: none are searched for ahead)."
    )
    grip_worker: bool = Field(
        True,
        description="Answer Devil's Grip's HTTP API in a worker process of its own, so its requests take no "
        "time from the loop that relays Demon's plays (false: in the server's process, e.g. on a one-core machine).",
    )
    grip_worker_timeout_s: float = Field(
        30.0, gt=0, le=600, description="A Devil's Grip request the worker has not answered within this gets 503."
    )
    grip_search_rate_per_s: float = Field(4.0, gt=0, description="Hint, par and solution requests per second per game.")
    grip_search_burst: int = Field(8, ge=1, description="Such requests a game may make at once.")
    grip_addr_rate_per_s: float = Field(
        20.0, gt=0, description="Hint, par and solution requests per second per client address."
    )
    grip_addr_burst: int = Field(40, ge=1, description="Such requests one address may make at once.")
    # Hostile clients (docs/security.md): connections, per-address budgets, storage.
    request_timeout_s: float = Field(
        10.0,
        gt=0,
        le=300,
        description="A connection must send a complete HTTP request (head and body) within this, "
        "from its start or from the end of its previous answer; idle connections are closed after it too.",
    )
    max_connections: int = Field(
        1000,
        ge=1,
        description="Connections held at once (HTTP and WebSocket); more are closed at once. "
        "Lowered at start to what the process's open-file limit allows.",
    )
    max_connections_per_addr: int = Field(
        50,
        ge=1,
        description="Connections one client address may hold (behind a trusted proxy: WebSockets "
        "per forwarded address). IPv6 addresses count per /64.",
    )
    max_connections_per_prefix: int = Field(
        200,
        ge=1,
        description="Connections the addresses of one IPv4 /24 or IPv6 /48 may hold together "
        "(behind a trusted proxy: WebSockets per forwarded prefix).",
    )
    connection_reserve: int = Field(
        100,
        ge=0,
        description="Places of DEMON_MAX_CONNECTIONS that authenticated WebSockets may not take: "
        "kept for page loads, /health and players arriving (at most half the cap).",
    )
    trusted_proxies: str = Field(
        "",
        description="Comma-separated addresses or networks whose X-Forwarded-For is believed, walked from the "
        "right (* believes whichever proxy connects, one hop: the entry it added); "
        "empty (the default): nobody's, not even the loopback's.",
    )
    refusal_log_interval_s: float = Field(
        10.0, gt=0, description="Refused connections and requests are logged as one line of counts per interval."
    )
    max_body_bytes: int = Field(16384, ge=1024, description="Largest HTTP request body accepted (413 above).")
    room_create_per_min: float = Field(
        10.0, gt=0, description="Rooms (practice rooms included) one address may create per minute, sustained."
    )
    room_create_burst: int = Field(10, ge=1, description="Rooms one address may create at once.")
    join_per_min: float = Field(30.0, gt=0, description="Joins one address may make per minute, sustained.")
    join_burst: int = Field(20, ge=1, description="Joins one address may make at once.")
    grip_create_per_min: float = Field(
        30.0, gt=0, description="Devil's Grip games one address may start per minute, sustained."
    )
    grip_create_burst: int = Field(30, ge=1, description="Devil's Grip games one address may start at once.")
    miss_per_min: float = Field(
        10.0,
        gt=0,
        description="Misses (unknown room code, join, WebSocket token or Devil's Grip id) forgiven per "
        "minute per address; past the burst, such requests get 429 (sockets: close 1008).",
    )
    miss_burst: int = Field(20, ge=1, description="Misses one address may make at once.")
    unused_room_ttl_s: float = Field(
        90.0, gt=0, description="A room none of whose players ever opened its socket is removed after this."
    )
    unopened_practice_ttl_s: float = Field(
        15.0,
        gt=0,
        description="A practice room (you and bots) whose player never opened its socket is removed after this.",
    )
    bot_create_per_min: float = Field(
        14.0,
        gt=0,
        description="Bots one address may seat per minute in practice rooms, sustained (a room of 7 bots spends 7).",
    )
    bot_create_burst: int = Field(14, ge=7, description="Bots one address may seat at once in practice rooms.")
    grip_unplayed_ttl_s: float = Field(
        3600.0, gt=0, description="A Devil's Grip game in which no action was ever made is deleted after this."
    )
    grip_expiry_days: float = Field(30.0, gt=0, description="A Devil's Grip game untouched this long is deleted.")
    grip_max_stored: int = Field(
        100_000,
        ge=100,
        description="Devil's Grip games kept in the database at most; past it the least recently used go first.",
    )
    replay_expiry_days: float = Field(
        30.0,
        gt=0,
        description="A finished Demon round's replay, and a daily race's entries, are deleted this long "
        "after the round (the day).",
    )
    replay_max_stored: int = Field(
        50_000, ge=100, description="Demon replays kept in the database at most; past it the oldest go first."
    )
    wal_limit_mb: float = Field(
        64.0,
        gt=0,
        description="Bound on the SQLite write-ahead log: checkpointed as soon as it passes a quarter "
        "of this (and every 5 s), and truncated to an eighth after a checkpoint.",
    )
    # Several processes behind a load balancer (docs/self-hosting.md, "Several processes").
    shard: str = Field(
        "",
        pattern=r"^[A-HJ-NP-Z]*$",
        description="Letters this process's room codes and Devil's Grip ids start with, so that a load balancer "
        "can send every request and socket of a room to the process that owns it (empty: any letter, one process).",
    )
    peers: str = Field(
        "",
        description="Comma-separated base URLs of every process of the deployment (this one may be among "
        "them), e.g. http://10.0.0.2:8000; recent games and /health/all ask them all.",
    )
    peer_timeout_s: float = Field(
        1.0, gt=0, le=30, description="How long recent games and /health/all wait for a peer."
    )
    # What the self-hoster watches (docs/self-hosting.md, "Watching and backing up").
    metrics: bool = Field(
        True, description="Serve Prometheus metrics at /metrics (to the addresses of DEMON_METRICS_ALLOW only)."
    )
    metrics_allow: str = Field(
        "127.0.0.0/8,::1,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7",
        description="Comma-separated addresses or networks that may read /metrics (default: the loopback and "
        "the private ranges); anybody else gets 404.",
    )
    log_format: Literal["text", "json"] = Field(
        "text", description="Log lines as plain text, or one JSON object per line (json) for a log shipper."
    )
    loop: Literal["auto", "uvloop", "asyncio"] = Field(
        "auto",
        description="The event loop: auto (uvloop when installed, else asyncio's own), uvloop (refuse to start "
        "without it) or asyncio (never uvloop). The start-up lines and /health name the one that runs.",
    )
    test_seed: int | None = Field(
        None, ge=0, lt=2**64, description="Testing only: every Demon round is dealt from this seed."
    )
    test_layout: Path | None = Field(
        None,
        description="Testing only: a JSON file of Demon seats (DemonRound.to_json()'s form, 52 cards each); "
        "every round starts from its first seats (app/demon/room/fixed_layout.py).",
    )

    @field_validator("daily_secret")
    @classmethod
    def _long_enough(cls, value: str) -> str:
        if value and len(value) < 16:
            raise ValueError("DEMON_DAILY_SECRET must be at least 16 characters (or unset)")
        return value

    @field_validator("metrics_allow")
    @classmethod
    def _networks(cls, value: str) -> str:
        for part in value.split(","):
            if part.strip():
                ipaddress.ip_network(part.strip(), strict=False)  # ValueError names the bad one
        return value

    @property
    def trusted_proxy_list(self) -> str:
        """What uvicorn's `forwarded_allow_ips` gets: only the proxies named here. No
        fallback to the loopback or to uvicorn's FORWARDED_ALLOW_IPS: any ssh -L, socat or
        tunnel agent on this machine connects from the loopback and passes on whatever
        X-Forwarded-For its client wrote."""
        return ",".join(part.strip() for part in self.trusted_proxies.split(",") if part.strip())

    @property
    def origin_allow_list(self) -> frozenset[str]:
        return frozenset(o.strip().rstrip("/") for o in self.allowed_origins.split(",") if o.strip())

    @property
    def peer_list(self) -> list[str]:
        return [p.strip().rstrip("/") for p in self.peers.split(",") if p.strip()]
