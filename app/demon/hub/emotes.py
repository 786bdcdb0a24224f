"""Emotes: a seated player floats one of a fixed set of greetings over their seat.

A fixed set (`messages.EmoteName`, checked when the message is parsed) means there is no
text to moderate. An emote is ephemeral: it is broadcast to the room's sockets as it is,
with no version, so it never enters the event log, the replay window, the database or a
room's record; a client that was away simply never sees it.

Two limits keep it from becoming noise:

* a flood is a flood: an emote is one more message for the socket's `RateLimiter`
  (app/server/ws.py), and past it the socket is closed with 1008 like any other;
* a cooldown per player (`EmoteGate`), so one player cannot cover the table in emotes
  while staying under the flood limit. It is kept per room and per player id, not per
  socket, so a reconnect does not reset it; an emote too soon is refused with
  `slow_down` and nothing is sent to anybody.

Spectators may see emotes but not send them (`spectator`): the set exists so the people
racing can greet each other.
"""

from __future__ import annotations

from typing import get_args

from app.demon.room.errors import RoomError, SpectatorCannotPlay
from app.demon.room.seating import Player
from app.protocol import server as out
from app.protocol.messages import EmoteName

EMOTES: tuple[str, ...] = get_args(EmoteName)
COOLDOWN_S = 1.5  # between two emotes of one player; the browser waits a little longer


class SlowDown(RoomError):
    """An emote within the sender's cooldown."""

    code = "slow_down"


class EmoteGate:
    """One room's emote cooldowns: when each player last sent one. Only players still
    inside their cooldown are remembered, so the table never outgrows the seats."""

    def __init__(self, cooldown_s: float = COOLDOWN_S) -> None:
        self.cooldown_s = cooldown_s
        self._last: dict[str, float] = {}

    def admit(self, player: Player, now: float) -> None:
        """Let `player` emote now, or raise the refusal (nothing is recorded then)."""
        if player.seat is None:
            raise SpectatorCannotPlay("Spectators can see emotes but not send them.")
        last = self._last.get(player.id)
        if last is not None and now - last < self.cooldown_s:
            raise SlowDown("One emote at a time: wait a moment before the next.")
        self._last = {pid: t for pid, t in self._last.items() if now - t < self.cooldown_s}
        self._last[player.id] = now

    def emote(self, player: Player, name: str, now: float) -> str:
        """The encoded `emote` message for the whole room, once `admit` lets it through."""
        self.admit(player, now)
        return out.encode(out.emote(player.id, name))
