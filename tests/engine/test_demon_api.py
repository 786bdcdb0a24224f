"""The Demon API surface the room server relies on: action JSON, views, full-state JSON,
explicit layouts, foundation pile naming."""

from __future__ import annotations

import dataclasses
import json

import pytest
from test_demon_support import seat, suit_pile

from app.common.errors import IllegalAction
from app.demon.rules.round import (
    DemonRound,
    Draw,
    LayoutError,
    MalformedAction,
    Pile,
    Recycle,
    RoundEnd,
    SeatState,
    ToFoundation,
    ToTableau,
    action_from_json,
    action_to_json,
)

ALIVE = SeatState.parse([], stock="AC")


@pytest.mark.parametrize(
    "action, data",
    [
        (Draw(0), {"type": "draw", "seat": 0}),
        (Recycle(3), {"type": "recycle", "seat": 3}),
        (ToTableau(1, "waste", 4), {"type": "tableau", "seat": 1, "src": "waste", "dst": 4, "count": 1}),
        (ToTableau(1, 2, 4, 3), {"type": "tableau", "seat": 1, "src": 2, "dst": 4, "count": 3}),
        (ToFoundation(2, "waste"), {"type": "foundation", "seat": 2, "src": "waste", "pile": None}),
        (ToFoundation(2, 6, 5), {"type": "foundation", "seat": 2, "src": 6, "pile": 5}),
    ],
)
def test_action_json_round_trip(action, data):
    assert action_to_json(action) == data
    assert action_from_json(data) == action
    assert action_from_json(json.loads(json.dumps(data))) == action


def test_action_json_defaults():
    assert action_from_json({"type": "tableau", "seat": 0, "src": 1, "dst": 2}) == ToTableau(0, 1, 2, 1)
    assert action_from_json({"type": "foundation", "seat": 0, "src": 1}) == ToFoundation(0, 1, None)


@pytest.mark.parametrize(
    "data, message",
    [
        ([], "JSON object"),
        ({"seat": 0}, "unknown action type"),
        ({"type": "fly", "seat": 0}, "unknown action type"),
        ({"type": "draw"}, "needs a seat"),
        ({"type": "draw", "seat": -1}, "seat"),
        ({"type": "draw", "seat": True}, "seat"),
        ({"type": "draw", "seat": "0"}, "seat"),
        ({"type": "draw", "seat": 0, "src": 1}, "unexpected key"),
        ({"type": "tableau", "seat": 0, "dst": 1}, "needs src"),
        ({"type": "tableau", "seat": 0, "src": 1}, "needs dst"),
        ({"type": "tableau", "seat": 0, "src": 7, "dst": 1}, "src"),
        ({"type": "tableau", "seat": 0, "src": "stock", "dst": 1}, "src"),
        ({"type": "tableau", "seat": 0, "src": 1, "dst": 1}, "two different"),
        ({"type": "tableau", "seat": 0, "src": 1, "dst": 2.0}, "dst"),
        ({"type": "tableau", "seat": 0, "src": 1, "dst": 2, "count": 0}, "count"),
        ({"type": "tableau", "seat": 0, "src": "waste", "dst": 2, "count": 2}, "waste"),
        ({"type": "foundation", "seat": 0, "src": 1, "pile": -1}, "pile"),
        ({"type": "foundation", "seat": 0, "src": 1, "pile": "0"}, "pile"),
    ],
)
def test_malformed_actions_raise_a_clear_illegal_action(data, message):
    with pytest.raises(MalformedAction, match=message):
        action_from_json(data)
    assert issubclass(MalformedAction, IllegalAction)


def test_apply_refuses_non_actions():
    r = DemonRound.deal(1, 2).start()
    with pytest.raises(IllegalAction):
        r.apply({"type": "draw", "seat": 0})  # type: ignore[arg-type]


def test_apply_carries_every_field_it_does_not_change():
    """`apply` builds the next round with the constructor, not `dataclasses.replace`
    (speed): a field added to DemonRound must still reach the next round."""
    r, _ = DemonRound.deal(7, 3).start().with_absent(2)
    after, _ = r.apply(Draw(0))
    assert after.analysis is r.analysis
    for f in dataclasses.fields(DemonRound):
        if f.name not in ("seats", "foundations", "analysis"):
            assert getattr(after, f.name) == getattr(r, f.name), f.name
    assert after.seats[1:] == r.seats[1:] and after.seats[0] != r.seats[0]


