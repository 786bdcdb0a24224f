"""/metrics and /health against a real server (uvicorn subprocess, real sockets, real SQLite)."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.server.conftest import RACE_SEED
from tests.server.test_ws_play import bot, seat_players, start_round
from tests.support.live_server import LiveServer


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of an exposition, parsed by the library's own parser."""
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(found: dict, name: str, **labels: str) -> float:
    return found.get((name, frozenset(labels.items())), 0.0)


def test_metrics_count_a_played_round_and_read_the_rooms_at_scrape(tmp_path):
    with LiveServer(
        tmp_path / "a", test_seed=RACE_SEED, countdown_s=0.2, shard="AB", rate_per_s=400, rate_burst=400
    ) as srv:
        before = samples(httpx.get(srv.base + "/metrics").text)

        async def play() -> tuple[int, int, dict]:
            players = await seat_players(srv, 2)
            await start_round(players)
            rng = random.Random(4)
            # a move that cannot be legal: refused with a code, counted by that code
            await players[0].send({"type": "action", "id": "bad", "action": {"type": "foundation", "src": "waste"}})
            await players[0].reply("bad")
            await asyncio.gather(*(bot(p, rng) for p in players))
            acks = sum(1 for p in players for r in p.replies.values() if r["type"] == "ack")
            rejected = sum(1 for p in players for r in p.replies.values() if r["type"] == "rejected")
            during = samples(httpx.get(srv.base + "/metrics").text)  # sockets still open
            for p in players:
                await p.close()
            return acks, rejected, during

        acks, rejected, during = asyncio.run(play())
        after = samples(httpx.get(srv.base + "/metrics").text)

    assert acks > 10
    applied = value(after, "demon_moves_total", result="applied", shard="AB") - value(
        before, "demon_moves_total", result="applied", shard="AB"
    )
    assert applied == acks
    refused = value(after, "demon_moves_total", result="refused", shard="AB") - value(
        before, "demon_moves_total", result="refused", shard="AB"
    )
    assert refused == rejected >= 1
    assert sum(v for (name, labels), v in after.items() if name == "demon_moves_refused_total") >= rejected
    # histograms: one observation per move handled, flushes and commits timed
    moves_timed = value(after, "demon_move_seconds_count", shard="AB") - value(
        before, "demon_move_seconds_count", shard="AB"
    )
    assert moves_timed == acks + rejected
    assert value(after, "demon_flush_seconds_count", shard="AB") > 0
    assert value(after, "demon_save_seconds_count", shard="AB") > 0
    assert value(after, "demon_fanout_seconds_sum", shard="AB") > 0
    # state read at scrape time: the room, its two people, their two sockets
    assert value(during, "demon_open_sockets", shard="AB") == 2
    assert value(during, "demon_people", shard="AB") == 2
    assert sum(v for (name, _l), v in during.items() if name == "demon_rooms") == 1
    assert value(after, "demon_sqlite_file_bytes", shard="AB") > 0
    assert value(after, "process_resident_memory_bytes", shard="AB") > 0


@pytest.mark.slow
def test_metrics_answer_only_the_allowed_addresses_and_can_be_off(tmp_path):
    with LiveServer(tmp_path / "a", metrics_allow="10.0.0.0/8") as srv:
        assert httpx.get(srv.base + "/metrics").status_code == 404  # 127.0.0.1 is not in 10/8
        assert httpx.get(srv.base + "/health").status_code == 200
    with LiveServer(tmp_path / "b", metrics="false") as srv:
        assert httpx.get(srv.base + "/metrics").status_code == 404
    with LiveServer(tmp_path / "c") as srv:  # the default: loopback and private ranges
        answer = httpx.get(srv.base + "/metrics")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/plain; version=")


