"""One Demon room: a state machine over the phases of a match (`phases.TABLE`).

The room is synchronous and knows nothing of sockets or asyncio: every method takes the
current time (`now`, monotonic seconds) and returns what happened as data (`Outcome`),
so room logic is tested directly (tests/rooms) and the hub only moves bytes. The hub
calls these methods one at a time on the event loop (a socket's message and a bot's
alike), which makes arrival order decide every race (Demon rule 14).

What the room keeps is in parts, each in its own module, and those that are saved save
and restore themselves: `Seating` (who sits where, colours, the host), `RoundRecord`
(the round's dealt cards and log), `EventLog` (versions and the replay window),
`TableAnswers` (the JSON of each seat's legal actions, what each socket was sent),
`ActionIds` (the answer each action id got); `views` builds what the room shows, `scores`
what a round made, `persist` the room as saved data. The room itself holds the phase,
the match (round number, history, result) and the round's votes and deadline; what may
happen when is the phase table's (`phases.py`), which the room asks in one place
(`_require`, `_allows`, `_enter`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from app import racing
from app.common.rng import SplitMix64, derive_seed
from app.demon.room import views
from app.demon.room.errors import BadPhase, Invalid, NotHost, RoomError, RoomFull
from app.demon.room.fixed_layout import layout_round
from app.demon.room.outcome import Outcome
from app.demon.room.phases import Op, Phase
from app.demon.room.play import RoundPlay
from app.demon.room.round_record import Step, StepIds
from app.demon.room.scores import history_entry, score_round
from app.demon.room.seating import MAX_SEATS, MAX_SPECTATORS, Door, Player
from app.demon.rules.round import DemonRound
from app.protocol import server as out
from app.racing import RaceGame, RaceRound

__all__ = ["MAX_SEATS", "MAX_SPECTATORS", "Options", "Outcome", "Phase", "Player", "Room", "RoomError"]


@dataclass
class Options:
    """The host's choices for the match: rounds, time limit, seats, and the game with its
    house rules (`house`: the game's own value, e.g. `NertsOptions`; None for Demon)."""

    rounds: int = 3
    time_limit_s: int | None = None
    max_players: int = MAX_SEATS
    game: str = "demon"
    house: Any = None

    @property
    def rules(self) -> RaceGame:
        return racing.game(self.game)

    @property
    def protocol(self) -> int:
        """The least protocol a page must speak to sit at this table."""
        return self.rules.protocol

    def to_json(self) -> out.OptionsJson:
        # A Demon table's options are what they were before Nerts (the wire's bytes do
        # not change); a page reads no `game` as Demon.
        j = out.OptionsJson(rounds=self.rounds, time_limit_s=self.time_limit_s, max_players=self.max_players)
        if self.game != "demon":
            j["game"] = self.game
            house = self.rules.house_rules_json(self.house)
            if house is not None:
                j["house_rules"] = house
        return j

    @classmethod
    def from_json(cls, d: out.OptionsJson) -> Options:
        return cls.chosen(
            d["rounds"], d["time_limit_s"], d["max_players"], d.get("game", "demon"), d.get("house_rules")
        )

    @classmethod
    def chosen(
        cls,
        rounds: int,
        time_limit_s: int | None,
        max_players: int,
        game: str = "demon",
        house_rules: Mapping[str, object] | None = None,
    ) -> Options:
        """Options as a host sent them; `Invalid` for a game or house rules no table deals."""
        try:
            rules = racing.game(game)
            house = rules.house_rules(house_rules)
        except ValueError as err:
            raise Invalid(str(err)) from None
        return cls(rounds, time_limit_s, max_players, game, house)


class Room(RoundPlay):
    def __init__(
        self,
        code: str,
        options: Options,
        *,
        countdown_s: float = 3.0,
        replay_window: int = 512,
        grace_s: float = 120.0,
        test_seed: int | None = None,
        seed_source: SplitMix64 | None = None,
        test_layout: DemonRound | None = None,
    ) -> None:
        super().__init__(replay_window, grace_s)
        self.code = code
        self.options = options
        self.countdown_s = countdown_s
        self.test_seed = test_seed
        self.test_layout = test_layout  # testing only: every round starts from these seats
        self._seeds = seed_source or SplitMix64(int.from_bytes(os.urandom(8), "big"))
        self.round_no = 0
        self.round_seed: int | None = None
        self.countdown_ends: float | None = None
        self.history: list[out.RoundResult] = []  # finished rounds
        self.result: out.MatchResult | None = None
        self.created_at = time.time()
        self.last_active = time.monotonic()  # when somebody was last connected
        self.listed = False  # the host shows its finished matches to every visitor
        self.door = Door()  # open to strangers? a play-now lobby's bots, who was removed

    # The parts' state under the names the hub, the store, the bots and bench/ read.

    @property
    def spectators(self) -> list[Player]:
        return self.seating.spectators

    @property
    def host(self) -> str | None:
        return self.seating.host

    @property
    def round_actions(self) -> list[Step]:
        return self.record.steps

    @property
    def round_step_ids(self) -> list[StepIds | None]:
        return self.record.step_ids

    # ----------------------------------------------------------------- membership

    def join(self, name: str, token_hash: bytes) -> Player:
        """Seat a newcomer if the table is between rounds and has room, else spectate.
        A name somebody in the room already has gets a number (`Ann (2)`)."""
        return self.seating.admit(name, token_hash, self._allows(Op.SIT), self.options.max_players)

    def connect(self, player: Player, now: float) -> Outcome:
        player.connected = True
        player.dropped_at = None
        self.last_active = now
        return Outcome(events=[self.room_event()])

    def disconnect(self, player: Player, now: float) -> Outcome:
        player.connected = False
        player.dropped_at = now
        self.last_active = now
        return Outcome(events=[self.room_event()])

    def leave(self, player: Player, now: float) -> Outcome:
        """Give up the seat for good. Mid-round the cards stay and still score."""
        outcome = Outcome()
        in_play = self._allows(Op.END_ROUND)
        if (
            self.seating.leave(player, renumber=not in_play)
            and in_play
            and self.round is not None
            and player.seat is not None
        ):
            self._mark_absent(player.seat, outcome)
        outcome.events.append(self.room_event())
        self._check_vote(outcome)
        return outcome

    def bots(self) -> list[Player]:
        """The computer players still at the table."""
        return self.seating.bots()

    def has_people(self) -> bool:
        """Somebody who is not a bot is still in the room (connected or not). Bots play
        only for people: in a room of bots alone they stop, and the room expires."""
        return self.seating.has_people()

    def add_bot(self, player: Player, level: str, now: float) -> tuple[Outcome, Player]:
        """The host seats a computer player of `level` in a free seat, between rounds. It
        plays through `act` and `vote` like anybody, and counts as connected for the
        table but never for keeping the room alive (`is_idle`)."""
        self._require_host(player)
        self._require(Op.ADD_BOT)
        if len(self.seating.seated()) >= self.options.max_players:
            raise RoomFull("Every seat is taken.")
        number = self.seating.next_number
        seed = derive_seed(self.test_seed, number) if self.test_seed is not None else self._seeds.next_u64()
        bot = self.seating.seat_bot(level, seed)
        self.last_active = now
        return Outcome(events=[self.room_event()]), bot

    def remove_bot(self, player: Player, bot_id: str, now: float) -> Outcome:
        """The host takes a computer player off the table, between rounds."""
        self._require_host(player)
        self._require(Op.REMOVE_BOT)
        self.seating.remove_bot(bot_id)
        return Outcome(events=[self.room_event()])

    def set_open(self, player: Player, is_open: bool) -> Outcome:
        """The host lists the table for strangers or takes it off the list, any time."""
        self._require_host(player)
        self.refuse_in_daily("A daily race's table is never listed: nobody sees its deal before racing it.")
        self.door.set_open(is_open)
        return Outcome(events=[self.room_event()])

    def remove_player(self, player: Player, seat: int, now: float) -> tuple[Outcome, Player]:
        """The host sends a person away from the lobby, for good (`Door.bar`)."""
        self._require_host(player)
        self.door.bar(removed := self.door.removable(self.seating, seat, player, self.phase is Phase.LOBBY))
        return self.leave(removed, now), removed

    # ----------------------------------------------------------------- the match

    def _require_host(self, player: Player) -> None:
        if player.id != self.host:
            raise NotHost("Only the host can do that.")

    def set_options(self, player: Player, options: Options) -> Outcome:
        self._require_host(player)
        self._require(Op.SET_OPTIONS)
        if options.max_players < len(self.seating.seated()):
            raise Invalid("More players are already seated than that.")
        self.options = options
        return Outcome(events=[self.room_event()])

    def start(self, player: Player, now: float) -> Outcome:
        """Lobby or round over -> countdown."""
        self._require_host(player)
        self._require(Op.START)
        if self.phase is Phase.ROUND_OVER and self.round_no >= self.options.rounds:
            raise BadPhase("The match is over: start a rematch.")
        seating = self.seating
        if min(self.options.max_players, len(seating.seated()) + len(seating.waiting())) < 2:
            raise BadPhase("At least two seated players are needed.")
        seating.compact()
        seating.seat_waiting(self.options.max_players)
        outcome = Outcome()
        self._count_down(Op.START, now, outcome)
        return outcome

    def _count_down(self, op: Op, now: float, outcome: Outcome, *, with_round: bool = False) -> None:
        """-> countdown: the table as it now is, then the 3-2-1 (the hub deals when it ends)."""
        self._enter(op, Phase.COUNTDOWN)
        self.countdown_ends = now + self.countdown_s
        self.result = None
        outcome.events.append(self.room_event(with_round=with_round))
        outcome.events.append(self._emit(out.CountdownEvent(kind="countdown", ends_in_ms=int(self.countdown_s * 1000))))

    def begin_round(self, now: float) -> Outcome:
        """Countdown -> playing. The signal (rule 4): deal, and open the round for everyone at once."""
        if not self._allows(Op.BEGIN_ROUND):
            return Outcome()
        self.countdown_ends = None
        if len(self.players) < 2:  # somebody left during the countdown
            self._enter(Op.BEGIN_ROUND, Phase.LOBBY if self.round_no == 0 else Phase.ROUND_OVER)
            return Outcome(events=[self.room_event()])
        self.round_no += 1
        self.round_seed = self.test_seed if self.test_seed is not None else self._seeds.next_u64()
        rules = self.options.rules
        dealt: RaceRound = (
            cast(RaceRound, layout_round(self.test_layout, self.round_seed, len(self.players)))
            if self.test_layout is not None and rules.name == "demon"
            else rules.deal(self.round_seed, len(self.players), self.options.house)
        )
        self.record.game = rules
        self.record.begin(dealt, started_at=now)
        self.answered.new_round()
        self.round = dealt.start()
        self.votes = set()
        self.bots_finish = False
        self._enter(Op.BEGIN_ROUND, Phase.PLAYING)
        limit = self.options.time_limit_s
        self.round_deadline = now + limit if limit else None
        outcome = Outcome()
        for p in self.players:  # a seat already away past its grace is out from the start
            if (
                not p.connected
                and p.dropped_at is not None
                and now - p.dropped_at >= self.grace_s
                and p.seat is not None
            ):
                self.round, _ = self.round.with_absent(p.seat)
                self.record.log({"type": "absent", "seat": p.seat, "absent": True})
        outcome.events.append(self.room_event())
        outcome.events.append(
            self._emit(
                out.RoundStartedEvent(
                    kind="round_started",
                    round_no=self.round_no,
                    round=self.round_view(),
                    time_left_ms=views.ms_until(self.round_deadline, now),
                )
            )
        )
        self._close_round_if_ended(outcome)
        return outcome

    def next_round(self, player: Player, now: float) -> Outcome:
        self._require(Op.NEXT_ROUND)
        return self.start(player, now)

    def rematch(self, player: Player, now: float) -> Outcome:
        """Match over -> countdown: a new match at the same table, its first round
        counting down for everyone at once (the host's Rematch is the new match's
        Start). With fewer than two seated (the others left), back to the lobby."""
        self._require_host(player)
        self.refuse_in_daily("The daily race is one counted round: its deal is not dealt again.")
        self._require(Op.REMATCH)
        for p in self.players:
            p.total = 0
        self.history = []
        self.round_no = 0
        self.round = None
        self.round_seed = None
        self.record.clear()
        self.result = None
        self.seating.compact()
        self.seating.seat_waiting(self.options.max_players)
        # The one `room` event that carries `round` (null): the old table is gone, and a
        # client that applies events must not need a snapshot to know it.
        outcome = Outcome()
        if len(self.seating.seated()) >= 2:
            self._count_down(Op.REMATCH, now, outcome, with_round=True)
        else:
            self._enter(Op.REMATCH, Phase.LOBBY)
            outcome.events.append(self.room_event(with_round=True))
        return outcome

    def tick(self, now: float) -> Outcome:
        """Deadlines: the round's time limit and the reconnection grace period."""
        outcome = Outcome()
        host = self.seating.by_id(self.host) if self.host else None
        if (
            host is not None
            and not host.connected
            and host.dropped_at is not None
            and now - host.dropped_at >= self.grace_s
        ):
            self.seating.pass_host()
            if self.host != host.id:
                outcome.events.append(self.room_event())
        self._round_deadlines(now, outcome)
        return outcome

    def _close_round_if_ended(self, outcome: Outcome) -> None:
        """Playing -> round over or match over, once the engine says the round ended
        (Demon!, all stuck, a vote, the time limit)."""
        if self.round is None or self.round.end is None or not self._allows(Op.END_ROUND):
            return
        self.result = score_round(self.round, self.seating, self.round_no, self.options.rounds)
        self.history.append(history_entry(self.result))
        self._enter(Op.END_ROUND, Phase.MATCH_OVER if self.result["match_over"] else Phase.ROUND_OVER)
        self.round_deadline = None
        outcome.events.append(self._emit(out.RoundEndedEvent(kind="round_ended", result=self.result)))
        outcome.events.append(self.room_event())

    def resume(self, phase: Phase, now: float) -> None:
        """A restored room (app/demon/room/persist.py) takes up its saved phase: a
        countdown starts again from its beginning, a round saved just before its end
        was noticed ends now, and the round's applied action ids are known again."""
        self.phase = phase
        if phase is Phase.COUNTDOWN:
            self.countdown_ends = now + self.countdown_s
        self._close_round_if_ended(Outcome())
        self.answered.restore(self.record.acknowledged())

    # ----------------------------------------------------------------- views

    def public_state(self, now: float, *, with_round: bool = True) -> out.PublicState:
        return views.public_state(self, now, with_round=with_round)

    def snapshot(self, now: float) -> out.Snapshot:
        return out.snapshot(self.v, self.public_state(now))

    def room_event(self, *, with_round: bool = False) -> out.Event:
        """The table as it is now, without `round` (which the round's own events keep
        up to date) unless `with_round`."""
        return self._emit(out.RoomEvent(kind="room", state=self.public_state(self.clock(), with_round=with_round)))

    def is_idle(self, now: float, ttl_s: float) -> bool:
        """No person connected for `ttl_s`: the hub may remove the room. Bots do not
        count: a room of bots alone is as empty as a room of nobody."""
        return not self.seating.person_connected() and now - self.last_active >= ttl_s

    def to_public_summary(self) -> views.RoomSummary:
        return views.summary(self)
