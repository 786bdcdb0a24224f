"""WebSocket tests against a real uvicorn: whole rounds, races, convergence, secrecy."""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter

from app.demon.rules.round import DemonRound
from tests.server.conftest import RACE_SEED
from tests.support.ws_client import Player, create_room, join_room

CARD = re.compile(r'"([A2-9TJQK][SHDC])"')


async def seat_players(server, n: int, **options) -> list[Player]:
    grant = await create_room(server.base, "P0", **options)
    grants = [grant] + [await join_room(server.base, grant["code"], f"P{i}") for i in range(1, n)]
    players = [Player(server.ws_base, g) for g in grants]
    for p in players:
        await p.connect()
    await players[0].wait_for(lambda: players[0].state and len(players[0].state["players"]) == n)
    return players


async def start_round(players: list[Player]) -> None:
    await players[0].send({"type": "start"})
    for p in players:
        await p.wait_for(lambda p=p: p.state and p.state["phase"] == "playing" and p.legal, 5)


def public_round(p: Player) -> dict:
    assert p.state is not None
    return p.state["round"]


def choose(legal: list[dict], rng: random.Random, view: dict) -> dict | None:
    """Prefer progress: foundation plays, then waste to tableau, then moves that turn a
    card up, then drawing. Pointless shuffles are never chosen, so bots cannot loop."""
    foundation = [a for a in legal if a["type"] == "foundation"]
    if foundation:
        return rng.choice(foundation)
    from_waste = [a for a in legal if a["type"] == "tableau" and a["src"] == "waste"]
    if from_waste:
        return rng.choice(from_waste)
    exposing = [
        a
        for a in legal
        if a["type"] == "tableau"
        and a["src"] != "waste"
        and view["tableau"][a["src"]]["down"] > 0
        and a["count"] == len(view["tableau"][a["src"]]["up"])
    ]
    if exposing:
        return rng.choice(exposing)
    cycle = [a for a in legal if a["type"] in ("draw", "recycle")]
    return cycle[0] if cycle else None


async def bot(p: Player, rng: random.Random, max_idle_cycles: int = 3) -> None:
    """Play until the round ends; vote to end after several fruitless passes of the stock."""
    idle = 0
    voted = False
    assert p.state is not None
    while p.state["phase"] == "playing":
        view = public_round(p)["seats"][p.seat]
        action = choose(p.legal, rng, view) if p.legal else None
        if action is None or action["type"] == "recycle":
            idle += 1
        elif action["type"] != "draw":
            idle = 0
        if (action is None or idle > max_idle_cycles) and not voted:
            await p.send({"type": "vote", "end": True})
            voted = True
        if action is None or voted:
            await p.wait_for(lambda: p.state["phase"] != "playing", 30)
            return
        v_before = p.v
        assert v_before is not None
        reply = await p.reply(await p.act(action))
        assert reply["type"] in ("ack", "rejected"), reply
        if reply["type"] == "rejected":
            # Lost a race, or the round ended (all stuck, a vote) while the play was sent.
            assert reply["code"] in ("race_lost", "round_over"), reply
        await p.wait_for(lambda: p.v is not None and p.v >= (reply.get("v") or v_before))


def seat_cards(view: dict) -> list[str]:
    cards = [c for pile in view["tableau"] for c in pile["up"]]
    return cards + view["waste"]


def test_eight_seats_play_a_whole_round_and_converge(server):
    async def main():
        players = await seat_players(server, 8, rounds=1)
        await start_round(players)
        await asyncio.gather(*(bot(p, random.Random(i)) for i, p in enumerate(players)))
        for p in players:
            await p.wait_for(lambda p=p: p.state["phase"] == "match_over", 10)
        # A fresh client's snapshot is the server's truth: everyone must equal it.
        fresh = Player(server.ws_base, players[3].grant)
        await players[3].close()
        await fresh.connect()
        await fresh.wait_for(lambda: fresh.state is not None)
        truth = fresh.state
        for p in players[:3] + players[4:]:
            await p.wait_for(lambda p=p: p.v == fresh.v, 5)
            assert p.state["round"] == truth["round"]
            assert p.state["result"] == truth["result"]
            assert p.gaps == 0
        rnd = truth["round"]
        for seat, view in enumerate(rnd["seats"]):
            # 52 cards per seat: visible + face down + stock + hidden waste + foundations.
            hidden = sum(pile["down"] for pile in view["tableau"]) + view["stock"]
            visible_tableau = sum(len(pile["up"]) for pile in view["tableau"])
            assert visible_tableau + hidden + view["waste_count"] + rnd["cards_home"][seat] == 52
        assert sum(f["count"] for f in rnd["foundations"]) == sum(rnd["cards_home"])
        scores = truth["result"]["scores"]
        assert set(scores) == {p.grant["you"] for p in players}
        for p in players[:3] + players[4:] + [fresh]:
            await p.close()

    asyncio.run(main())


