"""The racing layouts a table can deal, by name: the one list the server reads.

A table's game is its room's `Options.game`; everything the server does with a round
(deal, apply, views, records, bots) goes through that game's `RaceGame`
(`app/racing/game.py`). Adding a layout: its rules in `app/<name>/rules`, its
`RaceGame` beside these, and one line here (and its name in the protocol's `GameName`).
"""

from __future__ import annotations

from app.racing.demon import DEMON
from app.racing.game import BotChoice, RaceGame, RaceRound
from app.racing.nerts import NERTS

__all__ = ["DEMON", "GAMES", "NERTS", "BotChoice", "RaceGame", "RaceRound", "game"]

GAMES: dict[str, RaceGame] = {g.name: g for g in (DEMON, NERTS)}


def game(name: str) -> RaceGame:
    """The game called `name`; ValueError for a name no table deals."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"no table deals {name!r}: one of {', '.join(GAMES)}") from None
