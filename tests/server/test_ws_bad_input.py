"""Bad input over the WebSocket and HTTP: each gets a clear answer or a close code,
changes nothing, and leaves the room (and other rooms) working."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets

from tests.server.test_ws_play import seat_players, start_round
from tests.support.live_server import LiveServer
from tests.support.ws_client import Player


async def still_works(players: list[Player]) -> None:
    """The room still answers: a ping comes back and a legal action is applied."""
    p = players[0]
    await p.send({"type": "ping"})
    before = len(p.received)
    await p.wait_for(
        lambda: (
            any(m["type"] == "pong" for m in p.received[before - 1 :]) or any(m["type"] == "pong" for m in p.received)
        ),
        5,
    )
    assert p.state is not None
    if p.state["phase"] == "playing":
        draw = next(a for a in p.legal if a["type"] in ("draw", "recycle", "foundation", "tableau"))
        reply = await p.reply(await p.act(draw))
        assert reply["type"] == "ack"


async def raw_socket(server, code: str, headers=None):
    return await websockets.connect(f"{server.ws_base}/ws/{code}", additional_headers=headers, compression=None)


async def expect_close(ws, code: int) -> None:
    with pytest.raises(websockets.ConnectionClosed):
        while True:
            await asyncio.wait_for(ws.recv(), 5)
    assert ws.close_code == code


def run(coro):
    return asyncio.run(coro)


def test_messages_with_errors_are_answered_and_change_nothing(server):
    async def main():
        players = await seat_players(server, 2)
        await start_round(players)
        p = players[0]
        v_before = p.v
        bad_frames = [
            "not json",
            "[]",
            json.dumps({"type": "teleport"}),
            json.dumps({"type": "action", "id": "x", "action": {"type": "draw"}, "seat": 1}),
            json.dumps({"type": "action", "id": "x", "action": {"type": "draw"}, "room": "ZZZZZZZ"}),
            json.dumps({"type": "action", "id": 5, "action": {"type": "draw"}}),
            json.dumps({"type": "action", "id": "x", "action": {"type": "tableau", "src": 9, "dst": 1}}),
            json.dumps({"type": "action", "id": "x", "action": {"type": "foundation", "src": "stock"}}),
            json.dumps({"type": "vote", "end": "yes"}),
            json.dumps({"type": "hello", "token": p.token}),
        ]
        for frame in bad_frames:
            await p.ws.send(frame)
        await p.wait_for(lambda: len(p.errors) == len(bad_frames), 5)
        assert all(e["code"] == "invalid" and e["message"] for e in p.errors)
        await p.ws.send(b"\x00\x01")  # binary frame
        await p.wait_for(lambda: len(p.errors) == len(bad_frames) + 1, 5)
        assert p.v == v_before  # nothing changed
        # Not the host: start refused; an illegal move is rejected with a reason.
        await players[1].send({"type": "start"})
        await players[1].wait_for(lambda: any(e["code"] in ("not_host", "bad_phase") for e in players[1].errors))
        illegal = {"type": "tableau", "src": 0, "dst": 0, "count": 1}
        reply = await p.reply(await p.act(illegal))
        assert reply["type"] == "rejected" and reply["code"] == "illegal" and reply["reason"]
        assert p.v == v_before
        await still_works(players)
        for q in players:
            await q.close()

    run(main())


def test_replayed_action_id_is_applied_once(server):
    async def main():
        players = await seat_players(server, 2)
        await start_round(players)
        p = players[0]
        first = await p.reply(await p.act({"type": "draw"}, "same-id"))
        v_after = p.v
        await p.act({"type": "draw"}, "same-id")
        await p.wait_for(lambda: sum(1 for m in p.received if m.get("id") == "same-id") == 2)
        second = [m for m in p.received if m.get("id") == "same-id"][1]
        assert first["type"] == second["type"] == "ack" and second["v"] == first["v"]
        assert second.get("duplicate") is True
        await asyncio.sleep(0.1)  # a fixed wait: the duplicate must *not* change the state meanwhile
        assert p.v == v_after
        for q in players:
            await q.close()

    run(main())


def test_actions_before_the_start_and_by_spectators_are_rejected(server):
    async def main():
        players = await seat_players(server, 2)
        p = players[0]
        reply = await p.reply(await p.act({"type": "draw"}))
        assert reply["code"] == "not_started"
        await start_round(players)
        from tests.support.ws_client import join_room

        late = Player(server.ws_base, await join_room(server.base, p.code, "Late"))
        assert late.grant["spectator"] is True
        await late.connect()
        await late.wait_for(lambda: late.state is not None)
        reply = await late.reply(await late.act({"type": "draw"}))
        assert reply["code"] == "spectator"
        await still_works(players)
        for q in players + [late]:
            await q.close()

    run(main())


def test_unknown_token_foreign_origin_missing_hello_are_closed_with_1008(server):
    async def main():
        players = await seat_players(server, 2)
        code = players[0].code
        ws = await raw_socket(server, code)
        await ws.send(json.dumps({"type": "hello", "token": "not-a-token"}))
        await expect_close(ws, 1008)
        ws = await raw_socket(server, "NOSUCHR")
        await ws.send(json.dumps({"type": "hello", "token": players[0].token}))
        await expect_close(ws, 1008)
        ws = await raw_socket(server, code, headers={"Origin": "http://evil.example"})
        await expect_close(ws, 1008)
        ws = await raw_socket(server, code)
        await ws.send(json.dumps({"type": "start"}))  # not a hello
        await expect_close(ws, 1008)
        ws = await raw_socket(server, code)
        await ws.send(b"\x00binary hello")  # review finding: used to drop with 1006
        await expect_close(ws, 1008)
        # The page's own origin is allowed.
        good = Player(server.ws_base, players[1].grant)
        await players[1].close()
        await good.connect(origin=server.base)
        await good.wait_for(lambda: good.state is not None)
        await still_works([players[0], good])
        await players[0].close()
        await good.close()

    run(main())


def test_socket_paths_other_than_a_room_are_refused(server):
    """Only `/ws/{code}` takes the sockets' short way past the router; any other socket
    path is still refused by the router, before the handshake completes."""

    async def main():
        players = await seat_players(server, 2)
        for path in ("/ws/", f"/ws/{players[0].code}/extra", "/elsewhere"):
            with pytest.raises(websockets.InvalidStatus) as refused:
                await websockets.connect(f"{server.ws_base}{path}", compression=None)
            assert refused.value.response.status_code == 403
        await still_works(players)
        for p in players:
            await p.close()

    run(main())


def test_huge_frame_closes_1009_and_flood_closes_1008_without_disturbing_others(server):
    async def main():
        players = await seat_players(server, 3)
        other_room = await seat_players(server, 2)
        await start_round(players)
        await players[1].ws.send(json.dumps({"type": "ping", "pad": "x" * 5000}))
        await players[1].wait_for(lambda: players[1].close_code is not None, 5)
        assert players[1].close_code == 1009
        flooder = players[2]
        with pytest.raises((websockets.ConnectionClosed, ConnectionError, asyncio.TimeoutError)):
            for _ in range(2000):
                await flooder.ws.send(json.dumps({"type": "ping"}))
            await flooder.wait_for(lambda: False, 5)
        assert flooder.close_code == 1008
        await still_works(players[:1])
        await still_works(other_room)
        for q in players + other_room:
            await q.close()

    run(main())


def test_http_bad_input(server):
    with httpx.Client(base_url=server.base) as http:
        assert http.post("/api/rooms", json={"name": ""}).status_code == 422
        assert http.post("/api/rooms", json={"name": "x" * 21}).status_code == 422
        assert http.post("/api/rooms", json={"name": "   "}).status_code == 422
        assert http.post("/api/rooms", json={"name": "a\nb"}).status_code == 422
        assert http.post("/api/rooms", json={"name": "A", "max_players": 9}).status_code == 422
        assert http.post("/api/rooms", json={"name": "A", "extra": 1}).status_code == 422
        assert (
            http.post("/api/rooms", content=b"{not json", headers={"content-type": "application/json"}).status_code
            == 422
        )
        assert http.post("/api/rooms/NOSUCHR/join", json={"name": "B"}).status_code == 404
        created = http.post("/api/rooms", json={"name": "<b>Ann</b>"}).json()
        summary = http.get(f"/api/rooms/{created['code']}").json()
        assert summary["players"][0]["name"] == "<b>Ann</b>"  # stored as text; the browser inserts text
        assert "token" not in json.dumps(summary)
        game = http.post("/api/grip", json={"number": 7}).json()
        gid, token = game["id"], game["token"]
        auth = {"Authorization": f"Bearer {token}"}
        assert http.get(f"/api/grip/{gid}").status_code == 404
        assert http.get(f"/api/grip/{gid}", headers={"Authorization": "Bearer wrong"}).status_code == 404
        bad = http.post(f"/api/grip/{gid}", headers=auth, json={"op": "action", "action": {"type": "swap", "a": 0}})
        assert bad.status_code == 409 and bad.json()["detail"]
        assert http.post(f"/api/grip/{gid}", headers=auth, json={"op": "fly"}).status_code == 422
        assert http.post(f"/api/grip/{gid}", headers=auth, json={"op": "undo"}).status_code == 409
        after = http.get(f"/api/grip/{gid}", headers=auth).json()
        assert after["state"] == game["state"]


@pytest.mark.slow
def test_slow_reader_is_dropped_with_1013_and_resyncs(tmp_path):
    """A client that stops reading is cut off when its queue fills; the room goes on."""

    async def main(server):
        players = await seat_players(server, 2)
        await start_round(players)
        slow = players[1]
        await slow.close()
        await slow.connect(tiny_buffers=True)
        await slow.wait_for(lambda: slow.state is not None)
        await players[0].wait_for(lambda: all(p["connected"] for p in players[0].state["players"]))
        slow._reader.cancel()  # stop reading: the socket fills, then the server's queue
        fast = players[0]
        # Each resync makes the server send this client a whole snapshot it never reads.
        for _ in range(4000):
            try:
                await slow.ws.send('{"type":"resync"}')
            except Exception:
                break
            if any(p["id"] == slow.grant["you"] and not p["connected"] for p in fast.state["players"]):
                break
        await fast.wait_for(
            lambda: any(p["id"] == slow.grant["you"] and not p["connected"] for p in fast.state["players"]), 10
        )
        await fast.reply(await fast.act(next(a for a in fast.legal if a["type"] in ("draw", "recycle"))))
        again = Player(server.ws_base, slow.grant)
        await again.connect()
        await again.wait_for(lambda: again.state is not None and again.state["phase"] == "playing")
        await fast.wait_for(lambda: fast.v == again.v)
        assert again.state["round"] == fast.state["round"]
        assert "socket too slow" in server.log()
        await fast.close()
        await again.close()

    with LiveServer(tmp_path, send_queue=16, rate_per_s=100000, rate_burst=100000, countdown_s=0.1) as srv:
        asyncio.run(main(srv))
