"""Devil's Grip hints, par and solutions against a real server (uvicorn in a subprocess,
its worker processes, real SQLite): what they answer, and every bad request refused
with a clear error that changes nothing."""

from __future__ import annotations

import concurrent.futures
import itertools
import signal

import httpx
import pytest

from app.grip.rules.why import KINDS
from tests.support.live_server import LiveServer


@pytest.fixture(scope="module")
def grip_server(tmp_path_factory):
    # Small limits so that floods are quick to provoke; no winnable-deal search. A
    # generous hint deadline: on a loaded machine a hint may otherwise be refused (503)
    # for lack of CPU, which tests/rooms/test_grip_advisor.py tests on its own.
    srv = LiveServer(
        tmp_path_factory.mktemp("grip-advice"),
        winnable_ready=0,
        hint_deadline_s=3,
        grip_search_rate_per_s=0.05,
        grip_search_burst=3,
        grip_addr_rate_per_s=0.05,
        grip_addr_burst=1000,
    )
    with srv:
        yield srv


@pytest.fixture
def http(grip_server):
    with httpx.Client(base_url=grip_server.base, timeout=30) as client:
        yield client


def new_game(http, **body) -> tuple[dict, dict]:
    answer = http.post("/api/grip", json={"number": 7, **body})
    assert answer.status_code == 200, answer.text
    game = answer.json()
    return game, {"Authorization": f"Bearer {game['token']}"}


def test_a_hint_is_legal_and_marks_the_game(http):
    game, auth = new_game(http)
    assert game["used_hint"] is False and game["hint"] is None
    answer = http.post(f"/api/grip/{game['id']}", headers=auth, json={"op": "hint"})
    assert answer.status_code == 200, answer.text
    after = answer.json()
    assert after["hint"] in after["legal"]
    info = after["hint_info"]
    assert info["action"] == after["hint"]
    assert isinstance(info["expected_score"], float) and isinstance(info["complete"], bool)
    assert info["why"]["kind"] in KINDS  # the guide's sentence (app/grip/rules/why.py)
    assert after["used_hint"] is True
    assert after["state"] == game["state"]  # asking changes nothing on the board
    # kept: a later look (and a move) still says a hint was used
    played = http.post(f"/api/grip/{game['id']}", headers=auth, json={"op": "action", "action": after["hint"]})
    assert played.status_code == 200 and played.json()["used_hint"] is True
    assert played.json()["hint"] is None


def test_hint_par_and_solution_refuse_unknown_or_foreign_games(http):
    game, auth = new_game(http)
    other = {"Authorization": "Bearer not-the-token"}
    for method, path, body in (
        ("POST", f"/api/grip/{game['id']}", {"op": "hint"}),
        ("GET", f"/api/grip/{game['id']}/par", None),
        ("GET", f"/api/grip/{game['id']}/solution", None),
    ):
        for headers in (other, {}):
            answer = http.request(method, path, headers=headers, json=body)
            assert answer.status_code == 404, (path, answer.text)
            assert "No such game" in answer.json()["detail"]
        missing = http.request(method, path.replace(game["id"], "nosuchgame"), headers=auth, json=body)
        assert missing.status_code == 404
    after = http.get(f"/api/grip/{game['id']}", headers=auth).json()
    assert after["used_hint"] is False and after["state"] == game["state"]


def test_hint_for_a_finished_deal_is_refused_and_changes_nothing(http):
    game, auth = new_game(http, number=8)
    ended = http.post(f"/api/grip/{game['id']}", headers=auth, json={"op": "end"}).json()
    assert ended["state"]["ended"] is True
    assert ended["explain"]["by"] in ("player", "rule")
    answer = http.post(f"/api/grip/{game['id']}", headers=auth, json={"op": "hint"})
    assert answer.status_code == 409
    assert "over" in answer.json()["detail"]
    after = http.get(f"/api/grip/{game['id']}", headers=auth).json()
    assert after["used_hint"] is False and after == {**ended, "hint_info": None}


def test_par_is_a_score_and_the_same_on_every_ask(http):
    game, auth = new_game(http, number=12, passes=3)
    first = http.get(f"/api/grip/{game['id']}/par", headers=auth)
    assert first.status_code == 200, first.text
    par = first.json()
    assert par["number"] == 12 and par["passes"] == 3
    assert 0 <= par["par"] <= 72
    # another game of the same deal gets the same par, and sees it in the game itself
    again, auth2 = new_game(http, number=12, passes=3)
    assert again["par"] == par["par"]
    assert http.get(f"/api/grip/{again['id']}/par", headers=auth2).json() == par


def test_solution_only_for_a_finished_certified_deal(http):
    game, auth = new_game(http, number=9)
    assert http.get(f"/api/grip/{game['id']}/solution", headers=auth).status_code == 409
    http.post(f"/api/grip/{game['id']}", headers=auth, json={"op": "end"})
    answer = http.get(f"/api/grip/{game['id']}/solution", headers=auth)
    assert answer.status_code == 404
    assert "no stored solution" in answer.json()["detail"]