@pytest.mark.slow
def test_health_counts_bots_and_names_version_and_schema(tmp_path):
    from app import __version__
    from app.storage.schema import SCHEMA_VERSION

    with LiveServer(tmp_path / "a", bot_think_scale=5) as srv:
        assert httpx.post(srv.base + "/api/rooms/practice", json={"name": "Ann", "bots": 3}).status_code == 200
        health = httpx.get(srv.base + "/health").json()
        assert health["bots"] == 3
        assert health["version"] == __version__
        assert health["schema"] == SCHEMA_VERSION
        metrics = samples(httpx.get(srv.base + "/metrics").text)
        assert value(metrics, "demon_bots") == 3
        assert value(metrics, "demon_build_info", version=__version__, schema=str(SCHEMA_VERSION)) == 1
    with LiveServer(tmp_path / "b", persist="false") as srv:
        assert httpx.get(srv.base + "/health").json()["schema"] is None


@pytest.mark.slow
def test_a_stalled_event_loop_is_counted_logged_and_told_by_health(tmp_path):
    """The rooms' process is stopped for 0.4 s (SIGSTOP, as a long collection or a slow
    query would hold its loop): its loop watch sees the wake-up that came late."""
    import os
    import signal
    import time

    with LiveServer(tmp_path / "a") as srv:
        before = samples(httpx.get(srv.base + "/metrics").text)
        os.kill(srv.proc.pid, signal.SIGSTOP)
        time.sleep(0.4)  # a fixed wait: the stall under test (the process stopped this long)
        os.kill(srv.proc.pid, signal.SIGCONT)
        srv.wait_for_log(lambda text: "the event loop stalled" in text)  # logged as it woke, late
        after = samples(httpx.get(srv.base + "/metrics").text)
        health = httpx.get(srv.base + "/health").json()
    assert value(after, "demon_loop_stalls_total") >= value(before, "demon_loop_stalls_total") + 1
    assert value(after, "demon_loop_lag_seconds_count") > value(before, "demon_loop_lag_seconds_count")
    assert value(after, "demon_loop_lag_seconds_bucket", le="0.1") < value(after, "demon_loop_lag_seconds_count")
    assert health["loop"]["stalls"] >= 1 and health["loop"]["worst_ms"] >= 300


@pytest.mark.slow
def test_devils_grip_games_hints_and_refusals_by_reason_are_counted(tmp_path):
    """Each refusal counted under its reason, as many as the answers said: rate limit
    (429), busy (503: one hint pending at most), guessing (an unknown game)."""
    with LiveServer(
        tmp_path / "a",
        winnable_ready=0,
        hint_deadline_s=3,
        hint_queue=1,
        grip_search_rate_per_s=0.05,
        grip_search_burst=2,
        grip_addr_burst=1000,
    ) as srv:
        before = samples(httpx.get(srv.base + "/metrics").text)
        with httpx.Client(base_url=srv.base, timeout=30) as http:
            games = [http.post("/api/grip", json={"number": 7 + i}).json() for i in range(6)]
            auth = [{"Authorization": f"Bearer {g['token']}"} for g in games]
            statuses = [
                http.post(f"/api/grip/{games[0]['id']}", headers=auth[0], json={"op": "hint"}).status_code
                for _ in range(3)
            ]  # the third is past the game's burst of 2
            assert statuses[2] == 429
            guessed = http.post("/api/grip/ZZZZZZZZZZZZ", headers=auth[0], json={"op": "hint"})
            assert guessed.status_code == 404

        async def at_once() -> list[int]:  # five games' hints at once: one pending at most
            async with httpx.AsyncClient(base_url=srv.base, timeout=30) as client:
                answers = await asyncio.gather(
                    *(
                        client.post(f"/api/grip/{g['id']}", headers=a, json={"op": "hint"})
                        for g, a in zip(games[1:], auth[1:])
                    )
                )
            return [a.status_code for a in answers]

        statuses += asyncio.run(at_once())
        after = samples(httpx.get(srv.base + "/metrics").text)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("devils_grip_games_started_total") == 6
    assert grew("devils_grip_refusals_total", reason="rate_limit") == statuses.count(429) == 1
    assert grew("devils_grip_refusals_total", reason="guessing") == 1
    assert grew("devils_grip_refusals_total", reason="busy") == statuses.count(503)
    answered = statuses.count(200)
    assert answered >= 2
    assert grew("devils_grip_hints_total") == answered + statuses.count(503)  # asked: past the rate limit
    assert grew("devils_grip_hint_seconds_count") == answered
    assert value(after, "devils_grip_hint_queue") == 0
