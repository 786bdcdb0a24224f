"""What a computer player is, as data: its level, its memory and its random generator.

A bot is an ordinary `Player` of the room with one of these attached (`Player.bot`).
Everything in it is plain and saved with its player (`seating.Player.to_json`), so a restarted server
restores a bot with the same level, the same memory and the same random state, and it
carries on. The code that makes it act lives in app/demon/hub/bot_driver.py; the decisions in
each game's rules (`RaceGame.bots`).

Its memory is the game's own (Demon's and Nerts' bots remember different things), and a
table's game can change between matches: so the memory is made, or read back from what
was saved, by the game the bot is playing when it first needs it (`memory_for`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypedDict

from app.common.rng import SplitMix64
from app.racing import RaceGame

BOT_LEVELS = ("easy", "medium", "hard")  # every game's levels


class BotSeatJson(TypedDict):
    level: str
    memory: dict[str, object]  # the game's bot memory's `to_json`
    rng: int  # SplitMix64's state


@dataclass(eq=False)
class BotSeat:
    level: str
    memory: Any  # the game's bot memory, or None before the bot first decides
    rng: SplitMix64
    saved_memory: dict[str, object] | None = None  # restored, until a game reads it

    @classmethod
    def new(cls, level: str, seed: int) -> BotSeat:
        if level not in BOT_LEVELS:
            raise ValueError(f"unknown bot level {level!r}")
        return cls(level, None, SplitMix64(seed))

    def memory_for(self, game: RaceGame) -> Any:
        """The bot's memory as `game`'s bots keep it: the one it has, the saved one read
        back, or a fresh one (a memory another game made, or one that does not read,
        starts afresh: it only ever helps the bot play better)."""
        if isinstance(self.memory, game.bots.memory_type):
            return self.memory
        fresh: Any = None
        if self.saved_memory is not None:
            try:
                fresh = game.bots.memory_from_json(self.saved_memory)
            except ValueError:
                fresh = None
        self.memory = fresh if fresh is not None else game.bots.memory_type()
        self.saved_memory = None
        return self.memory

    def to_json(self) -> BotSeatJson:
        memory = self.memory.to_json() if self.memory is not None else dict(self.saved_memory or {})
        return BotSeatJson(level=self.level, memory=memory, rng=self.rng.state)

    @classmethod
    def from_json(cls, data: BotSeatJson) -> BotSeat:
        if data["level"] not in BOT_LEVELS:
            raise ValueError(f"unknown bot level {data['level']!r}")
        memory = data["memory"]
        if not isinstance(memory, dict):
            raise ValueError("a bot's memory must be a JSON object")
        return cls(data["level"], None, SplitMix64(int(data["rng"])), dict(memory))
