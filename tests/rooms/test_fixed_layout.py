"""The testing-only DEMON_TEST_LAYOUT: every round of a room starts from the file's seats."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.config import Settings
from app.demon.hub.hub import Hub
from app.demon.room.fixed_layout import layout_round, load_test_layout
from app.demon.room.room import Options, Room
from app.demon.rules.layout import LayoutError
from app.demon.rules.round import DemonRound
from app.support.secrets_util import hash_token
from tests.support.actions import as_sent

LAYOUT = Path(__file__).resolve().parents[1] / "browser" / "layouts" / "tall-pile.json"
TALL = ["KS", "QH", "JS", "TH", "9S", "8H", "7S", "6H", "5S", "4H", "3S", "2H"]
T0 = 1000.0


def play_round(room: Room, n: int) -> list:
    players = [room.join(f"P{i}", hash_token(f"tok{i}")) for i in range(n)]
    for p in players:
        room.connect(p, T0)
    room.start(players[0], T0)
    room.begin_round(T0 + 3)
    return players


def test_every_round_starts_from_the_layout_file():
    template = load_test_layout(LAYOUT)
    room = Room("ROOMABC", Options(rounds=2), countdown_s=3, test_seed=288, test_layout=template)
    room.clock = lambda: T0
    players = play_round(room, 3)
    expected = json.loads(LAYOUT.read_text())["seats"]
    for round_no in (1, 2):
        state = room.round.to_json()
        assert room.round_no == round_no and room.round.started
        assert state["seats"] == expected[:3]
        assert state["seats"][0]["tableau"][6]["up"] == TALL and len(state["seats"][0]["tableau"][6]["down"]) == 6
        # what the players are sent comes from the same position
        mine = room.round_view()["seats"][0]["tableau"][6]
        assert mine["up"] == TALL and mine["down"] == 6
        if round_no == 1:
            for p in players:
                room.vote(p, True)
            room.start(players[0], T0 + 6)
            room.begin_round(T0 + 9)


def test_seats_past_the_file_are_dealt_from_the_seed():
    template = DemonRound.from_json({"seats": json.loads(LAYOUT.read_text())["seats"][:2]})
    room = Room("ROOMABC", Options(), countdown_s=3, test_seed=288, test_layout=template)
    room.clock = lambda: T0
    play_round(room, 3)
    dealt = DemonRound.deal(288, 3)
    assert room.round.seats[:2] == template.seats
    assert room.round.seats[2] == dealt.seats[2]


def test_without_the_setting_rounds_are_dealt_as_usual():
    room = Room("ROOMABC", Options(), countdown_s=3, test_seed=288)
    room.clock = lambda: T0
    play_round(room, 2)
    assert room.round.seats == DemonRound.deal(288, 2).seats


def test_the_hub_reads_the_file_named_by_the_setting(tmp_path):
    hub = Hub(Settings(test_layout=LAYOUT, persist=False, data_dir=tmp_path))
    room = hub._new_room(Options())
    assert room.test_layout == load_test_layout(LAYOUT)
    assert Hub(Settings(persist=False, data_dir=tmp_path))._new_room(Options()).test_layout is None


def test_a_seat_without_a_whole_deck_is_refused(tmp_path):
    data = json.loads(LAYOUT.read_text())
    data["seats"][1] = {**data["seats"][1], "stock": data["seats"][1]["stock"][1:]}  # one card short
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(LayoutError, match="seat 1"):
        load_test_layout(bad)
    data["seats"][1]["tableau"][0] = {"down": [], "up": ["3C", "2C"]}  # not a run of alternating colours
    bad.write_text(json.dumps(data))
    with pytest.raises(LayoutError):
        load_test_layout(bad)


NEAR_DEMON = LAYOUT.parent / "near-demon.json"


def test_a_layout_may_start_with_foundations_and_the_round_can_be_won_in_two_plays():
    """A near-finished round (so a test reaches "Demon!"): seat 0 owns every
    foundation card and holds Q♠ and K♠; seat 1 is stuck from the deal."""
    room = Room("ROOMABC", Options(rounds=1), countdown_s=3, test_seed=288, test_layout=load_test_layout(NEAR_DEMON))
    room.clock = lambda: T0
    ann, bob = play_round(room, 2)
    assert room.round.foundation_counts() == (50, 0)
    assert room.public_stuck() == [1]
    assert room.act(ann, "q", as_sent({"type": "foundation", "src": 1, "pile": 3}), T0 + 4).reply["type"] == "ack"
    assert room.act(ann, "k", as_sent({"type": "foundation", "src": 0, "pile": 3}), T0 + 5).reply["type"] == "ack"
    assert room.result["reason"] == "demon" and room.result["winner"] == ann.id
    assert room.result["scores"] == {ann.id: 62, bob.id: 0}


def test_foundation_cards_count_as_their_owners_and_stay_only_with_their_owner(tmp_path):
    data = json.loads(NEAR_DEMON.read_text())
    data["foundations"][0][0]["seat"] = 1  # Bob's A♣ on the foundations: he holds it twice
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(LayoutError, match="AC"):
        load_test_layout(bad)
    # a round with fewer seats than own foundation cards starts without those foundations
    empty = {"tableau": [{}] * 7}
    three = DemonRound.from_layout([empty, empty, empty], foundations=[[("AS", 2)]], started=False)
    assert layout_round(three, 288, 3).foundations == three.foundations
    assert layout_round(three, 288, 2).foundations == ()
