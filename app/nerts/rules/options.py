"""The host's house rules that change the Nerts rules themselves (H2, H3, H4).

A small frozen value rather than loose flags: the round carries it, a record stores it,
and every rule that depends on a house rule reads it from one place. H1 (which game) is
the room's choice and has no place here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.common.checks import is_int
from app.common.errors import EngineError

__all__ = ["NertsOptions", "OptionsError"]


class OptionsError(EngineError, ValueError):
    """House-rule options that are not one of the choices the rules offer."""


@dataclass(frozen=True, slots=True)
class NertsOptions:
    """`draw`: 3 (default) or 1 cards a draw turns (H2). `racing_spaces`: an emptied work
    pile is refilled from the Nerts pile at once (H3). `stall`: the N13 stall is played
    before an all-stuck table ends the round (H4)."""

    draw: int = 3
    racing_spaces: bool = False
    stall: bool = True

    def __post_init__(self) -> None:
        if not is_int(self.draw) or self.draw not in (1, 3):
            raise OptionsError(f"draw must be 1 or 3, not {self.draw!r}")
        if not isinstance(self.racing_spaces, bool):
            raise OptionsError(f"racing_spaces must be true or false, not {self.racing_spaces!r}")
        if not isinstance(self.stall, bool):
            raise OptionsError(f"stall must be true or false, not {self.stall!r}")

    def to_json(self) -> dict[str, Any]:
        return {"draw": self.draw, "racing_spaces": self.racing_spaces, "stall": self.stall}

    @classmethod
    def from_json(cls, data: object) -> NertsOptions:
        """Inverse of to_json; missing keys take their defaults, unknown keys are refused
        (a misspelt house rule must not silently fall back to the default)."""
        if not isinstance(data, Mapping):
            raise OptionsError("Nerts options must be a JSON object")
        extra = set(data) - {"draw", "racing_spaces", "stall"}
        if extra:
            raise OptionsError(f"unknown Nerts option(s): {', '.join(sorted(map(repr, extra)))}")
        return cls(
            draw=data.get("draw", 3),
            racing_spaces=data.get("racing_spaces", False),
            stall=data.get("stall", True),
        )
