"""Checks both games' bot tests make alike (tests/engine/test_demon_bot.py and
test_nerts_bot.py): the frame the bots share (`app.common.bots`) behaves the same in
each game, so it is checked the same way, with the game's own bots, levels and rounds.
What a game's bots choose is checked in that game's tests."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pytest

from app.common.rng import SplitMix64

# Saved memories every game's `BotMemory.from_json` refuses: not an object, a card that
# is not one, a field of the wrong type or sign, text that is not JSON.
BAD_MEMORIES: tuple[Any, ...] = (
    [],
    "not json",
    "[1]",
    {"seen": ["ZZ"]},
    {"seen": "5H"},
    {"seen": [5]},
    {"missed": 1},
    {"idle_passes": -1},
    {"decisions": True},
    {"pass_sig": "x"},
)


def check_a_seed_replays(bot_round: Callable[[int, list[str]], tuple[Any, Any]]) -> None:
    """The same seed plays the same round, decision for decision; another seed does not."""
    a = bot_round(9, ["hard", "medium", "easy"])
    b = bot_round(9, ["hard", "medium", "easy"])
    assert a[1] == b[1] and a[0] == b[0]
    c = bot_round(10, ["hard", "medium", "easy"])
    assert c[1] != a[1]


def check_think_times(levels: Mapping[str, Any], think_time: Callable[[Any, SplitMix64], float]) -> None:
    """Every level's think time stays in its range, is never 0 and has a person's spread."""
    for lv in levels.values():
        rng = SplitMix64(5)
        times = [think_time(lv, rng) for _ in range(2000)]
        lo, hi = lv.reaction_s
        assert min(times) >= lo > 0 and max(times) <= hi
        assert max(times) - min(times) > (hi - lo) * 0.6  # a real spread


def check_levels(levels: Mapping[str, Any], level: Callable[[Any], Any], bot_level: Callable[..., Any]) -> None:
    """Three named levels, found by name and nothing else; bad knobs refused; each level
    overlooks less and thinks faster than the one below."""
    assert set(levels) == {"easy", "medium", "hard"}
    assert level("hard") is levels["hard"]
    for bad in ("impossible", None, 3):
        with pytest.raises(ValueError):
            level(bad)
    for knobs in (
        {"reaction_s": (0.0, 1.0), "overlook": 0.1},
        {"reaction_s": (2.0, 1.0), "overlook": 0.1},
        {"reaction_s": (1.0, 2.0), "overlook": 1.0},
        {"reaction_s": (1.0, 2.0), "overlook": 0.1, "move_overlook": -0.1},
        {"reaction_s": (1.0, 2.0), "overlook": 0.1, "patience": -1},
        {"reaction_s": (1.0, 2.0), "overlook": 0.1, "noise": -1.0},
    ):
        with pytest.raises(ValueError):
            bot_level("x", **knobs)
    e, m, h = levels["easy"], levels["medium"], levels["hard"]
    assert e.overlook > m.overlook > h.overlook
    assert e.reaction_s[0] > m.reaction_s[0] > h.reaction_s[0]


def check_memory_json(memory_cls: Any, memory: Any, bad: Iterable[Any] = ()) -> None:
    """`memory` goes through JSON (as a dict and as text) and comes back equal; an empty
    object is a fresh memory; `BAD_MEMORIES` and the game's own `bad` are refused."""
    text = json.dumps(memory.to_json())
    assert memory_cls.from_json(json.loads(text)) == memory
    assert memory_cls.from_json(text) == memory
    assert memory_cls.from_json({}) == memory_cls()
    for data in (*BAD_MEMORIES, *bad):
        with pytest.raises(ValueError):
            memory_cls.from_json(data)
