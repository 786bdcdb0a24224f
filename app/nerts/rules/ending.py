"""How a Nerts round ends and what each seat scores (N11, N13, N14).

Apart from the round because the end is a small value the room reads (why, who called
"Nerts!") and the score is a rule about that value, the foundations and the Nerts piles,
not about moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["NERTS_PENALTY", "RoundEnd", "Termination", "round_scores"]

NERTS_PENALTY = 2  # N14: per card left in a seat's Nerts pile


class Termination(StrEnum):
    """Why a round ended; each member is its wire and record value."""

    NERTS = "nerts"  # N11: a seat's Nerts pile emptied; the only end with a winner
    STUCK = "stuck"  # N13: everyone stuck again after a stall (or at once, H4 off)
    ABANDONED = "abandoned"  # nobody is left in the round
    VOTE = "vote"  # the room: every seat in the round voted to end it
    TIME = "time"  # the room: the host's time limit ran out


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """How a round ended: why, and the seat that called "Nerts!" (only for NERTS)."""

    reason: Termination
    winner: int | None = None


def round_scores(home: Sequence[int], nerts_left: Sequence[int]) -> tuple[int, ...]:
    """N14: +1 per own card on the foundations, -2 per card left in the Nerts pile. No
    bonus for going out (decision): the caller's empty Nerts pile is its whole reward.
    The same formula holds mid-round, so a running score needs no end."""
    return tuple(h - NERTS_PENALTY * n for h, n in zip(home, nerts_left, strict=True))