def test_seat_view_shape():
    r = DemonRound.deal(1, 2).start()
    r, _ = r.apply(Draw(0))
    r, _ = r.apply(Draw(0))
    s0 = r.seat_view(0)
    assert s0["stock"] == 18 and s0["waste_count"] == 6 and len(s0["waste"]) == 3
    assert s0["tableau"][6] == {"down": 6, "up": ["9H"]}
    json.dumps(s0)


def test_full_state_json_round_trips_exactly():
    r = DemonRound.deal(9, 4).start()
    r, _ = r.apply(Draw(2))
    r, _ = r.with_absent(3)
    for state in (r, r.finish("time")[0], DemonRound.deal(9, 4)):
        data = json.loads(json.dumps(state.to_json()))
        back = DemonRound.from_json(data)
        assert back == state and back.to_json() == state.to_json()


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d["seats"][0]["tableau"].pop(), "7 piles"),
        (lambda d: d["seats"][0]["stock"].append(d["seats"][0]["stock"][0]), "twice"),
        (lambda d: d["seats"][0]["tableau"][3].update(up=[]), "face-down card is on top"),
        (lambda d: d["seats"][0]["tableau"][0].update(up=["KS", "5H"]), "run"),
        (lambda d: d["seats"][0]["stock"].__setitem__(0, "ZZ"), "not a card"),
        (lambda d: d.update(foundations=[[{"card": "2S", "seat": 0}]]), "height"),
        (lambda d: d.update(foundations=[[{"card": "AS", "seat": 7}]]), "owner"),
        (lambda d: d.update(absent=[5]), "absent"),
        (lambda d: d.update(players=3), "players"),
        (lambda d: d.update(started="yes"), "started"),
    ],
)
def test_from_json_validates(mutate, message):
    data = DemonRound.deal(3, 2).to_json()
    mutate(data)
    with pytest.raises(LayoutError, match=message):
        DemonRound.from_json(data)


def test_from_layout_accepts_text_and_pads_piles():
    r = DemonRound.from_layout(
        [{"tableau": [{"down": "2C", "up": "3D"}], "stock": "4S 5S", "waste": ["6S"]}, ALIVE],
        [[("AS", 0)]],
    )
    st = r.seats[0]
    assert len(st.tableau) == 7 and st.tableau[0] == Pile.parse("2C", "3D")
    assert st.stock[-1].rank == 5 and r.started and r.end is None


def test_foundation_pile_naming():
    s0 = seat(("", "AH"), ("", "2S"), waste="AD")
    s1 = seat(("", "2S"), stock="AC")
    r = DemonRound.from_layout([s0, s1], [suit_pile("S", 1, 0), suit_pile("S", 1, 1)])
    legal = r.legal_actions(0)
    # every accepting pile is listed explicitly; aces name "new pile"
    assert ToFoundation(0, 1, 0) in legal and ToFoundation(0, 1, 1) in legal
    assert ToFoundation(0, 0, 2) in legal and ToFoundation(0, "waste", 2) in legal
    # pile=None picks the first pile that accepts
    r1, ev = r.apply(ToFoundation(0, 1))
    assert ev[0].pile == 0
    # an ace's pile index is a hint: a stale "new pile" index still starts a new pile
    r2, _ = r.apply(ToFoundation(1, 0, 1))  # seat 1's 2S onto pile 1
    r3, ev = r2.apply(ToFoundation(0, 0, 2))
    r4, ev = r3.apply(ToFoundation(0, "waste", 2))  # 2 is now taken: still a new pile
    assert ev[0].pile == 3 and ev[0].new_pile
    # a non-ace naming a pile that does not exist
    with pytest.raises(IllegalAction, match="no foundation pile 5"):
        r.apply(ToFoundation(0, 1, 5))


def test_legal_actions_are_empty_when_not_playing():
    r = DemonRound.deal(1, 2)
    assert r.legal_actions(0) == ()
    r = r.start()
    assert r.legal_actions(0)
    assert r.finish("vote")[0].legal_actions(0) == ()
    assert r.with_absent(0)[0].legal_actions(0) == ()
    with pytest.raises(IllegalAction):
        r.legal_actions(2)


def test_round_end_and_scores_in_json():
    r = DemonRound.from_layout([seat(("", "KS")), ALIVE], [suit_pile("S", 12, 0)])
    r, _ = r.apply(ToFoundation(0, 0))
    assert r.end == RoundEnd("demon", 0)
    assert r.to_json()["end"] == {"reason": "demon", "winner": 0}
    assert DemonRound.from_json(r.to_json()).scores() == (62, 0)
