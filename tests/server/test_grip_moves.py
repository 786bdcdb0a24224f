"""The batched move endpoint (POST /api/grip/{id}/moves) against a real server:
a batch replays all or nothing, a batch sent twice is not played twice, a game played
with no connection is verified by replay, and bad input changes nothing."""

from __future__ import annotations

import random

import httpx
import pytest

from app.grip.rules import GripGame, grip_action_from_json
from app.grip.rules.shapes import ActionJson
from app.grip.service.legal import legal_json
from app.protocol.messages import GRIP_MAX_BATCH
from tests.support.live_server import LiveServer


@pytest.fixture(scope="module")
def grip_server(tmp_path_factory):
    srv = LiveServer(tmp_path_factory.mktemp("grip-moves"), winnable_ready=0)
    with srv:
        yield srv


@pytest.fixture
def http(grip_server):
    with httpx.Client(base_url=grip_server.base, timeout=30) as client:
        yield client


def new_game(http: httpx.Client, number: int = 4242, passes: int | None = None) -> tuple[str, dict]:
    answer = http.post("/api/grip", json={"number": number, "passes": passes})
    assert answer.status_code == 200, answer.text
    game = answer.json()
    return game["id"], {"Authorization": f"Bearer {game['token']}"}


def local_line(number: int, n: int, seed: int = 1, passes: int | None = None) -> list[ActionJson]:
    """`n` legal actions (no end) of deal `number` played by the Python engine, at random:
    what a page with the rules would have played."""
    rng = random.Random(seed)
    game = GripGame.new(number, passes)
    line = []
    for _ in range(n):
        legal = [a for a in legal_json(game.state) if a["type"] != "swap"] or legal_json(game.state)
        if not legal or game.state.is_over():
            break
        action = rng.choice(legal)
        game.apply(grip_action_from_json(action))
        line.append(action)
    return line


def ops_of(line: list[dict]) -> list[dict]:
    return [{"op": "action", "action": a} for a in line]


