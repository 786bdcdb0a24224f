"""`Decision`: what a computer player of either racing game wants now.

One type for Demon's bots and Nerts' (`app.common.bots` re-exports it), generic in the
game's action type so that each game's `decide` says which actions it returns. It stays
plain Python, outside `app.support.native.NATIVE_MODULES`: mypyc cannot build a generic
dataclass (importing the compiled class fails), and the compiled bots use it as they
use `app.common.cards.Card`, as a Python class.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = ["Decision"]

ActionT = TypeVar("ActionT")


@dataclass(frozen=True)
class Decision(Generic[ActionT]):
    """What a bot wants now. With an action, `vote_end` is always False (a bot that can
    play is not stuck, so whoever holds its vote to end drops it). Without one:
    `vote_end` True means it is stuck and wants the round to end (wait for the table to
    change before asking again); False means nothing right now (ask again later)."""

    action: ActionT | None  # what to play now; None = nothing to do now
    vote_end: bool  # the bot is stuck and wants the round to end
