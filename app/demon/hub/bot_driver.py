"""The bot driver: when computer players think, what they see, and how they act.

A bot is a seat of the room (`Player.bot`), and it plays by the same door as a person:
its engine action goes into the same validated `Action` message a socket's JSON becomes
(app/protocol/actions.py: the action as it is, no trip through JSON), with its own
action id, and goes through `Hub.bot_message`, which is the socket's `handle_message`
without a socket. So it meets the same validation, the same first-come arbitration (a bot that is slower than a person
to a foundation gets `race_lost` like anybody) and the same versions. It decides only
from its seat's view (`app.demon.rules.view.SeatView`): what a person at that seat sees.

Timing, as a person plays: a bot looks at the table when it changes, makes up its mind,
and its hand gets there a think time later (`think_time`, never 0, times the testing-only
`DEMON_BOT_THINK_SCALE`). So its message arrives after a delay, decided on the table as
it was, and a person who was quicker to the same foundation pile wins the race. There is
no thread or task per bot: after every change to a room (the hub's flush calls `poke`),
each of its bots that is not already thinking decides and sets a timer on the event loop
(`loop.call_later`, like the countdown); when it fires the decision is sent and the bot
thinks again about the table as it is then. A bot with nothing to do that has said what
it wants of the vote waits for the next change; one with nothing to do that is not stuck
looks again after another think time (everybody else might be sitting still too).

Bots play only for people who are there: not until a seated person of the room has
opened a socket since the room was created or restored (`RoomHandle.person_seen`), and
not once only bots are left. A practice room created and never opened deals its round
and then sits still until it expires (issue 27: such rooms used to play on their own).

Votes (rule 17): every seat still in the round must agree, bots included. A bot votes
to end when its decision says so (the engine's `vote_end`: its seat is stuck) and takes
its vote back when that changes (at the latest just before its next play). A person's
vote therefore ends the round once every bot is stuck too, and bots alone never end a
round a person is still playing.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import Literal, Protocol

from app.demon.hub.handle import RoomHandle
from app.demon.room.phases import Phase
from app.demon.room.seating import Player
from app.demon.rules.bot import LEVELS, decide, think_time
from app.demon.rules.view import seat_view
from app.protocol import messages as m
from app.protocol import server as out

# What a bot means to send: a message, None (nothing to do yet: look again later) or
# False (nothing to do until the table changes).
Intent = m.Action | m.Vote | None | Literal[False]


class BotDoor(Protocol):
    """What the driver needs of the hub (`Hub`): the rooms, the run's name for its
    action ids, and the door a socket's message goes through."""

    rooms: dict[str, RoomHandle]
    epoch: str

    def bot_message(self, handle: RoomHandle, player: Player, msg: m.RoomMessage) -> out.Reply | None: ...

log = logging.getLogger("demon.bots")


class BotDriver:
    """Schedules and runs every bot of one hub, on the hub's event loop."""

    def __init__(self, hub: BotDoor, think_scale: float = 1.0) -> None:
        self.hub = hub
        self.think_scale = think_scale
        self._ids = itertools.count(1)  # action ids: unique within this run (with the epoch)
        self.actions = 0  # bot messages sent through the door, for the benchmark
        self.stopped = False  # the server is stopping: no bot starts thinking again

    # ------------------------------------------------------------ scheduling

    def poke(self, handle: RoomHandle) -> None:
        """Something in the room changed: every bot that is not thinking starts to."""
        room = handle.room
        if self.stopped or room.phase is not Phase.PLAYING or room.round is None or not handle.person_seen:
            return  # (bots wait for a seated person's first socket: a room nobody opened stays still)
        timers = handle.bot_timers
        absent = room.round.absent
        people = None
        for p in room.players:
            if p.bot is None or p.left or p.id in timers or p.seat in absent:
                continue
            if people is None:
                people = room.has_people()
                if not people:
                    return  # bots play only for people: a room of bots alone is left to expire
            try:
                self.think(handle, p)
            except Exception:  # called from the flush: one bad bot must not stop it
                log.exception("bot %s of room %s failed", p.id, room.code)

    def think(self, handle: RoomHandle, player: Player) -> None:
        """Decide on the table as it is now; the message leaves a think time later."""
        message = self._decide(handle, player)
        if message is False:
            return
        bot = player.bot
        assert bot is not None
        delay = think_time(LEVELS[bot.level], bot.rng) * self.think_scale
        loop = asyncio.get_running_loop()
        handle.bot_timers[player.id] = loop.call_later(
            delay, self._fire, handle, player, message, handle.room.round_no)

    def forget(self, handle: RoomHandle) -> None:
        """The room is gone (or the server stops): its bots stop thinking."""
        for timer in handle.bot_timers.values():
            timer.cancel()
        handle.bot_timers.clear()

    # ------------------------------------------------------------ deciding and acting

    def _can_play(self, handle: RoomHandle, player: Player) -> bool:
        room = handle.room
        if (player.bot is None or player.left or self.hub.rooms.get(room.code) is not handle
                or room.phase is not Phase.PLAYING or room.round is None or not handle.person_seen):
            return False
        seat = player.seat
        return (seat is not None and seat < len(room.players) and room.players[seat] is player
                and seat not in room.round.absent and room.has_people())

    def _decide(self, handle: RoomHandle, player: Player) -> Intent:
        """The message this bot means to send (`Intent`)."""
        if not self._can_play(handle, player):
            return False
        room, bot, seat = handle.room, player.bot, player.seat
        assert bot is not None and seat is not None and room.round is not None  # `_can_play`
        view = seat_view(room.round, seat, stuck=seat in room.public_stuck())
        decision = decide(view, LEVELS[bot.level], bot.memory, bot.rng)
        if decision.action is not None:  # validated like a socket's message (its id too)
            return m.Action(type="action", id=f"bot-{self.hub.epoch}-{next(self._ids)}", action=decision.action)
        if decision.vote_end != (seat in room.votes):
            return m.Vote(type="vote", end=decision.vote_end)
        return False if decision.vote_end else None

    def _fire(self, handle: RoomHandle, player: Player, message: Intent, round_no: int) -> None:
        handle.bot_timers.pop(player.id, None)
        try:
            if message and round_no == handle.room.round_no and self._can_play(handle, player):
                if isinstance(message, m.Action) and player.seat in handle.room.votes:
                    # It has a play after all: a vote left standing could end the round
                    # (with a person's vote) while it still has plays. Take it back first.
                    self.actions += 1
                    self.hub.bot_message(handle, player, m.Vote(type="vote", end=False))
                self.actions += 1
                self.hub.bot_message(handle, player, message)
            if not self.stopped and player.id not in handle.bot_timers:
                self.think(handle, player)
        except Exception:  # a bug in one bot must not stop the loop's other callbacks
            log.exception("bot %s of room %s failed", player.id, handle.room.code)
