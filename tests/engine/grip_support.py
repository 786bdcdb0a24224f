"""Shared by the Devil's Grip tests (imported by plain module name, like
test_demon_support: tests/engine has no __init__.py)."""

from __future__ import annotations

from app.grip.rules import GripState


def follow_hint_until_a_card_enters(s: GripState, limit: int) -> GripState:
    """Apply hints (each must be legal) until the score drops, i.e. a card entered the
    grid; fail if that takes more than `limit` steps."""
    score = s.score()
    for _ in range(limit):
        h = s.hint()
        assert h is not None and h in s.legal_actions(swaps=False)
        s, _ = s.apply(h)
        if s.score() < score:
            return s
    raise AssertionError("following the hint did not bring a card in")
