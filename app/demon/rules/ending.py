"""How a Demon round ends and what each seat scores (rules 15-18).

Kept apart from the round because the end is a small value of its own that the room
reads (why the round ended, who went out) and the score is a rule about that value and
the foundations, not about moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["OUT_SCORE", "WIN_BONUS", "RoundEnd", "Termination", "round_scores"]

WIN_BONUS = 10
OUT_SCORE = 52 + WIN_BONUS


class Termination(StrEnum):
    """Why a round ended (like python-chess's `Termination`). A `str` enum: each member
    is its wire and record value ("demon", "stuck", ...), so JSON and comparisons with
    the plain string are unchanged."""

    DEMON = "demon"  # rule 15: a seat went out; the only end with a winner
    STUCK = "stuck"  # rule 16: every seat still in the round is stuck
    ABANDONED = "abandoned"  # rule 17: nobody is left in the round
    VOTE = "vote"  # rule 17: every seat in the round voted to end it (the room)
    TIME = "time"  # rule 17: the host's time limit ran out (the room)


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """How a round ended: why, and the seat that went out (only for DEMON)."""

    reason: Termination
    winner: int | None = None


def round_scores(home: tuple[int, ...], end: RoundEnd | None) -> tuple[int, ...]:
    """Rule 18: OUT_SCORE for the seat that went out, else its cards on the foundations
    (`home`, in seat order)."""
    if end is None or end.reason != Termination.DEMON or end.winner is None:
        return home
    scores = list(home)
    scores[end.winner] = OUT_SCORE
    return tuple(scores)