def test_race_for_the_same_foundation_is_won_exactly_once(server):
    async def one_race(i: int) -> tuple[int, int]:
        a_grant = await create_room(server.base, f"A{i}")
        b_grant = await join_room(server.base, a_grant["code"], f"B{i}")
        a, b = Player(server.ws_base, a_grant), Player(server.ws_base, b_grant)
        await a.connect()
        await b.connect()
        await a.wait_for(lambda: a.state and len(a.state["players"]) == 2)
        await start_round([a, b])
        ace = next(s for s, pile in enumerate(public_round(a)["seats"][0]["tableau"]) if pile["up"][-1:] == ["AC"])
        await a.reply(await a.act({"type": "foundation", "src": ace, "pile": None}))
        await b.wait_for(lambda: len(public_round(b)["foundations"]) == 1)
        two_a = next(s for s, pile in enumerate(public_round(a)["seats"][0]["tableau"]) if pile["up"][-1:] == ["2C"])
        two_b = next(s for s, pile in enumerate(public_round(b)["seats"][1]["tableau"]) if pile["up"][-1:] == ["2C"])
        ida, idb = await asyncio.gather(
            a.act({"type": "foundation", "src": two_a, "pile": 0}),
            b.act({"type": "foundation", "src": two_b, "pile": 0}),
        )
        ra, rb = await a.reply(ida), await b.reply(idb)
        assert sorted([ra["type"], rb["type"]]) == ["ack", "rejected"]
        winner, loser = (0, rb) if ra["type"] == "ack" else (1, ra)
        assert loser["code"] == "race_lost" and loser["by_seat"] == winner and loser["pile"] == 0
        assert loser["by_name"] == (f"A{i}" if winner == 0 else f"B{i}")
        await a.wait_for(lambda: public_round(a)["foundations"][0]["count"] == 2)
        pile = public_round(a)["foundations"][0]
        assert pile["top"] == "2C" and pile["seat"] == winner
        # The loser's 2C is still in its layout; nothing moved twice.
        await asyncio.sleep(0.05)  # a fixed wait: no second move arrives meanwhile
        loser_view = public_round(a)["seats"][1 - winner]["tableau"]
        assert ["2C"] in [p["up"][-1:] for p in loser_view]
        assert public_round(a)["cards_home"] == ([2, 0] if winner == 0 else [1, 1])
        await a.close()
        await b.close()
        return winner, 1

    async def main():
        results = []
        for i in range(25):
            results.append(await one_race(i))
        return results

    results = asyncio.run(main())
    assert len(results) == 25


def test_a_play_reaches_each_socket_as_one_frame_with_legal_actions_before_the_ack(server):
    """Messages of one turn share a frame, one per line: the mover reads the move, its new
    legal actions and then its ack; the other seat the move and its own new legal actions
    (it holds the 2 of clubs, which the ace makes playable)."""

    async def main():
        a, b = await seat_players(server, 2)
        await start_round([a, b])
        ace = next(s for s, pile in enumerate(public_round(a)["seats"][0]["tableau"]) if pile["up"][-1:] == ["AC"])
        before_a, before_b = len(a.received), len(b.received)
        action_id = await a.act({"type": "foundation", "src": ace})
        ack = await a.reply(action_id)
        await b.wait_for(lambda: b.v == ack["v"] and any(m["type"] == "legal" for m in b.received[before_b:]))
        mine, theirs = a.received[before_a:], b.received[before_b:]
        assert [m["type"] for m in mine] == ["event", "legal", "ack"]
        assert len(set(a.frame_of[before_a:])) == 1
        assert [m["type"] for m in theirs] == ["event", "legal"]
        assert len(set(b.frame_of[before_b:])) == 1
        assert any(x["type"] == "foundation" for x in b.legal)
        for p in (a, b):
            await p.close()

    asyncio.run(main())


def test_no_face_down_card_or_stock_order_is_ever_sent(server):
    async def main():
        players = await seat_players(server, 2, rounds=1)
        await start_round(players)
        dealt = DemonRound.deal(RACE_SEED, 2)
        rng = random.Random(5)
        p = players[0]
        for _ in range(40):  # draws and plays reveal cards only as they become visible
            action = choose(p.legal, rng, public_round(p)["seats"][0])
            if action is None:
                break
            await p.reply(await p.act(action))
        seen_by_seat = {0: Counter(), 1: Counter()}
        for player in players:
            for msg in player.received:
                for view in _seat_views(msg):
                    assert all(isinstance(pile["down"], int) for pile in view["tableau"])
                    assert isinstance(view["stock"], int) and len(view["waste"]) <= 3
                    seen_by_seat[view["seat"]].update(seat_cards(view))
        # Seat 1 never acted: all anybody saw of it is its seven face-up cards.
        assert set(seen_by_seat[1]) == {str(pile.up[-1]) for pile in dealt.seats[1].tableau}
        for player in players:
            await player.close()

    asyncio.run(main())


def _seat_views(msg: dict):
    if msg["type"] == "snapshot" and msg["state"].get("round"):
        yield from msg["state"]["round"]["seats"]
    if msg["type"] == "event":
        ev = msg["event"]
        if ev["kind"] == "round_started":
            yield from ev["round"]["seats"]
        if ev["kind"] == "move":
            yield ev["seat_view"]
