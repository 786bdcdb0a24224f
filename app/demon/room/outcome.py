"""What a room call produced, as data the hub publishes and replies with."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.protocol import server as out


@dataclass
class Outcome:
    """Public events (already versioned) and a direct reply."""

    events: list[out.Event] = field(default_factory=list)
    reply: out.Reply | None = None
