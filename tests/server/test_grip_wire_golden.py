"""Devil's Grip's answers, pinned: a seeded game for each pass limit over the real server
(uvicorn, the HTTP routes, the sessions, the engine), every answer's body hashed in order.

Why: typing the answers as response models must not change a byte a page
reads. When the answers change on purpose, run this file with `-s` to print the new
hash and say why in the commit. The game's id and token differ per run and are replaced
before hashing.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import httpx

GOLDEN = "b33318fef16276c7e50e5e7158fd90bfe082b6aa202b031b370ae9262fc2c90e"


def play(http: httpx.Client, passes: int | None, rng: random.Random) -> list[str]:
    body = {"number": 90210} if passes is None else {"number": 90210, "passes": passes}
    first = http.post("/api/grip", json=body)
    assert first.status_code == 200
    game = first.json()
    game_id, token = game["id"], game["token"]
    headers = {"Authorization": f"Bearer {token}"}
    answers = [first.text]
    for _ in range(120):
        legal = http.get(f"/api/grip/{game_id}", headers=headers).json().get("legal") or []
        roll = rng.random()
        if roll < 0.08:
            req: dict[str, Any] = {"op": "undo"}
        elif roll < 0.1:
            req = {"op": "redo"}
        elif roll < 0.13:
            req = {"op": "action", "action": {"type": "no_such_move"}}
        elif not legal:
            req = {"op": "end"}
        else:
            req = {"op": "action", "action": rng.choice(legal)}
        reply = http.post(f"/api/grip/{game_id}", json=req, headers=headers)
        answers.append(f"{reply.status_code} {reply.text}")
        if req["op"] == "end" and reply.status_code == 200:
            break
    answers.append(http.get(f"/api/grip/{game_id}", headers=headers).text)
    return [a.replace(game_id, "GAME").replace(token, "TOKEN") for a in answers]


def test_seeded_grip_games_send_the_same_bytes(server):
    rng = random.Random(11)
    with httpx.Client(base_url=server.base, timeout=10) as http:
        answers = [a for passes in (1, 3, None) for a in play(http, passes, rng)]
    digest = hashlib.sha256("\n\x00".join(answers).encode()).hexdigest()
    print(f"\n{len(answers)} answers, sha256 {digest}")
    assert len(answers) > 100
    assert digest == GOLDEN
