"""Server settings, read from environment variables prefixed `DEMON_` (pydantic-settings).

Every setting has an embedded default so `make run` needs no configuration; README.md
lists them all. Settings are passed explicitly to the parts that need them (no global
singleton), so tests can build an app with their own values.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DEMON_", extra="ignore")

    host: str = Field("127.0.0.1", description="Address to listen on (0.0.0.0 in Docker).")
    port: int = Field(8000, description="TCP port.")
    public_url: str | None = Field(
        None, pattern=r"^https?://[^/\s]+/?$",
        description="The address friends use, e.g. https://cards.example.org; invite links carry it "
        "(default: the page's own address, or this machine's network address when listening on 0.0.0.0).",
    )
    share_lan_address: bool = Field(
        True, description="Offer this machine's local-network address for invite links and at start-up "
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
    send_queue: int = Field(256, description="Messages waiting for a socket that cannot take them yet, before it is dropped (1013).")
    replay_window: int = Field(512, description="Events a room keeps for reconnecting clients.")
    max_rooms: int = Field(2000, description="Rooms (and Devil's Grip games) held at once.")
    persist: bool = Field(True, description="Save rooms and Devil's Grip games to SQLite.")
    log_level: str = Field("info", description="Log level.")
    max_bots: int = Field(400, ge=0, description="Computer players held at once, in all rooms together.")
    bot_think_scale: float = Field(
        1.0, gt=0, le=10, description="Testing only: multiplies every bot's think time (0.05 = twenty times faster)."
    )
    hint_workers: int = Field(1, ge=1, le=16, description="Worker processes answering Devil's Grip hints.")
    search_workers: int = Field(1, ge=1, le=16, description="Worker processes computing par and certifying winnable deals.")
    hint_queue: int = Field(8, ge=1, le=1000, description="Hints pending at once; more are refused (503) at once.")
    hint_budget_s: float = Field(
        0.25, gt=0, le=10, description="Search work for one hint, as the time it takes with a core to itself (a fixed amount of work: the same view gets the same hint on a busy machine)."
    )
    hint_deadline_s: float = Field(
        1.0, gt=0, le=30, description="Safety stop: a hint not answered this long after it arrives is refused (503)."
    )
    par_budget_s: float = Field(0.25, gt=0, le=10, description="Search time per hint when computing a deal's par.")
    solve_budget_s: float = Field(10.0, gt=0, le=600, description="Solver time per deal tried for 'only deals that can be won'.")
    winnable_ready: int = Field(3, ge=0, le=100, description="Certified winnable deals kept ready (0: none are searched for ahead).")
    grip_search_rate_per_s: float = Field(4.0, gt=0, description="Hint, par and solution requests per second per game.")
    grip_search_burst: int = Field(8, ge=1, description="Such requests a game may make at once.")
    grip_addr_rate_per_s: float = Field(20.0, gt=0, description="Hint, par and solution requests per second per client address.")
    grip_addr_burst: int = Field(40, ge=1, description="Such requests one address may make at once.")
    # Hostile clients (docs/security.md): connections, per-address budgets, storage.
    request_timeout_s: float = Field(
        10.0, gt=0, le=300, description="A connection must send a complete HTTP request (head and body) within this, "
        "from its start or from the end of its previous answer; idle connections are closed after it too.")
    max_connections: int = Field(
        1000, ge=1, description="Connections held at once (HTTP and WebSocket); more are closed at once. "
        "Lowered at start to what the process's open-file limit allows.")
    max_connections_per_addr: int = Field(
        50, ge=1, description="Connections one client address may hold (behind a trusted proxy: WebSockets "
        "per forwarded address). IPv6 addresses count per /64.")
    trusted_proxies: str | None = Field(
        None, description="Comma-separated addresses or networks (or *) whose X-Forwarded-For is believed; "
        "unset: FORWARDED_ALLOW_IPS, else 127.0.0.1,::1.")
    refusal_log_interval_s: float = Field(
        10.0, gt=0, description="Refused connections and requests are logged as one line of counts per interval.")
    max_body_bytes: int = Field(16384, ge=1024, description="Largest HTTP request body accepted (413 above).")
    room_create_per_min: float = Field(10.0, gt=0, description="Rooms (practice rooms included) one address may create per minute, sustained.")
    room_create_burst: int = Field(10, ge=1, description="Rooms one address may create at once.")
    join_per_min: float = Field(30.0, gt=0, description="Joins one address may make per minute, sustained.")
    join_burst: int = Field(20, ge=1, description="Joins one address may make at once.")
    grip_create_per_min: float = Field(30.0, gt=0, description="Devil's Grip games one address may start per minute, sustained.")
    grip_create_burst: int = Field(30, ge=1, description="Devil's Grip games one address may start at once.")
    miss_per_min: float = Field(
        10.0, gt=0, description="Misses (unknown room code, join, WebSocket token or Devil's Grip id) forgiven per "
        "minute per address; past the burst, such requests get 429 (sockets: close 1008).")
    miss_burst: int = Field(20, ge=1, description="Misses one address may make at once.")
    unused_room_ttl_s: float = Field(
        90.0, gt=0, description="A room none of whose players ever opened its socket is removed after this.")
    grip_unplayed_ttl_s: float = Field(
        3600.0, gt=0, description="A Devil's Grip game in which no action was ever made is deleted after this.")
    grip_expiry_days: float = Field(30.0, gt=0, description="A Devil's Grip game untouched this long is deleted.")
    grip_max_stored: int = Field(
        100_000, ge=100, description="Devil's Grip games kept in the database at most; past it the least recently "
        "used go first.")
    wal_limit_mb: float = Field(
        64.0, gt=0, description="Size the SQLite write-ahead log is truncated to after a checkpoint.")
    # Several processes behind a load balancer (docs/self-hosting.md, "Several processes").
    shard: str = Field(
        "", pattern=r"^[A-HJ-NP-Z]*$",
        description="Letters this process's room codes and Devil's Grip ids start with, so that a load balancer "
        "can send every request and socket of a room to the process that owns it (empty: any letter, one process).")
    peers: str = Field(
        "", description="Comma-separated base URLs of every process of the deployment (this one may be among "
        "them), e.g. http://10.0.0.2:8000; recent games and /health/all ask them all.")
    peer_timeout_s: float = Field(1.0, gt=0, le=30, description="How long recent games and /health/all wait for a peer.")
    test_seed: int | None = Field(
        None, ge=0, lt=2**64, description="Testing only: every Demon round is dealt from this seed."
    )
    test_layout: Path | None = Field(
        None, description="Testing only: a JSON file of Demon seats (DemonRound.to_json()'s form, 52 cards each); "
        "every round starts from its first seats (app/demon/room/test_layout.py)."
    )

    @property
    def trusted_proxy_list(self) -> str:
        """What uvicorn's `forwarded_allow_ips` gets: this setting, else uvicorn's own
        environment variable, else the loopback (a proxy on the same machine)."""
        if self.trusted_proxies is not None:
            return self.trusted_proxies
        return os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")

    @property
    def origin_allow_list(self) -> frozenset[str]:
        return frozenset(o.strip().rstrip("/") for o in self.allowed_origins.split(",") if o.strip())

    @property
    def peer_list(self) -> list[str]:
        return [p.strip().rstrip("/") for p in self.peers.split(",") if p.strip()]