def sync(http: httpx.Client, game_id: str, headers: dict) -> dict:
    answer = http.get(f"/api/grip/{game_id}/sync", headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_batch_is_replayed_and_acknowledged_with_the_record(http):
    game_id, headers = new_game(http)
    line = local_line(4242, 30)
    assert len(line) == 30
    ops = ops_of(line[:20]) + [{"op": "undo"}, {"op": "undo"}, {"op": "redo"}]
    answer = http.post(f"/api/grip/{game_id}/moves", json={"base": 0, "ops": ops}, headers=headers)
    assert answer.status_code == 200, answer.text
    game = answer.json()
    assert game["seq"] == 23
    assert game["actions"] == line[:19]
    assert game["redo"] == [line[19]]
    assert game["used_undo"] is True and "legal" not in game
    # the server's state is the engine's after the same operations
    engine = GripGame.new(4242)
    for action in line[:19]:
        engine.apply(grip_action_from_json(action))
    assert game["state"] == engine.state.view()
    # the next batch builds on seq 23
    more = http.post(
        f"/api/grip/{game_id}/moves", json={"base": 23, "ops": [{"op": "redo"}] + ops_of(line[20:])}, headers=headers
    )
    assert more.status_code == 200, more.text
    assert more.json()["actions"] == line and more.json()["seq"] == 34
    assert sync(http, game_id, headers) == more.json()


def test_an_illegal_move_in_the_middle_of_a_batch_changes_nothing(http):
    game_id, headers = new_game(http)
    line = local_line(4242, 12)
    first = http.post(f"/api/grip/{game_id}/moves", json={"base": 0, "ops": ops_of(line[:4])}, headers=headers)
    assert first.status_code == 200
    before = sync(http, game_id, headers)
    bad = (
        ops_of(line[4:8])
        + [{"op": "action", "action": {"type": "move", "src": 0, "dst": 0, "count": 1}}]
        + ops_of(line[8:])
    )
    answer = http.post(f"/api/grip/{game_id}/moves", json={"base": 4, "ops": bad}, headers=headers)
    assert answer.status_code == 409
    refusal = answer.json()
    assert refusal["code"] == "illegal" and refusal["index"] == 4
    assert "operation 5" in refusal["detail"] and "onto itself" in refusal["detail"]
    assert refusal["game"] == before  # the page is sent back to this
    assert sync(http, game_id, headers) == before


def test_a_batch_sent_twice_is_played_once(http):
    game_id, headers = new_game(http)
    body = {"base": 0, "ops": ops_of(local_line(4242, 5))}
    assert http.post(f"/api/grip/{game_id}/moves", json=body, headers=headers).status_code == 200
    again = http.post(f"/api/grip/{game_id}/moves", json=body, headers=headers)
    assert again.status_code == 409
    assert again.json()["code"] == "stale" and again.json()["game"]["seq"] == 5
    assert len(sync(http, game_id, headers)["actions"]) == 5


@pytest.mark.parametrize(
    "body",
    [
        "not json",
        {"base": 0},
        {"base": -1, "ops": [{"op": "undo"}]},
        {"base": 0, "ops": []},
        {"base": 0, "ops": [{"op": "hint"}]},
        {"base": 0, "ops": [{"op": "action"}]},
        {"base": 0, "ops": [{"op": "action", "action": {"type": "deal"}, "extra": 1}]},
        {"base": 0, "ops": [{"op": "action", "action": {"type": "warp"}}]},
        {"base": "0", "ops": [{"op": "undo"}]},
        {"base": 0, "ops": [{"op": "undo"}] * (GRIP_MAX_BATCH + 1)},  # too many operations
        {"base": 0, "ops": [{"op": "action", "action": {"type": "deal"}}] * 1000},  # too many bytes
    ],
)
def test_bad_batches_are_refused_and_change_nothing(http, body):
    game_id, headers = new_game(http)
    before = sync(http, game_id, headers)
    if isinstance(body, str):
        answer = http.post(
            f"/api/grip/{game_id}/moves", content=body, headers={**headers, "Content-Type": "application/json"}
        )
    else:
        answer = http.post(f"/api/grip/{game_id}/moves", json=body, headers=headers)
    assert answer.status_code in (409, 413, 422), answer.text
    assert answer.json()["detail"]
    assert sync(http, game_id, headers) == before


def test_a_wrong_game_or_token_is_not_found_and_changes_nothing(http):
    game_id, headers = new_game(http)
    body = {"base": 0, "ops": [{"op": "action", "action": {"type": "deal"}}]}
    other_id, other_headers = new_game(http)
    assert http.post(f"/api/grip/{game_id}/moves", json=body, headers=other_headers).status_code == 404
    assert http.post("/api/grip/nosuchgame/moves", json=body, headers=headers).status_code == 404
    assert http.post(f"/api/grip/{game_id}/moves", json=body).status_code == 404
    assert sync(http, game_id, headers)["seq"] == 0
    assert sync(http, other_id, other_headers)["seq"] == 0


def test_a_whole_game_played_offline_is_verified_by_replay(http):
    """What the page sends once reachable again: the deal, then every operation from 0."""
    line = local_line(777, 300, seed=3, passes=3)
    game_id, headers = new_game(http, number=777, passes=3)
    ops = ops_of(line) + [{"op": "end"}]  # 300 actions leave this deal still going
    assert len(ops) > 150
    for base in range(0, len(ops), 150):  # as the page sends it: at most 150 a request
        answer = http.post(
            f"/api/grip/{game_id}/moves", json={"base": base, "ops": ops[base : base + 150]}, headers=headers
        )
        assert answer.status_code == 200, answer.text
    game = answer.json()
    assert game["state"]["over"] is True and game["explain"] is not None
    engine = GripGame.new(777, 3)
    for action in line:
        engine.apply(grip_action_from_json(action))
    engine.end()
    assert game["state"] == engine.state.view()


def test_the_count_survives_a_restart(tmp_path):
    """`seq` is saved with the game, so a page's next batch still fits after a restart."""
    srv = LiveServer(tmp_path / "srv", winnable_ready=0)
    with srv:
        with httpx.Client(base_url=srv.base, timeout=30) as client:
            game_id, headers = new_game(client)
            ops = ops_of(local_line(4242, 6))
            assert (
                client.post(f"/api/grip/{game_id}/moves", json={"base": 0, "ops": ops}, headers=headers).status_code
                == 200
            )
        srv.stop()
        srv.start()
        with httpx.Client(base_url=srv.base, timeout=30) as client:
            assert sync(client, game_id, headers)["seq"] == 6
