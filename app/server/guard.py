"""The connection guard: what a connection may cost before the app ever sees it.

uvicorn's own options do not cover a half-open connection: its keep-alive timer runs
only *between* requests and is cancelled by the first byte of the next one, so a client
that sends an unfinished request head, then a byte every few seconds, holds its socket
(and a file descriptor) forever; so does a connection that sends nothing at all, and
`limit_concurrency` answers 503 only once a request head is complete. So the server runs
uvicorn's h11 protocol with this guard around it (`protocols`, passed to uvicorn as
`http=` and `ws=` classes):

* **A deadline per request.** From the moment a connection opens, and again from the end
  of each answer, the client has `DEMON_REQUEST_TIMEOUT_S` to deliver a complete request,
  head and body; otherwise the connection is closed. (An upgraded socket is then the
  WebSocket layer's business: `hello` within `DEMON_HELLO_TIMEOUT_S`, pings.)
* **Caps.** `DEMON_MAX_CONNECTIONS_PER_ADDR` from one address (IPv6: one /64) and
  `DEMON_MAX_CONNECTIONS_PER_PREFIX` from one IPv4 /24 or IPv6 /48; a connection past
  either is aborted as soon as it is accepted, so it costs a file descriptor for
  microseconds. At most `DEMON_MAX_CONNECTIONS` at once, of which authenticated
  WebSockets may take all but `DEMON_CONNECTION_RESERVE`; at the cap a newcomer takes
  the place of the oldest connection that is idle or has not authenticated
  (`ConnectionGuard`). A trusted proxy's connections count only towards the total: its clients
  are told apart by the address it forwards, which only the app can read (`app.py`
  counts WebSockets per forwarded address).
* **Quiet refusals.** Refusals are counted and logged at most once per
  `DEMON_REFUSAL_LOG_INTERVAL_S` as one line with the counts, not once per attempt; so is asyncio's
  "out of system resource" error of its accept loop (EMFILE), which `QuietAccept` turns
  into the same kind of summary, and uvicorn's access-log lines for 429 answers
  (`QuietRefusals`).
* **The file limit.** At start the soft `RLIMIT_NOFILE` is raised to the hard limit, and
  the total cap is lowered to what it leaves after a reserve for the database, the
  workers and the listening socket (`effective_max_connections`), so the cap, not the
  kernel, refuses the surplus.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
from collections import Counter
from collections.abc import Callable, MutableMapping
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request as WebSocketRequest

from app.config import Settings
from app.support.logfmt import log_event

log = logging.getLogger("demon.guard")

LOG_INTERVAL_S = 10.0
FD_RESERVE = 64  # descriptors kept for SQLite, the worker pools, logs and the listener


def _client_ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """`host` as an address (an IPv4-mapped IPv6 address as its IPv4), or None when it is
    not one (a Unix socket's name, a test client's)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return None
    if ip.version == 6 and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def address_key(host: str | None) -> str:
    """The key a client address is limited under: the address itself, or for IPv6 its
    /64 (one home or one server is given a whole /64, so single addresses cost nothing)."""
    ip = _client_ip(host) if host else None
    if ip is None:
        return host or "?"
    return str(ipaddress.ip_network(f"{ip}/64", strict=False)) if ip.version == 6 else str(ip)


def prefix_key(host: str | None) -> str:
    """The wider network a client address shares a connection cap with: its IPv4 /24, or
    its IPv6 /48 (a home's /56 holds 256 /64s, a site's /48 65,536)."""
    ip = _client_ip(host) if host else None
    if ip is None:
        return host or "?"
    return str(ipaddress.ip_network(f"{ip}/{24 if ip.version == 4 else 48}", strict=False))


class TrustedProxies:
    """The addresses whose X-Forwarded-For is believed: "*", single addresses or
    networks, comma-separated (the same list uvicorn's proxy-header middleware gets)."""

    def __init__(self, spec: str) -> None:
        self.any = False
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        self.names: set[str] = set()
        for item in (part.strip() for part in spec.split(",")):
            if not item:
                continue
            if item == "*":
                self.any = True
                continue
            try:
                self.networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                self.names.add(item)  # e.g. a unix socket path

    def __contains__(self, host: str | None) -> bool:
        if host is None:
            return False
        if self.any or host in self.names:
            return True
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(ip in net for net in self.networks)


