"""DEMON_LOG_FORMAT=json on a real server: every line of its output is one JSON object,
with the room code, the shard and the request id; plain text stays the default."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from tests.support.live_server import LiveServer
from tests.support.ws_client import Player


@pytest.mark.slow
def test_json_lines_carry_room_code_shard_and_request_id(tmp_path):
    with LiveServer(tmp_path / "a", log_format="json", shard="C") as srv:
        answer = httpx.post(srv.base + "/api/rooms", json={"name": "Ann"}, headers={"X-Request-ID": "req-42"})
        assert answer.headers["x-request-id"] == "req-42"
        grant = answer.json()
        other = httpx.get(srv.base + f"/api/rooms/{grant['code']}")
        httpx.get(srv.base + "/health")  # a balancer's health check: logged at debug only
        generated = other.headers["x-request-id"]
        assert generated and generated != "req-42"

        async def socket() -> None:
            p = Player(srv.ws_base, grant)
            await p.connect()
            await p.wait_for(lambda: p.state is not None)
            await p.close()

        asyncio.run(socket())
        log = srv.wait_for_log(lambda text: '"seat_connected"' in text)
    lines = [line for line in log.splitlines() if line.strip()]
    entries = [json.loads(line) for line in lines]  # every line: one JSON object
    assert all({"ts", "level", "logger", "msg"} <= set(e) for e in entries)
    created = next(e for e in entries if e.get("event") == "room_created")
    assert created["code"] == grant["code"]
    assert created["shard"] == "C"
    assert created["request_id"] == "req-42"
    access = [e for e in entries if e["logger"] == "uvicorn.access"]
    assert any(e.get("request_id") == "req-42" and "/api/rooms" in e["msg"] for e in access)
    assert any(e.get("request_id") == generated for e in access)
    assert not any("/health" in e["msg"] for e in access)
    connected = next(e for e in entries if e.get("event") == "seat_connected")
    assert connected["code"] == grant["code"] and connected.get("request_id")
    assert any(e["logger"] == "demon.start" for e in entries)  # the start-up lines too


@pytest.mark.slow
def test_plain_text_is_the_default(tmp_path):
    with LiveServer(tmp_path / "a") as srv:
        code = httpx.post(srv.base + "/api/rooms", json={"name": "Ann"}).json()["code"]
        log = srv.wait_for_log(lambda text: "event=room_created" in text)
    line = next(line for line in log.splitlines() if "event=room_created" in line)
    assert f"code={code}" in line and not line.startswith("{")
