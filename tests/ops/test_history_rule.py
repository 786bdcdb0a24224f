"""Who sees which games, on a real server: /api/history lists only rooms whose host listed
them; a room's other matches are answered only to a token of a seat that played them."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from tests.server.conftest import RACE_SEED
from tests.server.test_ws_play import seat_players, start_round
from tests.support.live_server import LiveServer
from tests.support.ws_client import Player


async def finish_match(players: list[Player]) -> None:
    """A one-round match ended by everybody's vote."""
    await start_round(players)
    for p in players:
        await p.send({"type": "vote", "end": True})
    for p in players:
        await p.wait_for(lambda p=p: p.state["phase"] == "match_over")
    for p in players:
        await p.close()


@pytest.mark.slow
def test_history_lists_only_listed_rooms_and_a_seat_sees_its_own(tmp_path):
    with LiveServer(tmp_path / "a", test_seed=RACE_SEED, countdown_s=0.2) as srv:

        async def play() -> tuple[list[Player], list[Player]]:
            private = await seat_players(srv, 2, rounds=1)
            public = await seat_players(srv, 2, rounds=1, listed=True)
            await finish_match(private)
            await finish_match(public)
            return private, public

        private, public = asyncio.run(play())
        private_code, public_code = private[0].code, public[0].code

        def history() -> list[str]:
            return [g["code"] for g in httpx.get(srv.base + "/api/history").json()["games"]]

        def seen_by(code: str, token: str) -> list[dict]:
            answer = httpx.post(f"{srv.base}/api/rooms/{code}/history", json={"token": token})
            assert answer.status_code == 200, answer.text
            return answer.json()["games"]

        # the public list: the listed room only (a match is saved before its end is sent)
        assert history() == [public_code]
        # each person of the private room sees it, with names and totals
        for p in private:
            games = seen_by(private_code, p.token)
            assert [g["code"] for g in games] == [private_code]
            assert {pl["name"] for pl in games[0]["players"]} == {"P0", "P1"}
        # a stranger's token, or another room's seat, sees nothing of it; an unknown code
        # gets the same empty answer as a known one (it tells a guesser nothing)
        assert seen_by(private_code, "x" * 43) == []
        assert seen_by(private_code, public[0].token) == []
        assert seen_by("ZZZZZZZ", private[0].token) == []
        # a wrong field or an empty token is refused, not answered
        assert httpx.post(f"{srv.base}/api/rooms/{private_code}/history", json={"token": ""}).status_code == 422
        assert (
            httpx.post(
                f"{srv.base}/api/rooms/{private_code}/history", json={"token": private[0].token, "more": 1}
            ).status_code
            == 422
        )


def test_matches_recorded_before_the_rule_are_listed_for_nobody(tmp_path):
    """A schema-4 database upgraded to the newest (5: kept action ids, 6: who sees which
    match, then later steps): its old matches are neither public nor anyone's."""
    from app.storage.schema import SCHEMA_VERSION
    from app.storage.store import Store

    old = Store.open(tmp_path, target_version=4)
    old.conn.execute(
        "INSERT INTO matches (code, finished_at, players, rounds, winners) VALUES ('KXWPRTM', 1.0, '[]', '[]', '[]')"
    )
    old.close()
    store = Store.open(tmp_path)
    try:
        assert store.version == SCHEMA_VERSION
        assert store.conn.execute("SELECT count(*) FROM matches").fetchone()[0] == 1
        assert store.recent_matches() == []
        assert store.matches_seen_by("KXWPRTM", b"\0" * 32) == []
    finally:
        store.close()