class ForwardedFor:
    """Who the client is, behind proxies named in `DEMON_TRUSTED_PROXIES`.

    Each proxy appends the address it was connected from to `X-Forwarded-For` (HAProxy adds a
    header of its own; several headers read as one list, in order). Only the right end of
    that list is written by proxies; whatever is left of it may be the client's own
    invention. So the list is walked from the right: the connection's own address must be a
    trusted proxy, and each entry written by one is believed only as far as it names
    another trusted proxy; the first entry that does not is the client. When every entry
    is a trusted proxy, the left-most is the client (a trusted machine of one's own).
    `*` trusts whichever proxy connects, but one hop only: the client is the right-most
    entry, the one that proxy wrote. (uvicorn's own middleware reads the left-most entry
    for `*`: the one a client writes.) `X-Forwarded-Proto` from a trusted proxy sets the
    scheme, as uvicorn's does.

    `apply` rewrites an HTTP or WebSocket scope in place before anything reads its client
    (the app's first step: app/server/app.py `DemonApp`), so the budgets, the socket caps,
    the /metrics allow-list and the access log all see the same address."""

    SCHEMES = frozenset({"http", "https", "ws", "wss"})

    def __init__(self, spec: str) -> None:
        self.trusted = TrustedProxies(spec)
        self.enabled = self.trusted.any or bool(self.trusted.networks) or bool(self.trusted.names)

    def client(self, peer: str | None, forwarded: list[str]) -> str | None:
        """The client's address by the rule above, or None to keep the connection's own."""
        if peer not in self.trusted:
            return None
        hops = [_host_of(part) for value in forwarded for part in value.split(",")]
        hops = [h for h in hops if h]
        if not hops:
            return None
        if self.trusted.any:
            return hops[-1]
        for host in reversed(hops):
            if host not in self.trusted:
                return host
        return hops[0]

    def apply(self, scope: MutableMapping[str, Any]) -> None:
        if not self.enabled:
            return
        peer = scope.get("client")
        host = peer[0] if peer else None
        if host not in self.trusted:
            return
        forwarded: list[str] = []
        proto: str | None = None
        for name, value in scope.get("headers", ()):
            if name == b"x-forwarded-for":
                forwarded.append(value.decode("latin-1"))
            elif name == b"x-forwarded-proto":
                proto = value.decode("latin-1").strip().lower()
        if proto in self.SCHEMES:
            scope["scheme"] = proto.replace("http", "ws") if scope["type"] == "websocket" else proto
        client = self.client(host, forwarded)
        if client is not None:
            scope["client"] = (client, 0)


def _host_of(entry: str) -> str:
    """An X-Forwarded-For entry's address, without a port: `1.2.3.4:5`, `[::1]:5`, `::1`."""
    entry = entry.strip()
    if entry.startswith("["):
        end = entry.find("]")
        return entry[1:end] if end > 0 else entry
    if entry.count(":") == 1:
        return entry.split(":", 1)[0]
    return entry


