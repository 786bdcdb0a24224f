"""Devil's Grip's answers are typed: /openapi.json names their schemas, and the
answers a real game sends fit those types (the routes return ready JSON, so FastAPI
never checks them itself: this test does)."""

from __future__ import annotations

import random

import httpx
from pydantic import TypeAdapter

from app.grip.service.shapes import GripGameAnswer

GAME = TypeAdapter(GripGameAnswer)


def test_openapi_lists_the_grip_answers(server):
    spec = httpx.get(f"{server.base}/openapi.json", timeout=10).json()
    schemas = spec["components"]["schemas"]
    for name in (
        "GripGameAnswer",
        "GripParAnswer",
        "GripSolutionAnswer",
        "GripStateView",
        "GripHintInfo",
        "GripHintReason",
        "GripEndExplanation",
        "GripMove",
        "GripSwap",
    ):
        assert name in schemas, name
    ok = {
        path: {
            m: op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
            for m, op in item.items()
        }
        for path, item in spec["paths"].items()
        if path.startswith("/api/grip")
    }
    assert ok["/api/grip"]["post"] == "GripGameAnswer"
    assert ok["/api/grip/{game_id}"] == {"get": "GripGameAnswer", "post": "GripGameAnswer"}
    assert ok["/api/grip/{game_id}/par"]["get"] == "GripParAnswer"
    assert ok["/api/grip/{game_id}/solution"]["get"] == "GripSolutionAnswer"


def check(answer: dict) -> None:
    GAME.validate_python(answer, strict=True)
    assert set(answer) <= set(GripGameAnswer.__annotations__)  # nothing sent that is not typed


def test_a_played_game_sends_answers_of_its_type(server):
    rng = random.Random(5)
    with httpx.Client(base_url=server.base, timeout=10) as http:
        first = http.post("/api/grip", json={"number": 4242, "passes": 3}).json()
        check(first)
        assert "token" in first
        headers = {"Authorization": f"Bearer {first['token']}"}
        answer = first
        for _ in range(60):
            if not answer["legal"]:
                break
            reply = http.post(
                f"/api/grip/{first['id']}",
                headers=headers,
                json={"op": "action", "action": rng.choice(answer["legal"])},
            )
            assert reply.status_code == 200
            answer = reply.json()
            check(answer)
        ended = http.post(f"/api/grip/{first['id']}", headers=headers, json={"op": "end"}).json()
        check(ended)
        assert ended["explain"] is not None and "token" not in ended
