"""Room tests write actions as their wire JSON; a room acts on what a validated message
holds (app/protocol/actions.py). `as_sent` is the one turned into the other."""

from __future__ import annotations

from typing import Any

from app.protocol import messages as m
from app.protocol.actions import PlayerAction


def as_sent(action: Any) -> PlayerAction:
    """`action` (wire JSON, without a seat) as `Action.action` holds it once validated."""
    return m.Action.model_validate({"type": "action", "id": "test", "action": action}).action


def as_sent_nerts(action: Any) -> PlayerAction:
    """The same for a Nerts room, whose messages hold Nerts' actions."""
    return m.NertsAction.model_validate({"type": "action", "id": "test", "action": action}).action