class Throttled:
    """Counts occurrences of something that may happen thousands of times a second and
    logs them as one `event=... count=N` line per interval (the first at once)."""

    def __init__(
        self, event: str, interval_s: float = LOG_INTERVAL_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.event = event
        self.interval_s = interval_s
        self.clock = clock
        self.counts: Counter[str] = Counter()
        self.addresses: Counter[str] = Counter()
        self._next = 0.0
        self._timer: asyncio.TimerHandle | None = None

    def note(self, reason: str, address: str | None = None) -> None:
        self.counts[reason] += 1
        if address is not None:
            self.addresses[address] += 1
        now = self.clock()
        if now >= self._next:
            self.flush(now)
        elif self._timer is None:  # the rest of this interval is logged when it ends
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return
            self._timer = loop.call_later(self._next - now, self.flush)

    def flush(self, now: float | None = None) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self.counts:
            return
        self._next = (self.clock() if now is None else now) + self.interval_s
        top = ",".join(f"{a}:{n}" for a, n in self.addresses.most_common(3))
        fields = dict(sorted(self.counts.items()))
        log_event(self.event, count=sum(self.counts.values()), window_s=self.interval_s, **fields, top=top or "-")
        self.counts.clear()
        self.addresses.clear()


def effective_max_connections(wanted: int) -> int:
    """`wanted`, or less if the process may not open that many files (after raising the
    soft limit to the hard one, which any process may do)."""
    try:
        import resource
    except ImportError:  # not on Unix
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return wanted
    allowed = max(1, soft - FD_RESERVE)
    if allowed < wanted:
        log.warning("DEMON_MAX_CONNECTIONS=%d lowered to %d: the process may open %d files", wanted, allowed, soft)
        return allowed
    return wanted


class ConnectionGuard:
    """The open connections of the process, per address and per prefix, in two classes.

    *Established* connections are WebSockets whose `hello` opened a seat; they may hold at
    most `max_total - reserve` places. Everything else is either *busy* (a whole request
    has arrived and is being answered: short, and under the server's control) or
    *evictable*: an HTTP connection waiting for its (next) request, idle or trickling a
    head, or a WebSocket that has not authenticated yet. When every place is taken, a
    newcomer takes the place of the oldest evictable connection. So a crowd of idle
    seats cannot take the last `reserve` places, a crowd of half-open connections is
    pushed out by newcomers instead of keeping them out, and `/health` and a visitor's
    page are still answered."""

    def __init__(self, settings: Settings, *, max_connections: int | None = None) -> None:
        self.request_timeout_s = settings.request_timeout_s
        self.max_total = max_connections if max_connections is not None else settings.max_connections
        self.reserve = min(settings.connection_reserve, self.max_total // 2)
        self.max_established = self.max_total - self.reserve
        self.max_per_addr = settings.max_connections_per_addr
        self.max_per_prefix = settings.max_connections_per_prefix
        self.trusted = TrustedProxies(settings.trusted_proxy_list)
        self.open: dict[asyncio.Transport, tuple[str, str]] = {}  # transport -> (address, prefix)
        self.per_addr: Counter[str] = Counter()
        self.per_prefix: Counter[str] = Counter()
        # Oldest first: a dict keeps insertion order, and a connection that becomes
        # evictable again (the end of an answer) is inserted anew, at the end.
        self.evictable: dict[asyncio.Transport, None] = {}
        self.established: set[asyncio.Transport] = set()
        self.refusals = Throttled("connections_refused", settings.refusal_log_interval_s)

    def admit(self, transport: asyncio.Transport) -> bool:
        peer = transport.get_extra_info("peername")
        host = peer[0] if isinstance(peer, tuple) and peer else None
        key, prefix = address_key(host), prefix_key(host)
        if host not in self.trusted:
            if self.per_addr[key] >= self.max_per_addr:
                self.refusals.note("per_addr", key)
                return False
            if self.per_prefix[prefix] >= self.max_per_prefix:
                self.refusals.note("per_prefix", prefix)
                return False
        if len(self.open) >= self.max_total and not self._evict_oldest():
            self.refusals.note("total", key)
            return False
        self.open[transport] = (key, prefix)
        self.per_addr[key] += 1
        self.per_prefix[prefix] += 1
        self.evictable[transport] = None
        return True

    def _evict_oldest(self) -> bool:
        victim = next(iter(self.evictable), None)
        if victim is None:  # every place is an authenticated seat or a request being answered
            return False
        self.refusals.note("evicted", self.open[victim][0])
        self.release(victim)
        victim.abort()
        return True

    def waiting(self, transport: asyncio.Transport) -> None:
        """The connection waits for a request (or, a WebSocket, for its hello)."""
        if transport in self.open and transport not in self.established:
            self.evictable.pop(transport, None)
            self.evictable[transport] = None

    def busy(self, transport: asyncio.Transport) -> None:
        """A whole request has arrived: it is answered before the connection can go."""
        self.evictable.pop(transport, None)

    def establish(self, transport: asyncio.Transport) -> bool:
        """A WebSocket authenticated; False when the established places are all taken."""
        if transport not in self.open:
            return False
        if transport not in self.established:
            if len(self.established) >= self.max_established:
                self.refusals.note("established_full", self.open[transport][0])
                return False
            self.established.add(transport)
        self.evictable.pop(transport, None)
        return True

    def release(self, transport: asyncio.Transport) -> None:
        keys = self.open.pop(transport, None)
        if keys is None:
            return
        self.evictable.pop(transport, None)
        self.established.discard(transport)
        for counter, key in ((self.per_addr, keys[0]), (self.per_prefix, keys[1])):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]


ADMISSION = "demon.admission"  # the scope extension a guarded WebSocket carries (app/server/ws.py)


def protocols(guard: ConnectionGuard) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's h11 HTTP protocol and websockets-sansio protocol, guarded."""

    class GuardedHTTP(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _admitted = False

        # asyncio gives a stream protocol a Transport; H11Protocol narrows the argument the same way.
        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if not guard.admit(transport):
                self.connections.discard(self)
                transport.abort()
                return
            self._admitted = True
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(guard.request_timeout_s, self._expired)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expired(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                guard.refusals.note("request_timeout", guard.open.get(self.transport, ("?",))[0])
                self.transport.abort()

        def data_received(self, data: bytes) -> None:
            if not self._admitted:
                return
            super().data_received(data)
            if self._deadline is not None and (
                self.transport.get_protocol() is not self or self.conn.their_state not in _WAITING
            ):
                self._disarm()  # a whole request arrived (or the socket is now a WebSocket)
                if self.transport.get_protocol() is self:
                    guard.busy(self.transport)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.transport.get_protocol() is self:
                self._arm()  # the next request, or idleness, is timed from here
                guard.waiting(self.transport)
                if self.conn.their_state not in _WAITING:
                    self._disarm()  # a pipelined request was already complete
                    guard.busy(self.transport)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if not self._admitted:
                self.connections.discard(self)
                return
            super().connection_lost(exc)
            if self.transport.get_protocol() is self:  # not handed over to a WebSocket
                guard.release(self.transport)

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._disarm()
            guard.waiting(self.transport)  # for its hello: never-authenticated, evictable
            super().handle_websocket_upgrade(event)

    class GuardedWebSocket(WebSocketsSansIOProtocol):
        def handle_connect(self, event: WebSocketRequest) -> None:
            super().handle_connect(event)
            # The app's task is created but has not run yet: it finds in its scope how to
            # claim an established place once its hello is good.
            if getattr(self, "scope", None) is not None and self.transport is not None:
                transport = self.transport
                self.scope["extensions"][ADMISSION] = {"establish": lambda: guard.establish(transport)}

        def connection_lost(self, exc: Exception | None) -> None:
            try:
                super().connection_lost(exc)
            finally:
                guard.release(self.transport)

    return GuardedHTTP, GuardedWebSocket


_WAITING = frozenset({h11.IDLE, h11.SEND_BODY})  # the client's states before a whole request


class QuietAccept(logging.Filter):
    """Log messages a flood can repeat thousands of times a second, each counted under a
    reason and summarised once per interval: asyncio's "socket.accept() out of system
    resource" (its accept loop meeting EMFILE; it then pauses accepting for a second) and
    uvicorn's warnings about malformed requests."""

    MESSAGES = (
        ("out of system resource", "out_of_resources"),
        ("Invalid HTTP request received", "invalid_request"),
        ("Unsupported upgrade request", "unsupported_upgrade"),
    )

    def __init__(self, interval_s: float = LOG_INTERVAL_S) -> None:
        super().__init__()
        # (asyncio and uvicorn log from the event loop's thread, so the throttle's timer works)
        self.throttled = Throttled("log_flood", interval_s)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        for text, reason in self.MESSAGES:
            if text in message:
                self.throttled.note(reason)
                return False
        return True


class QuietRefusals(logging.Filter):
    """uvicorn's access log writes a line per request; a flood that the budgets refuse
    (429) would still write thousands a second. Those lines are counted instead, and
    one summary per interval is written."""

    STATUSES = frozenset({429})

    def __init__(self, interval_s: float = LOG_INTERVAL_S) -> None:
        super().__init__()
        self.throttled = Throttled("requests_refused", interval_s)

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 5 and args[4] in self.STATUSES:
            client = args[0]
            self.throttled.note(f"status_{args[4]}", str(client).rsplit(":", 1)[0] if client else None)
            return False
        return True


class QuietHealth(logging.Filter):
    """The health checks' access-log lines at debug level, not info: HAProxy asks every
    process's /health/accepting every second and /health every two, Docker's HEALTHCHECK
    /health every thirty, and each answer was a line in the log. A peer's ask
    (`/health?from=peer`, app/server/cluster.py) is still logged: it comes only when
    someone asks /health/all."""

    PATHS = frozenset({"/health", "/health/accepting"})

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 5 and args[2] in self.PATHS and args[1] == "GET":
            return logging.getLogger("uvicorn.access").isEnabledFor(logging.DEBUG)
        return True
