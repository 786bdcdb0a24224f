"""Quick smoke checks of the Demon API shape (the detailed rule tests live beside)."""

from app.engine.demon import DemonRound, Draw, action_from_json, action_to_json


def test_deal_start_draw_roundtrip():
    r = DemonRound.deal(1, 2).start()
    r2, events = r.apply(Draw(0))
    assert events[0].to_json()["type"] == "drew"
    assert DemonRound.from_json(r2.to_json()) == r2
    assert action_from_json(action_to_json(Draw(1))) == Draw(1)
    assert r2.view(None)["seats"][0]["waste_count"] == 3
