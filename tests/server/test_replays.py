"""Replays over real HTTP: a round played over WebSockets on a real uvicorn and
SQLite is kept when it ends; its players (by their seat tokens) get its frames, which
step from the dealt table to exactly the final table the players saw; nobody else gets
them until the host shares the round; a bad id is the same 404 as a forbidden one."""

from __future__ import annotations

import asyncio
import random

import httpx

from tests.server.test_ws_play import bot, seat_players, start_round


def apply_move(table: dict, frame: dict) -> dict:
    """What the browser's reducer does with a move (static/demon/demon-model.js)."""
    seats = list(table["seats"])
    seats[frame["seat"]] = frame["seat_view"]
    foundations = list(table["foundations"])
    for f in frame["foundations"]:
        while len(foundations) < f["pile"]:
            foundations.append(None)
        if len(foundations) == f["pile"]:
            foundations.append(None)
        foundations[f["pile"]] = {k: f[k] for k in ("pile", "top", "seat", "count")}
    return {**table, "seats": seats, "foundations": foundations, "cards_home": frame["cards_home"]}


def played_round(server, **options) -> tuple[list, dict]:
    async def play():
        players = await seat_players(server, 2, **options)
        await start_round(players)
        await asyncio.gather(*(bot(p, random.Random(i)) for i, p in enumerate(players)))
        for p in players:
            await p.wait_for(lambda p=p: p.state["phase"] in ("round_over", "match_over"))
        final = players[0].state["round"]
        for p in players:
            await p.close()
        return players, final

    return asyncio.run(play())


def test_a_finished_round_replays_to_the_table_its_players_saw(server):
    players, final = played_round(server)
    code, token = players[0].grant["code"], players[0].grant["token"]
    with httpx.Client(base_url=server.base) as http:
        listed = http.get("/api/replays", params={"code": code}, headers={"Authorization": f"Bearer {token}"})
        assert listed.status_code == 200
        rounds = listed.json()["replays"]
        assert [r["round_no"] for r in rounds] == [1]
        rid = rounds[0]["id"]
        got = http.get(f"/api/replays/{rid}", headers={"Authorization": f"Bearer {players[1].grant['token']}"})
        assert got.status_code == 200
        replay = got.json()
    assert [p["name"] for p in replay["players"]] == ["P0", "P1"]
    table = replay["initial"]
    moves = [f for f in replay["frames"] if f["kind"] == "move"]
    assert moves and all(isinstance(f["at"], (int, float)) for f in moves)
    assert [f["at"] for f in moves] == sorted(f["at"] for f in moves)  # the real order and pace
    for frame in moves:
        table = apply_move(table, frame)
    assert table["seats"] == final["seats"] == replay["final"]["seats"]
    assert [{k: f[k] for k in ("top", "seat", "count")} for f in table["foundations"]] == [
        {k: f[k] for k in ("top", "seat", "count")} for f in final["foundations"]
    ]
    assert replay["end"]["reason"] in ("demon", "stuck", "vote")


def test_only_the_players_may_watch_until_the_host_shares_it(server):
    players, _final = played_round(server)
    code = players[0].grant["code"]
    host, guest = players[0].grant["token"], players[1].grant["token"]
    with httpx.Client(base_url=server.base) as http:
        rid = http.get("/api/replays", params={"code": code}, headers={"Authorization": f"Bearer {host}"}).json()[
            "replays"
        ][0]["id"]
        stranger = http.get(f"/api/replays/{rid}")
        wrong = http.get(f"/api/replays/{rid}", headers={"Authorization": "Bearer not-a-seat"})
        missing = http.get("/api/replays/no-such-round", headers={"Authorization": f"Bearer {host}"})
        assert stranger.status_code == wrong.status_code == missing.status_code == 404
        assert stranger.json() == missing.json()
        assert http.get("/api/replays", params={"code": code}).json() == {"replays": []}
        # a player who is not the host cannot share it
        assert (
            http.post(
                f"/api/replays/{rid}/share", json={"shared": True}, headers={"Authorization": f"Bearer {guest}"}
            ).status_code
            == 403
        )
        assert http.get(f"/api/replays/{rid}").status_code == 404
        assert http.get(f"/api/replays/{rid}", headers={"Authorization": f"Bearer {host}"}).json()["may_share"]
        shared = http.post(
            f"/api/replays/{rid}/share", json={"shared": True}, headers={"Authorization": f"Bearer {host}"}
        )
        assert shared.status_code == 200 and shared.json()["shared"] is True
        anyone = http.get(f"/api/replays/{rid}")
        assert anyone.status_code == 200 and anyone.json()["may_share"] is False
        assert (
            http.post(
                f"/api/replays/{rid}/share", json={"shared": "yes"}, headers={"Authorization": f"Bearer {host}"}
            ).status_code
            == 422
        )
        http.post(f"/api/replays/{rid}/share", json={"shared": False}, headers={"Authorization": f"Bearer {host}"})
        assert http.get(f"/api/replays/{rid}").status_code == 404


def test_a_round_of_a_listed_room_is_shared_from_the_start(server):
    """The recent games' rule: the host who listed the room lets anyone see its games."""
    players, _final = played_round(server, listed=True)
    code = players[0].grant["code"]
    with httpx.Client(base_url=server.base) as http:
        rounds = http.get("/api/replays", params={"code": code}).json()["replays"]
        assert len(rounds) == 1 and rounds[0]["shared"] is True
        assert http.get(f"/api/replays/{rounds[0]['id']}").status_code == 200
