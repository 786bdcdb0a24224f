"""Which address to put in an invite link, so that it reaches friends and not only the host.

A newcomer runs `make run` and opens http://127.0.0.1:8000; a link built from that page's
own address works on nobody else's machine. This module knows the better answers, in
order:

1. `DEMON_PUBLIC_URL`, when the self-hoster set it (a reverse proxy, a domain name);
2. the address the page was opened with, when that is not a loopback one (the friend's
   browser can reach what the host's browser reached; behind a proxy that forwards
   `X-Forwarded-Host`/`-Proto`, uvicorn and `forwarded_origin` give the public one);
3. this machine's local-network address, when the server listens on every interface;
4. nothing better: the link stays a loopback one and the lobby says what to do.

It also writes the start-up lines that tell the host, before anyone opens a page, what
to share and how to listen on the network (the default stays loopback-only, so that no
server is exposed by surprise).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

# typing_extensions' (a dependency of pydantic): FastAPI builds the answer's schema from it,
# and pydantic accepts typing.TypedDict only from Python 3.12.
from typing_extensions import TypedDict

# Any address outside this machine works: connecting a UDP socket sends nothing, it only
# makes the kernel pick the interface (and so the address) that would be used to get there.
_ROUTE_PROBE = ("192.0.2.1", 9)  # TEST-NET-1 (RFC 5737): routed like the Internet, never used
_EVERY_INTERFACE = {"0.0.0.0", "::", ""}


def is_loopback_host(host: str) -> bool:
    """True for localhost names and 127.0.0.0/8, ::1 (the host part of a URL, no port)."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that other machines on its networks may reach, best
    guess first (the one on the default route). Inside a Docker container these are the
    container's own addresses, which mean nothing to friends outside it: the image turns
    them off with DEMON_SHARE_LAN_ADDRESS=false (docker/Dockerfile)."""
    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(_ROUTE_PROBE)
            found.append(probe.getsockname()[0])
        except OSError:
            pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            if isinstance(host := info[4][0], str):  # always, for AF_INET: (host, port)
                found.append(host)
    except OSError:
        pass
    usable = []
    for address in found:
        ip = ipaddress.ip_address(address)
        if not (ip.is_loopback or ip.is_unspecified or ip.is_link_local) and address not in usable:
            usable.append(address)
    return usable


def _origin(scheme: str, host: str, port: int) -> str:
    default = {"http": 80, "https": 443}.get(scheme)
    name = f"[{host}]" if ":" in host else host
    return f"{scheme}://{name}" if port == default else f"{scheme}://{name}:{port}"


class InviteJson(TypedDict):
    """`GET /api/invite`'s answer, as the lobby reads it."""

    base: str
    loopback_only: bool
    listening_on_network: bool
    lan: list[str]


@dataclass(frozen=True)
class Invite:
    """The base address for links (`https://cards.example`, no trailing slash), whether
    it only works on this machine, and the local-network addresses one could listen on."""

    base: str
    loopback_only: bool
    listening_on_network: bool
    lan: tuple[str, ...]

    def to_json(self) -> InviteJson:
        return {
            "base": self.base,
            "loopback_only": self.loopback_only,
            "listening_on_network": self.listening_on_network,
            "lan": list(self.lan),
        }


def invite_for(
    page_origin: str, *, public_url: str | None, listen_host: str, port: int, lan: list[str] | None = None
) -> Invite:
    """The invite base for a page opened at `page_origin` (scheme://host[:port])."""
    on_network = listen_host in _EVERY_INTERFACE
    lan = lan_addresses() if lan is None else lan
    if public_url:
        return Invite(public_url.rstrip("/"), False, on_network, tuple(lan))
    parts = urlsplit(page_origin)
    scheme, host = parts.scheme or "http", parts.hostname or ""
    if not is_loopback_host(host):
        return Invite(page_origin.rstrip("/"), False, on_network, tuple(lan))
    if on_network and lan:
        return Invite(_origin(scheme, lan[0], port), False, True, tuple(lan))
    return Invite(page_origin.rstrip("/"), True, on_network, tuple(lan))


def published_origin(published: str) -> str:
    """The address a published port is opened at, from Compose's way of writing it
    (`8080`, `127.0.0.1:8080`, `[::1]:8080`): on every interface means this machine."""
    host, _, port = published.rpartition(":")
    host = host.strip("[]")
    return _origin("http", "localhost" if host in ("", *_EVERY_INTERFACE) else host, int(port))


def startup_lines(
    *,
    public_url: str | None,
    listen_host: str,
    port: int,
    lan: list[str] | None = None,
    published: str | None = None,
    in_container: bool = False,
) -> list[str]:
    """What `python -m app` prints before serving: where to play and what to share. In a
    container the port it listens on is not the one people open: Docker publishes it
    elsewhere (DEMON_PUBLISHED says where, as compose passes PUBLISH_PORT); without it the
    line says that the address cannot be known from inside."""
    lan = lan_addresses() if lan is None else lan
    if published and not published.endswith(":"):  # `127.0.0.1:` is any port Docker chose: not known here
        lines = [f"Demon & Devil's Grip: open {published_origin(published)} in your browser."]
        if public_url:
            lines.append(f"Invite links use DEMON_PUBLIC_URL: {public_url.rstrip('/')}")
        return lines
    if in_container and listen_host in _EVERY_INTERFACE:
        lines = [
            f"Demon & Devil's Grip: listening on port {port} inside its container. The address to open is the "
            "one Docker publishes that port on, which cannot be seen from here (`docker compose port`; "
            "set DEMON_PUBLISHED to have it named here)."
        ]
        if public_url:
            lines.append(f"Invite links use DEMON_PUBLIC_URL: {public_url.rstrip('/')}")
        return lines
    here = _origin("http", "127.0.0.1" if listen_host in _EVERY_INTERFACE else listen_host, port)
    lines = [f"Demon & Devil's Grip: open {here} in your browser."]
    if public_url:
        lines.append(f"Invite links use DEMON_PUBLIC_URL: {public_url.rstrip('/')}")
    elif listen_host in _EVERY_INTERFACE:
        if lan:
            lines.append("Friends on your network can join at " + " or ".join(_origin("http", a, port) for a in lan))
        else:
            lines.append(
                "Friends join at this machine's address on port "
                f"{port} (set DEMON_PUBLIC_URL to put it in invite links)."
            )
    elif is_loopback_host(listen_host):
        lines.append(
            "Only this computer can connect. To play with friends on your network, "
            "start with `make run HOST=0.0.0.0` (or DEMON_HOST=0.0.0.0)"
            + (f"; they will join at {_origin('http', lan[0], port)}" if lan else "")
            + "."
        )
    return lines
