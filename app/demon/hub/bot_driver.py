"""The bot driver: when computer players think, what they see, and how they act.

A bot is a seat of the room (`Player.bot`), and it plays by the same door as a person:
its engine action goes into the same validated `Action` message a socket's JSON becomes
(app/protocol/actions.py: the action as it is, no trip through JSON), with its own
action id, and goes through `Hub.bot_message`, which is the socket's `handle_message`
without a socket. So it meets the same validation, the same first-come arbitration (a bot that is slower than a person
to a foundation gets `race_lost` like anybody) and the same versions. It decides only
from its seat's view (each game's seat view for bots, `RaceGame.bots`): what a
person at that seat sees.

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
and then sits still until it expires (such rooms used to play on their own).

Votes (rule 17 and the decision in docs/rules.md): bots follow the people. While a
person is in the round, the people's votes alone end it; a bot's vote counts only at a
table without people, or once its person let the bots finish (`Room.bots_finish`). A
bot votes to end when its decision says so (the engine's `vote_end`: it gives up) and
takes its vote back when that changes (at the latest just before its next play).

Letting the bots finish: a person alone with bots who is stuck may hand them the rest
of the round; from then on every think time is `hurried` (a fiftieth), the timers
already set are made again at that pace, and the round ends when the bots are done.
A hurried bot's timer does not act itself: it queues the bot's turn (its play, then
its next decision) with the hub's one `Pacer` (app/demon/hub/pacer.py), which runs the
turns of every hurried room a few at a time, so that however many rooms let their bots
finish, the people's tables never wait behind them; a hurried bot's first look (after
the hurry, or after a change to a table where it had nothing to do) goes there too.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
from typing import Literal, Protocol

from app.demon.hub.handle import RoomHandle
from app.demon.hub.pacer import Pacer
from app.demon.room.phases import Phase
from app.demon.room.seating import Player
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


# Think times while the bots finish a round for a person (`Room.bots_finish`): 50 times
# quicker, kept between 20 and 50 ms, so even seven Easy bots (4-8 s a decision) play a
# round out in seconds (about 18 s at 100 ms, tried at 1366 x 768 on a loaded machine),
# and seven Hard ones do not send the person's page more plays than it can show (at most
# 50 a second each).
FAST_FORWARD = 1 / 50
FAST_MIN_S, FAST_MAX_S = 0.02, 0.05


def hurried(think_s: float) -> float:
    """A think time at the fast-forward pace."""
    return min(max(think_s * FAST_FORWARD, FAST_MIN_S), FAST_MAX_S)


class BotDriver:
    """Schedules and runs every bot of one hub, on the hub's event loop."""

    def __init__(self, hub: BotDoor, think_scale: float = 1.0, pacer: Pacer | None = None) -> None:
        self.hub = hub
        self.think_scale = think_scale
        self.pacer = pacer or Pacer()  # hurried bots' turns, every room's, a few per turn of the loop
        self._ids = itertools.count(1)  # action ids: unique within this run (with the epoch)
        self.actions = 0  # bot messages sent through the door, for the benchmark
        self.stopped = False  # the server is stopping: no bot starts thinking again
        self._hurried: dict[str, int] = {}  # room code -> the round its bots were hurried in

    # ------------------------------------------------------------ scheduling

    def poke(self, handle: RoomHandle) -> None:
        """Something in the room changed: every bot that is not thinking starts to."""
        room = handle.room
        if self.stopped or room.phase is not Phase.PLAYING or room.round is None or not handle.person_seen:
            return  # (bots wait for a seated person's first socket: a room nobody opened stays still)
        timers = handle.bot_timers
        if room.bots_finish and self._hurried.get(room.code) != room.round_no:
            # The person just let the bots finish: what they were about to do at a
            # person's pace, they decide again at the fast one.
            self._hurried[room.code] = room.round_no
            self._cancel_timers(handle)
        absent = room.round.absent
        people = None
        for p in room.players:
            if p.bot is None or p.left or p.id in timers or p.seat in absent:
                continue
            if people is None:
                people = room.has_people()
                if not people:
                    return  # bots play only for people: a room of bots alone is left to expire
            if room.bots_finish:  # hurried: even its look at the table waits for the pacer
                timers[p.id] = asyncio.get_running_loop().call_later(0.0, self._due, handle, p, None, room.round_no)
                continue
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
        delay = handle.room.record.game.bots.think_time(bot.level, bot.rng)
        hurry = handle.room.bots_finish
        if hurry:
            delay = hurried(delay)
        delay *= self.think_scale
        loop = asyncio.get_running_loop()
        handle.bot_timers[player.id] = loop.call_later(
            delay, self._due if hurry else self._fire, handle, player, message, handle.room.round_no
        )

    def forget(self, handle: RoomHandle) -> None:
        """The room is gone (or the server stops): its bots stop thinking."""
        self._hurried.pop(handle.room.code, None)
        self._cancel_timers(handle)

    @staticmethod
    def _cancel_timers(handle: RoomHandle) -> None:
        for timer in handle.bot_timers.values():
            timer.cancel()
        handle.bot_timers.clear()

    # ------------------------------------------------------------ deciding and acting

    def _can_play(self, handle: RoomHandle, player: Player) -> bool:
        room = handle.room
        if (
            player.bot is None
            or player.left
            or self.hub.rooms.get(room.code) is not handle
            or room.phase is not Phase.PLAYING
            or room.round is None
            or not handle.person_seen
        ):
            return False
        seat = player.seat
        return (
            seat is not None
            and seat < len(room.players)
            and room.players[seat] is player
            and seat not in room.round.absent
            and room.has_people()
        )

    def _decide(self, handle: RoomHandle, player: Player) -> Intent:
        """The message this bot means to send (`Intent`)."""
        if not self._can_play(handle, player):
            return False
        room, bot, seat = handle.room, player.bot, player.seat
        assert bot is not None and seat is not None and room.round is not None  # `_can_play`
        game = room.record.game  # the game the round was dealt in
        decision = game.bots.decide(
            room.round, seat, seat in room.public_stuck(), bot.level, bot.memory_for(game), bot.rng
        )
        if decision.action is not None:  # validated like a socket's message (its id too)
            message: m.Action = game.action_message(
                type="action", id=f"bot-{self.hub.epoch}-{next(self._ids)}", action=decision.action
            )
            return message
        if decision.vote_end != (seat in room.votes):
            return m.Vote(type="vote", end=decision.vote_end)
        return False if decision.vote_end else None

    def _due(self, handle: RoomHandle, player: Player, message: Intent, round_no: int) -> None:
        """A hurried bot's timer fired: its turn (`_fire`) waits for the pacer, the timer
        staying in `bot_timers` meanwhile, so the bot is not made to think twice and
        cancelling the timer (`forget`, a new hurry) takes the turn back too. A room
        whose person took the round back plays at once, as at a person's pace."""
        token = handle.bot_timers.get(player.id)
        if token is None or not handle.room.bots_finish:
            self._fire(handle, player, message, round_no)
            return
        self.pacer.push(token, functools.partial(self._fire, handle, player, message, round_no))

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
