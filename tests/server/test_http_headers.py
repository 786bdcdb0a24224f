"""Every HTTP answer carries the security headers, once each (app/server/app.py
SecurityHeaders), whatever made it: the page, a static file, JSON, an error."""

from __future__ import annotations

import httpx
import pytest

EXPECTED = {"content-security-policy", "x-content-type-options", "referrer-policy"}


@pytest.mark.parametrize("method,path", [("GET", "/"), ("GET", "/grip"), ("GET", "/static/app.js"),
                                         ("GET", "/health"), ("GET", "/api/grip/nosuchgame"),
                                         ("POST", "/api/grip"), ("GET", "/no/such/page")])
def test_security_headers_once_on_every_answer(server, method, path):
    answer = httpx.request(method, server.base + path, json={} if method == "POST" else None)
    names = [name.lower() for name, _ in answer.headers.multi_items()]
    for header in EXPECTED:
        assert names.count(header) == 1, (path, answer.status_code, header)
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert "default-src 'self'" in answer.headers["content-security-policy"]
