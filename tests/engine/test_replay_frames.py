"""The frames of a replay (app/records/frames.py) step from the dealt table to the
record's final table, by the engine; records without times give frames without them."""

from __future__ import annotations

import random

from app.demon.rules.actions import action_to_json
from app.demon.rules.record import make_demon_record, replay_demon
from app.demon.rules.round import DemonRound
from app.racing import DEMON
from app.records.frames import race_frames, round_view


def random_record(seed: int, plays: int = 300) -> dict:
    rng = random.Random(seed)
    dealt = DemonRound.deal(seed, 3)
    rnd = dealt.start()
    actions = []
    for _ in range(plays):
        if rnd.end is not None:
            break
        seat = rng.randrange(3)
        legal = rnd.legal_actions(seat)
        if not legal:
            continue
        foundation = [a for a in legal if type(a).__name__ == "ToFoundation"]
        action = rng.choice(foundation or list(legal))
        rnd, _ = rnd.apply(action)
        actions.append(action_to_json(action))
    if rnd.end is None:
        actions.append({"type": "finish", "reason": "vote"})
    return make_demon_record(dealt, actions, times=[0.5 * i for i in range(len(actions))])


def test_frames_step_to_the_final_table():
    for seed in (1, 2, 3):
        record = random_record(seed)
        replay = race_frames(record)
        table = replay["initial"]
        for frame in replay["frames"]:
            if frame["kind"] != "move":
                continue
            seats = list(table["seats"])
            seats[frame["seat"]] = frame["seat_view"]
            piles = list(table["foundations"])
            for f in frame["foundations"]:
                piles[f["pile"] : f["pile"] + 1] = [f]
            table = {**table, "seats": seats, "foundations": piles}
        final = round_view(replay_demon(record), DEMON)
        assert table["seats"] == final["seats"] == replay["final"]["seats"]
        assert table["foundations"] == final["foundations"]
        assert [f["at"] for f in replay["frames"]] == record["times"]
        assert replay["end"]["reason"] in ("vote", "demon", "stuck")


def test_a_record_without_times_has_frames_without_them():
    record = random_record(4, plays=40)
    del record["times"]
    assert {f["at"] for f in race_frames(record)["frames"]} == {None}
