"""Every HTTP answer carries the security headers, once each (app/server/app.py
SecurityHeaders), whatever made it: the page, a static file, JSON, an error."""

from __future__ import annotations

import httpx
import pytest

EXPECTED = {"content-security-policy", "x-content-type-options", "referrer-policy"}


@pytest.mark.parametrize(
    "method,path",
    [
        ("GET", "/"),
        ("GET", "/grip"),
        ("GET", "/static/app.js"),
        ("GET", "/health"),
        ("GET", "/api/grip/nosuchgame"),
        ("POST", "/api/grip"),
        ("GET", "/no/such/page"),
    ],
)
def test_security_headers_once_on_every_answer(server, method, path):
    answer = httpx.request(method, server.base + path, json={} if method == "POST" else None)
    names = [name.lower() for name, _ in answer.headers.multi_items()]
    for header in EXPECTED:
        assert names.count(header) == 1, (path, answer.status_code, header)
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert "default-src 'self'" in answer.headers["content-security-policy"]


def test_the_pages_one_inline_script_comes_before_the_styles_and_only_it_is_allowed(server):
    """A dark- or light-themed tab once showed the green felt first, because only the
    modules set the theme. Each page now sets it from the stored choice in one inline
    script before its first stylesheet; the policy allows that script by its hash and
    no other inline script (the hash is of exactly the bytes served)."""
    import base64
    import hashlib
    import re

    for path in ("/", "/grip", "/r/ABCDEF", "/offline"):
        answer = httpx.get(server.base + path)
        scripts = re.findall(r"<script>(.*?)</script>", answer.text, re.S)
        assert len(scripts) == 1, (path, scripts)
        assert answer.text.index("<script>") < answer.text.index('<link rel="stylesheet"'), path
        digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
        policy = answer.headers["content-security-policy"]
        script_src = re.search(r"script-src ([^;]*)", policy).group(1).split()
        assert script_src == ["'self'", f"'sha256-{digest}'"], (path, policy)
        assert "unsafe-inline" not in policy
