"""Devil's Grip's API in its worker process (app/server/gripproc), against a real server:
the worker killed (503 with Retry-After, never a hang, then the same games again), the
worker stuck (Demon plays go on; the Devil's Grip request gets 503 after its timeout),
and the in-process mode (DEMON_GRIP_WORKER=false) still serving the same API.

Ordering, not timing: "a Demon play is acknowledged while a Devil's Grip request is
still unanswered" holds whatever the machine's load, and it cannot hold when the
Devil's Grip request runs on the rooms' loop (a stopped worker would then be a stopped
server)."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import httpx

from tests.server.conftest import RACE_SEED
from tests.support.live_server import LiveServer
from tests.support.ws_client import Player, create_room, join_room


def grip_workers(server_pid: int) -> list[int]:
    """The server's children running the Devil's Grip worker (zombies left out)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read()
        except OSError:
            continue
        if int(fields[1]) == server_pid and fields[0] != "Z" and b"-m\x00app.server.gripproc\x00" in cmdline:
            found.append(int(entry))
    return found


def new_game(http: httpx.Client) -> tuple[dict, dict]:
    answer = http.post("/api/grip", json={"number": 7})
    assert answer.status_code == 200, answer.text
    game = answer.json()
    return game, {"Authorization": f"Bearer {game['token']}"}


def test_a_killed_worker_answers_503_with_retry_after_then_comes_back_with_the_games(tmp_path):
    with (
        LiveServer(tmp_path, winnable_ready=0, hint_budget_s=2.0, hint_deadline_s=30) as srv,
        httpx.Client(base_url=srv.base, timeout=60) as http,
    ):
        [worker] = grip_workers(srv.proc.pid)
        game, auth = new_game(http)
        action = game["legal"][0]
        played = http.post(f"/api/grip/{game['id']}", headers=auth, json={"op": "action", "action": action})
        assert played.status_code == 200, played.text

        async def hint_while_killed() -> httpx.Response:
            async with httpx.AsyncClient(base_url=srv.base, timeout=60) as client:
                os.kill(worker, signal.SIGSTOP)  # the hint cannot be answered before the kill
                hint = asyncio.create_task(client.post(f"/api/grip/{game['id']}", headers=auth, json={"op": "hint"}))
                await asyncio.sleep(0.5)  # a fixed wait: sent to the worker, or still on its way: 503 either way
                os.kill(worker, signal.SIGKILL)
                return await hint

        refused = asyncio.run(hint_while_killed())
        assert refused.status_code == 503, refused.text
        assert int(refused.headers["Retry-After"]) >= 1
        assert "try again" in refused.json()["detail"]

        statuses = []
        deadline = time.monotonic() + 60
        while True:
            answer = http.get(f"/api/grip/{game['id']}", headers=auth)
            assert http.get("/health").status_code == 200  # the rooms' process never went away
            statuses.append(answer.status_code)
            if answer.status_code == 200:
                break
            assert answer.status_code == 503 and int(answer.headers["Retry-After"]) >= 1, answer.text
            assert time.monotonic() < deadline, statuses
            time.sleep(0.2)
        again = answer.json()
        assert again["id"] == game["id"] and again["state"] == played.json()["state"]  # reloaded from SQLite
        assert http.get("/health").json()["grip"] == "ready"
        [restarted] = grip_workers(srv.proc.pid)
        assert restarted != worker
        assert "event=grip_worker_restart" in srv.log()
    log = srv.log()
    assert "Traceback" not in log, log


def test_a_stopped_worker_holds_up_no_demon_play_and_its_request_gets_503(tmp_path):
    with (
        LiveServer(tmp_path, winnable_ready=0, test_seed=RACE_SEED, countdown_s=0.2, grip_worker_timeout_s=8) as srv,
        httpx.Client(base_url=srv.base, timeout=30) as http,
    ):
        game, auth = new_game(http)
        [worker] = grip_workers(srv.proc.pid)

        async def main() -> tuple[dict, bool, httpx.Response]:
            grant = await create_room(srv.base, "Ann")
            players = [Player(srv.ws_base, grant), Player(srv.ws_base, await join_room(srv.base, grant["code"], "Bob"))]
            for p in players:
                await p.connect()
            await players[0].wait_for(lambda: players[0].state is not None and len(players[0].state["players"]) == 2)
            await players[0].send({"type": "start"})
            for p in players:
                await p.wait_for(lambda p=p: p.state["phase"] == "playing" and p.legal, 10)
            os.kill(worker, signal.SIGSTOP)
            try:
                async with httpx.AsyncClient(base_url=srv.base, timeout=30) as client:
                    look = asyncio.create_task(client.get(f"/api/grip/{game['id']}", headers=auth))
                    await asyncio.sleep(0.2)  # a fixed wait: the look reaches the relay (nothing outside shows it)
                    a = players[0]
                    reply = await a.reply(await a.act(a.legal[0]))
                    unanswered = not look.done()
                    return reply, unanswered, await look
            finally:
                os.kill(worker, signal.SIGCONT)
                for p in players:
                    await p.close()

        reply, unanswered, look = asyncio.run(main())
        assert reply["type"] == "ack", reply
        assert unanswered  # the play was acknowledged while the Devil's Grip request waited
        assert look.status_code == 503 and int(look.headers["Retry-After"]) >= 1, look.text
        assert "in time" in look.json()["detail"]
        assert http.get(f"/api/grip/{game['id']}", headers=auth).status_code == 200  # the worker goes on
        assert grip_workers(srv.proc.pid) == [worker]


def test_without_the_worker_the_server_answers_devils_grip_itself(tmp_path):
    with (
        LiveServer(tmp_path, winnable_ready=0, hint_deadline_s=30, grip_worker="false") as srv,
        httpx.Client(base_url=srv.base, timeout=60) as http,
    ):
        assert grip_workers(srv.proc.pid) == []
        assert http.get("/health").json()["grip"] == "in-process"
        game, auth = new_game(http)
        hinted = http.post(f"/api/grip/{game['id']}", headers=auth, json={"op": "hint"})
        assert hinted.status_code == 200, hinted.text
        assert hinted.json()["used_hint"] is True
        assert http.post(f"/api/grip/{game['id']}", headers=auth, content=b'{"op":').status_code == 422
        metrics = http.get("/metrics").text
        assert "devils_grip_hints_total 1.0" in metrics and "devils_grip_games 1.0" in metrics
        assert "devils_grip_worker_process" not in metrics


def test_the_worker_gives_way_to_the_rooms_once_it_is_warm(tmp_path):
    """Once ready, the worker runs `SERVING_NICE` below the server's priority, so on a
    busy machine the rooms' process comes first (bench/results/2026-12-03-grip-worker-process.md)."""
    from app.server.gripproc.worker import SERVING_NICE

    with LiveServer(tmp_path / "a") as srv:  # started: the worker said "ready"
        [worker] = grip_workers(srv.proc.pid)
        server_nice = os.getpriority(os.PRIO_PROCESS, srv.proc.pid)
        assert os.getpriority(os.PRIO_PROCESS, worker) == min(19, server_nice + SERVING_NICE)
