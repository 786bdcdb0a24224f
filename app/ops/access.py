"""Who may read `/metrics`: client addresses in the operator's list (`DEMON_METRICS_ALLOW`).

The default is the loopback and the private ranges, where a Prometheus beside the server
(the same host, a Compose network, a LAN) scrapes from; a visitor from the internet gets
404, as if there were no such page. Behind a reverse proxy whose `X-Forwarded-For` is
believed (`DEMON_TRUSTED_PROXIES`), the address checked is the forwarded one, so the
proxy's own private address does not open `/metrics` to everybody it forwards.
"""

from __future__ import annotations

import ipaddress

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(text: str) -> list[Network]:
    """Comma-separated addresses or networks; `ValueError` names a bad one."""
    return [ipaddress.ip_network(part.strip(), strict=False) for part in text.split(",") if part.strip()]


def allowed(address: str | None, networks: list[Network]) -> bool:
    if not address:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in net for net in networks)
