"""The phases of a match (placeholder, filled in by the phase table)."""

from __future__ import annotations

from enum import Enum


class Phase(str, Enum):
    LOBBY = "lobby"
    COUNTDOWN = "countdown"
    PLAYING = "playing"
    ROUND_OVER = "round_over"
    MATCH_OVER = "match_over"
