"""What a room call produced, as data the hub publishes and replies with."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.protocol import server as out


@dataclass
class Outcome:
    """Public events (already versioned), a direct reply, and messages for one other
    player's socket only (player id, message): the winner of a race is told its margin."""

    events: list[out.Event] = field(default_factory=list)
    reply: out.Reply | None = None
    direct: list[tuple[str, out.RaceWon]] = field(default_factory=list)
