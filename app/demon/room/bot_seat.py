"""What a computer player is, as data: its level, its memory and its random generator.

A bot is an ordinary `Player` of the room with one of these attached (`Player.bot`).
Everything in it is plain and saved with its player (`seating.Player.to_json`), so a restarted server
restores a bot with the same level, the same memory and the same random state, and it
carries on. The code that makes it act lives in app/demon/hub/bot_driver.py; the decisions in
the engine (`app.demon.rules.bot`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from app.common.rng import SplitMix64
from app.demon.rules.bot import LEVELS, BotMemory

BOT_LEVELS = tuple(LEVELS)  # "easy", "medium", "hard"


class BotSeatJson(TypedDict):
    level: str
    memory: dict[str, object]  # the engine's `BotMemory.to_json`
    rng: int  # SplitMix64's state


@dataclass(eq=False)
class BotSeat:
    level: str
    memory: BotMemory
    rng: SplitMix64

    @classmethod
    def new(cls, level: str, seed: int) -> BotSeat:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}")
        return cls(level, BotMemory(), SplitMix64(seed))

    def to_json(self) -> BotSeatJson:
        return BotSeatJson(level=self.level, memory=self.memory.to_json(), rng=self.rng.state)

    @classmethod
    def from_json(cls, data: BotSeatJson) -> BotSeat:
        if data["level"] not in LEVELS:
            raise ValueError(f"unknown bot level {data['level']!r}")
        return cls(data["level"], BotMemory.from_json(data["memory"]), SplitMix64(int(data["rng"])))