@pytest.mark.parametrize(
    "body",
    [
        {"winnable": True, "passes": 3},
        {"winnable": True, "number": 5},
        {"winnable": True, "daily": True},
        {"winnable": "yes"},
    ],
)
def test_winnable_only_with_unlimited_passes_and_no_number(http, body):
    answer = http.post("/api/grip", json=body)
    assert answer.status_code == 422, answer.text


def test_winnable_without_any_certified_deal_is_a_clear_503(http):
    answer = http.post("/api/grip", json={"winnable": True})
    assert answer.status_code == 503
    assert "certified" in answer.json()["detail"] and answer.headers["Retry-After"]


def test_a_flood_of_hints_from_one_game_is_rate_limited(http):
    game, auth = new_game(http, number=21)
    codes = [http.post(f"/api/grip/{game['id']}", headers=auth, json={"op": "hint"}).status_code for _ in range(5)]
    assert codes[:3] == [200, 200, 200]
    assert codes[3:] == [429, 429]
    refused = http.post(f"/api/grip/{game['id']}", headers=auth, json={"op": "hint"})
    assert "slow down" in refused.json()["detail"] and int(refused.headers["Retry-After"]) >= 1
    # par and solution requests count against the same game
    assert http.get(f"/api/grip/{game['id']}/solution", headers=auth).status_code == 429
    # the game itself is untouched and still playable
    after = http.get(f"/api/grip/{game['id']}", headers=auth).json()
    assert after["state"] == game["state"]
    moved = http.post(f"/api/grip/{game['id']}", headers=auth, json={"op": "action", "action": {"type": "deal"}})
    assert moved.status_code == 200
    # another game is not limited by this one
    other, auth2 = new_game(http, number=22)
    assert http.post(f"/api/grip/{other['id']}", headers=auth2, json={"op": "hint"}).status_code == 200


def test_a_flood_from_one_address_is_rate_limited(tmp_path):
    with (
        LiveServer(tmp_path, winnable_ready=0, hint_deadline_s=3, grip_addr_rate_per_s=0.05, grip_addr_burst=4) as srv,
        httpx.Client(base_url=srv.base, timeout=30) as http,
    ):
        codes = []
        for number in range(6):  # a fresh game each time: only the address limit can bite
            game, auth = new_game(http, number=number)
            codes.append(http.post(f"/api/grip/{game['id']}", headers=auth, json={"op": "hint"}).status_code)
        assert codes == [200] * 4 + [429] * 2
        refused = http.post(f"/api/grip/{game['id']}", headers=auth, json={"op": "hint"})
        assert "your address" in refused.json()["detail"]


def test_hints_past_the_queue_bound_are_refused_at_once(tmp_path):
    with (
        LiveServer(tmp_path, winnable_ready=0, hint_queue=1, hint_budget_s=1.0, hint_deadline_s=3) as srv,
        httpx.Client(base_url=srv.base, timeout=30) as http,
    ):
        games = [new_game(http, number=n) for n in range(30, 36)]

        def ask(game_auth):
            game, auth = game_auth
            return http.post(f"/api/grip/{game['id']}", headers=auth, json={"op": "hint"})

        with concurrent.futures.ThreadPoolExecutor(len(games)) as pool:
            answers = list(pool.map(ask, games))
        codes = sorted(a.status_code for a in answers)
        assert 200 in codes and 503 in codes, codes
        busy = next(a for a in answers if a.status_code == 503)
        assert "busy" in busy.json()["detail"] and busy.headers["Retry-After"] == "1"
        assert http.get("/health").status_code == 200


def test_used_hint_survives_a_restart(tmp_path):
    srv = LiveServer(tmp_path, winnable_ready=0, hint_deadline_s=3)
    with srv, httpx.Client(base_url=srv.base, timeout=30) as http:
        game, auth = new_game(http, number=14)
        assert http.post(f"/api/grip/{game['id']}", headers=auth, json={"op": "hint"}).status_code == 200
    srv2 = LiveServer(tmp_path, winnable_ready=0)
    with srv2, httpx.Client(base_url=srv2.base, timeout=30) as http:
        back = http.get(f"/api/grip/{game['id']}", headers=auth).json()
        assert back["used_hint"] is True


