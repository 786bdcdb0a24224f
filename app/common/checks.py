"""Type checks shared by both games' parsers and validators.

JSON gives `true`/`false` as Python bools, and `bool` is a subclass of `int`: a seat, a
cell or a count of `true` must be refused, not read as 1. Every "is this an integer?"
question in the engine goes through `is_int` so that rule is written once.
"""

from __future__ import annotations

from typing import Any

__all__ = ["is_int"]


def is_int(value: Any) -> bool:
    """An int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)
