"""The WebSocket path hardened, against a real uvicorn: a rematch carried by the events
alone, and names a person cannot be fooled by."""

from __future__ import annotations

import asyncio
import copy

import httpx
import pytest

from tests.support.ws_client import Player, create_room, join_room


def test_after_a_rematch_a_client_that_applies_events_holds_what_a_snapshot_says(server):
    asyncio.run(_after_a_rematch_a_client_that_applies_events_holds_what_a_snapshot_says(server))


async def _after_a_rematch_a_client_that_applies_events_holds_what_a_snapshot_says(server):
    grant = await create_room(server.base, "Ann", rounds=1)
    ann, bob = Player(server.ws_base, grant), Player(server.ws_base, await join_room(server.base, grant["code"], "Bob"))
    for p in (ann, bob):
        await p.connect()
    await ann.wait_for(lambda: ann.state and len(ann.state["players"]) == 2)
    await ann.send({"type": "start"})
    await ann.wait_for(lambda: ann.state["phase"] == "playing" and ann.state["round"])
    for p in (ann, bob):
        await p.send({"type": "vote", "end": True})
    await ann.wait_for(lambda: ann.state["phase"] == "match_over")
    await ann.send({"type": "rematch"})
    # the new match's countdown starts at once, and its `room` event clears
    # the old table from the events alone; then the new match's first round is dealt
    await ann.wait_for(lambda: ann.state["phase"] == "playing" and ann.state["round_no"] == 1)
    rematch_event = next(
        msg["event"]
        for msg in ann.received
        if msg["type"] == "event" and msg["event"]["kind"] == "room" and "round" in msg["event"]["state"]
    )
    assert rematch_event["state"]["round"] is None and rematch_event["state"]["phase"] == "countdown"
    by_events = copy.deepcopy(ann.state)
    snapshots = sum(1 for msg in ann.received if msg["type"] == "snapshot")
    await ann.send({"type": "resync"})
    await ann.wait_for(lambda: sum(1 for msg in ann.received if msg["type"] == "snapshot") > snapshots)
    assert ann.gaps == 0
    assert by_events == ann.state
    assert by_events["round_no"] == 1 and by_events["history"] == []
    for p in (ann, bob):
        await p.close()


@pytest.mark.parametrize(
    "name",
    [
        "\u202eevil",  # right-to-left override
        "Ann\u2066",  # left-to-right isolate
        "\u200b",  # zero width space, alone
        "\u200b\u200d\u2060",  # nothing but invisible characters
        "\u3164",  # Hangul filler: a letter that shows nothing
        "An\u2028n",  # line separator
        "An\u0085n",  # next line (a C1 control)
        "An\u009bn",  # another C1 control
    ],
)
def test_names_that_hide_or_reorder_text_are_refused(server, name):
    asyncio.run(_names_that_hide_or_reorder_text_are_refused(server, name))


async def _names_that_hide_or_reorder_text_are_refused(server, name):
    async with httpx.AsyncClient() as http:
        created = await http.post(server.base + "/api/rooms", json={"name": name})
        assert created.status_code == 422, created.text
        code = (await http.post(server.base + "/api/rooms", json={"name": "Host"})).json()["code"]
        joined = await http.post(f"{server.base}/api/rooms/{code}/join", json={"name": name})
        assert joined.status_code == 422, joined.text


def test_ordinary_names_in_any_script_are_kept_as_typed(server):
    asyncio.run(_ordinary_names_in_any_script_are_kept_as_typed(server))


async def _ordinary_names_in_any_script_are_kept_as_typed(server):
    for name in ("Zoë", "Łukasz", "محمد", "李雷", "👩\u200d👩\u200d👧 family", "O'Brien-Smith"):
        grant = await create_room(server.base, name)
        ann = Player(server.ws_base, grant)
        await ann.connect()
        await ann.wait_for(lambda: ann.state is not None)
        assert ann.state["players"][0]["name"] == name
        await ann.close()


def test_two_seats_given_one_name_are_told_apart_on_the_wire(server):
    asyncio.run(_two_seats_given_one_name_are_told_apart_on_the_wire(server))


async def _two_seats_given_one_name_are_told_apart_on_the_wire(server):
    grant = await create_room(server.base, "Ann")
    await join_room(server.base, grant["code"], "ann")
    ann = Player(server.ws_base, grant)
    await ann.connect()
    await ann.wait_for(lambda: ann.state and len(ann.state["players"]) == 2)
    assert [p["name"] for p in ann.state["players"]] == ["Ann", "ann (2)"]
    await ann.close()