def test_a_winnable_deal_and_its_solution(tmp_path):
    """With a reserve of certified deals, 'only deals that can be won' deals one; once it
    is over (here: ended at once) its solution replays legally to a won grid."""
    import time

    with LiveServer(tmp_path, winnable_ready=1) as srv, httpx.Client(base_url=srv.base, timeout=30) as http:
        deadline = time.monotonic() + 120
        while True:
            answer = http.post("/api/grip", json={"winnable": True})
            if answer.status_code == 200 or time.monotonic() > deadline:
                break
            assert answer.status_code == 503
            time.sleep(0.2)  # polling: the reserve is built in the background
        assert answer.status_code == 200, answer.text
        game = answer.json()
        auth = {"Authorization": f"Bearer {game['token']}"}
        assert game["winnable"] is True and game["state"]["passes_allowed"] is None
        early = http.get(f"/api/grip/{game['id']}/solution", headers=auth)
        assert early.status_code == 409
        http.post(f"/api/grip/{game['id']}", headers=auth, json={"op": "end"})
        solution = http.get(f"/api/grip/{game['id']}/solution", headers=auth)
        assert solution.status_code == 200, solution.text
        body = solution.json()
        assert body["number"] == game["number"]
        assert body["initial"]["grid"] == game["state"]["grid"]
        last = body["steps"][-1]["state"]
        assert last["won"] is True and last["score"] == 0
        scores = [body["initial"]["score"]] + [s["state"]["score"] for s in body["steps"]]
        assert all(b <= a for a, b in itertools.pairwise(scores))  # no card ever leaves the grid
        foreign = http.get(f"/api/grip/{game['id']}/solution", headers={"Authorization": "Bearer nope"})
        assert foreign.status_code == 404
        # The solution shown makes it an aided game, like a hint, and undoing
        # back to replay the line does not make it unaided again (nor does a restart).
        assert game["used_hint"] is False
        assert http.get(f"/api/grip/{game['id']}", headers=auth).json()["used_hint"] is True
        undone = http.post(f"/api/grip/{game['id']}", headers=auth, json={"op": "undo"})
        assert undone.status_code == 200 and undone.json()["used_hint"] is True
        srv.stop(signal.SIGKILL)  # the mark is saved when the solution is shown
    with srv, httpx.Client(base_url=srv.base, timeout=30) as http:
        assert http.get(f"/api/grip/{game['id']}", headers=auth).json()["used_hint"] is True


def test_the_legal_actions_sent_are_the_engines(http):
    """The answers' legal list (built partly from a shared list of swaps) is exactly the
    engine's, over a deal played by the hints to its end."""
    import random

    from app.grip.rules import GripState, grip_action_from_json, grip_action_to_json

    rng = random.Random(5)
    game, auth = new_game(http, number=31, passes=1)
    state = GripState.deal(31, 1)
    for step in range(80):
        assert game["legal"] == [grip_action_to_json(a) for a in state.legal_actions()]
        if game["state"]["over"]:
            break
        plays = [a for a in game["legal"] if a["type"] != "swap"]
        action = rng.choice(plays) if plays and step < 79 else {"type": "end"}
        game = http.post(f"/api/grip/{game['id']}", headers=auth, json={"op": "action", "action": action}).json()
        state, _ = state.apply(grip_action_from_json(action))
    assert game["state"]["over"] and game["legal"] == []


def _processes_with_data_dir(data_dir) -> list[int]:
    """Pids of processes started with DEMON_DATA_DIR=data_dir (the server and whatever
    it started: the forkserver and the search workers inherit its environment)."""
    from pathlib import Path

    wanted = f"DEMON_DATA_DIR={data_dir}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if wanted in (entry / "environ").read_bytes().split(b"\0"):
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


def test_a_killed_server_leaves_no_search_process_behind(tmp_path):
    import signal
    import time

    srv = LiveServer(tmp_path, winnable_ready=0, hint_deadline_s=3)
    with srv, httpx.Client(base_url=srv.base, timeout=30) as http:
        game, auth = new_game(http, number=3)
        assert http.post(f"/api/grip/{game['id']}", headers=auth, json={"op": "hint"}).status_code == 200
        assert len(_processes_with_data_dir(tmp_path)) >= 3  # server, forkserver, a worker
        srv.stop(signal.SIGKILL)
    deadline = time.monotonic() + 10
    while _processes_with_data_dir(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _processes_with_data_dir(tmp_path) == []


def test_the_daily_deals_par_is_computed_at_start_and_kept(tmp_path):
    """Nobody asks: the server computes the daily deal's par under every pass limit and
    stores it; a game of the daily deal then has its par at once."""
    import sqlite3
    import time

    from app.grip.service.sessions import GripSessions
    from app.storage.store import DB_NAME

    daily = GripSessions.daily_number()
    with (
        LiveServer(tmp_path, winnable_ready=0, par_budget_s=0.05) as srv,
        httpx.Client(base_url=srv.base, timeout=30) as http,
    ):
        deadline = time.monotonic() + 120
        rows = []
        while time.monotonic() < deadline:
            with sqlite3.connect(tmp_path / DB_NAME) as db:
                rows = db.execute(
                    "SELECT passes, par FROM grip_par WHERE number = ? ORDER BY passes", (str(daily),)
                ).fetchall()
            if len(rows) == 3:
                break
            time.sleep(0.1)
        assert [p for p, _ in rows] == [0, 1, 3]  # 0 stands for unlimited
        game = http.post("/api/grip", json={"daily": True, "passes": 3}).json()
        assert game["number"] == daily and game["par"] == dict(rows)[3]
