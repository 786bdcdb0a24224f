"""Who may read /metrics (app/ops/access.py) and the setting that says so."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.config import Settings
from app.ops.access import allowed, parse_networks


def test_the_default_allows_loopback_and_private_ranges_only():
    networks = parse_networks(Settings().metrics_allow)
    for address in ("127.0.0.1", "::1", "10.1.2.3", "172.20.0.5", "192.168.1.10", "fd00::5", "::ffff:10.0.0.7"):
        assert allowed(address, networks), address
    for address in ("8.8.8.8", "172.32.0.1", "2001:db8::1", "::ffff:8.8.8.8", "", None, "not-an-ip", "testclient"):
        assert not allowed(address, networks), address


def test_a_narrowed_list_and_a_bad_one():
    networks = parse_networks(" 10.0.0.9 , 192.168.5.0/24 ")
    assert allowed("10.0.0.9", networks) and allowed("192.168.5.77", networks)
    assert not allowed("10.0.0.8", networks) and not allowed("127.0.0.1", networks)
    with pytest.raises(ValidationError, match="metrics_allow"):
        Settings(metrics_allow="10.0.0.0/8,nonsense")
