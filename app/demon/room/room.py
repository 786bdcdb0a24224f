"""One Demon room: a state machine over the phases of a match.

    lobby -> countdown -> playing -> round_over -> countdown -> ... -> match_over -> countdown
                 \\-> (fewer than two left) back where it came from      (rematch; the lobby
                                                                     when fewer than two are left)

The room is synchronous and knows nothing of sockets or asyncio: every method takes the
current time (`now`, monotonic seconds) and returns what happened as data (`Outcome`),
so room logic is tested directly (tests/rooms) and the hub only moves bytes. The hub
calls these methods one at a time on the event loop (a socket's message and a bot's
alike), which makes arrival order decide every race (Demon rule 14).

What the room keeps is in parts, each in its own module, and those that are saved save
and restore themselves: `Seating` (who sits where, colours, the host), `RoundRecord`
(the round's dealt cards and log), `EventLog` (versions and the replay window),
`TableAnswers` (the one cache of legal actions and stuck flags), `ActionIds` (the answer
each action id got); `views` builds what the room shows. The room itself holds the
phase, the match (round number, totals, history) and the rules of when what may happen.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from app.demon.rules.actions import ToFoundation, action_to_json
from app.demon.rules.events import Played
from app.demon.rules.round import DemonRound
from app.protocol.actions import MalformedMove, PlayerAction, bind_seat, public_action
from app.common.errors import EngineError, GameOver, NotStarted, RaceLost
from app.common.rng import SplitMix64, derive_seed
from app.protocol import server as out
from app.demon.room import views
from app.demon.room.action_ids import ActionIds
from app.demon.room.answers import TableAnswers
from app.demon.room.bot_seat import BotSeat
from app.demon.room.errors import (BadPhase, Invalid, NotHost, OutOfRound, RoomError, RoomFull,
                              SpectatorCannotPlay)
from app.demon.room.event_log import EventLog
from app.demon.room.phases import Phase
from app.demon.room.round_record import RoundRecord
from app.demon.room.seating import MAX_SEATS, MAX_SPECTATORS, Player, Seating
from app.demon.room.test_layout import layout_round

__all__ = ["MAX_SEATS", "MAX_SPECTATORS", "Options", "Outcome", "Phase", "Player", "Room", "RoomError"]


BETWEEN_ROUNDS = (Phase.LOBBY, Phase.ROUND_OVER, Phase.MATCH_OVER)


@dataclass
class Options:
    rounds: int = 3
    time_limit_s: int | None = None
    max_players: int = MAX_SEATS

    def to_json(self) -> dict:
        return {"rounds": self.rounds, "time_limit_s": self.time_limit_s, "max_players": self.max_players}

    @classmethod
    def from_json(cls, d: dict) -> "Options":
        return cls(d["rounds"], d["time_limit_s"], d["max_players"])


@dataclass
class Outcome:
    """What a room call produced: public events (already versioned) and a direct reply."""

    events: list[out.Event] = field(default_factory=list)
    reply: out.Reply | None = None


class Room:
    def __init__(self, code: str, options: Options, *, countdown_s: float = 3.0,
                 replay_window: int = 512, grace_s: float = 120.0,
                 test_seed: int | None = None, seed_source: SplitMix64 | None = None,
                 test_layout: DemonRound | None = None) -> None:
        self.code = code
        self.options = options
        self.countdown_s = countdown_s
        self.grace_s = grace_s
        self.test_seed = test_seed
        self.test_layout = test_layout  # testing only: every round starts from these seats
        self._seeds = seed_source or SplitMix64(int.from_bytes(os.urandom(8), "big"))
        self.seating = Seating()
        self.record = RoundRecord()
        self.log = EventLog(replay_window)
        self.answers = TableAnswers()
        self.answered = ActionIds()
        self.phase = Phase.LOBBY
        self.round: DemonRound | None = None
        self.round_no = 0
        self.round_seed: int | None = None
        self.countdown_ends: float | None = None
        self.round_deadline: float | None = None
        self.votes: set[int] = set()
        self.history: list[dict] = []  # finished rounds
        self.result: dict | None = None
        self.created_at = time.time()
        self.last_active = time.monotonic()  # when somebody was last connected
        self.clock = time.monotonic  # injectable, so room tests control time

    # The parts' state under the names the hub, the store, the bots and bench/ read.

    @property
    def v(self) -> int:
        return self.log.v

    @property
    def players(self) -> list[Player]:
        return self.seating.players

    @property
    def spectators(self) -> list[Player]:
        return self.seating.spectators

    @property
    def host(self) -> str | None:
        return self.seating.host

    @property
    def round_actions(self) -> list[dict]:
        return self.record.steps

    @property
    def round_step_ids(self) -> list:
        return self.record.step_ids

    # ----------------------------------------------------------------- membership

    def join(self, name: str, token_hash: bytes) -> Player:
        """Seat a newcomer if the table is between rounds and has room, else spectate.
        A name somebody in the room already has gets a number (`Ann (2)`)."""
        seating = self.seating
        name = seating.distinct_name(name)
        if self.phase in BETWEEN_ROUNDS and len(seating.seated()) < self.options.max_players:
            player = seating.new_player(name, token_hash)
            seating.sit(player)
        elif len(seating.spectators) >= MAX_SPECTATORS:
            raise RoomFull("This room is full.")
        else:
            player = seating.new_player(name, token_hash)
            seating.watch(player)
        if seating.host is None:
            seating.host = player.id
        return player

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
        player.left = True
        player.connected = False
        if self.host == player.id:
            self.seating.pass_host()
        if player in self.spectators:
            self.seating.remove_spectator(player)
        elif self.phase is not Phase.PLAYING:
            self.seating.compact()
        elif self.round is not None and player.seat is not None:
            self._mark_absent(player.seat, outcome)
        outcome.events.append(self.room_event())
        self._check_vote(outcome)
        return outcome

    # ----------------------------------------------------------------- bots

    def bots(self) -> list[Player]:
        """The computer players still at the table."""
        return self.seating.bots()

    def has_people(self) -> bool:
        """Somebody who is not a bot is still in the room (connected or not). Bots play
        only for people: in a room of bots alone they stop, and the room expires."""
        return self.seating.has_people()

    def add_bot(self, player: Player, level: str, now: float) -> tuple[Outcome, Player]:
        """The host seats a computer player of `level` in a free seat, between rounds.

        A bot is a seat like any other (it plays through `act` and `vote`), with no token
        (its hash matches none) and no socket. It counts as connected for the table, since
        it is always there, but never for keeping the room alive (`is_idle`)."""
        self._require_host(player)
        if self.phase not in BETWEEN_ROUNDS:
            raise BadPhase("Bots can only be added between rounds.")
        if len(self.seating.seated()) >= self.options.max_players:
            raise RoomFull("Every seat is taken.")
        number = self.seating.next_number
        seed = derive_seed(self.test_seed, number) if self.test_seed is not None else self._seeds.next_u64()
        try:
            seat = BotSeat.new(level, seed)
        except ValueError as err:
            raise Invalid("Unknown bot level.") from err
        bot = self.seating.new_player(self.seating.bot_name(), b"", connected=True, bot=seat)
        self.seating.sit(bot)
        self.last_active = now
        return Outcome(events=[self.room_event()]), bot

    def remove_bot(self, player: Player, bot_id: str, now: float) -> Outcome:
        """The host takes a computer player off the table, between rounds."""
        self._require_host(player)
        if self.phase not in BETWEEN_ROUNDS:
            raise BadPhase("Bots can only be removed between rounds.")
        bot = self.seating.by_id(bot_id)
        if bot is None or bot.bot is None or bot.left:
            raise Invalid("There is no such bot in this room.")
        bot.left = True
        bot.connected = False
        self.seating.compact()
        return Outcome(events=[self.room_event()])

    # ----------------------------------------------------------------- phases

    def _require_host(self, player: Player) -> None:
        if player.id != self.host:
            raise NotHost("Only the host can do that.")

    def set_options(self, player: Player, options: Options) -> Outcome:
        self._require_host(player)
        if self.phase is not Phase.LOBBY:
            raise BadPhase("Options can only be changed in the lobby.")
        if options.max_players < len(self.seating.seated()):
            raise Invalid("More players are already seated than that.")
        self.options = options
        return Outcome(events=[self.room_event()])

    def start(self, player: Player, now: float) -> Outcome:
        """Lobby or round over -> countdown."""
        self._require_host(player)
        if self.phase not in (Phase.LOBBY, Phase.ROUND_OVER):
            raise BadPhase("A round cannot start now.")
        if self.phase is Phase.ROUND_OVER and self.round_no >= self.options.rounds:
            raise BadPhase("The match is over: start a rematch.")
        seating = self.seating
        if min(self.options.max_players, len(seating.seated()) + len(seating.waiting())) < 2:
            raise BadPhase("At least two seated players are needed.")
        seating.compact()
        seating.seat_waiting(self.options.max_players)
        outcome = Outcome()
        self._count_down(now, outcome)
        return outcome

    def _count_down(self, now: float, outcome: Outcome, *, with_round: bool = False) -> None:
        """-> countdown: the table as it now is, then the 3-2-1 (the hub deals when it ends)."""
        self.phase = Phase.COUNTDOWN
        self.countdown_ends = now + self.countdown_s
        self.result = None
        outcome.events.append(self.room_event(with_round=with_round))
        outcome.events.append(self._emit(out.CountdownEvent(
            kind="countdown", ends_in_ms=int(self.countdown_s * 1000))))

    def begin_round(self, now: float) -> Outcome:
        """Countdown -> playing. The signal (rule 4): deal and open the round for
        everyone at once."""
        if self.phase is not Phase.COUNTDOWN:
            return Outcome()
        self.countdown_ends = None
        if len(self.players) < 2:  # somebody left during the countdown
            self.phase = Phase.LOBBY if self.round_no == 0 else Phase.ROUND_OVER
            return Outcome(events=[self.room_event()])
        self.round_no += 1
        self.round_seed = self.test_seed if self.test_seed is not None else self._seeds.next_u64()
        dealt = (layout_round(self.test_layout, self.round_seed, len(self.players)) if self.test_layout is not None
                 else DemonRound.deal(self.round_seed, len(self.players)))
        self.record.begin(dealt)
        self.answered.new_round()
        self.round = dealt.start()
        self.votes = set()
        self.phase = Phase.PLAYING
        limit = self.options.time_limit_s
        self.round_deadline = now + limit if limit else None
        outcome = Outcome()
        for p in self.players:  # a seat already away past its grace is out from the start
            if not p.connected and p.dropped_at is not None and now - p.dropped_at >= self.grace_s:
                self.round, _ = self.round.with_absent(p.seat)
                self.record.log({"type": "absent", "seat": p.seat, "absent": True})
        outcome.events.append(self.room_event())
        outcome.events.append(self._emit(out.RoundStartedEvent(
            kind="round_started", round_no=self.round_no, round=self.round_view(),
            time_left_ms=views.ms_until(self.round_deadline, now))))
        self._close_round_if_ended(outcome)
        return outcome

    def next_round(self, player: Player, now: float) -> Outcome:
        if self.phase is not Phase.ROUND_OVER:
            raise BadPhase("There is no finished round to follow.")
        return self.start(player, now)

    def rematch(self, player: Player, now: float) -> Outcome:
        """Match over -> countdown: a new match at the same table, its first round
        counting down for everyone at once (the host's Rematch is the new match's
        Start). With fewer than two seated (the others left), back to the lobby."""
        self._require_host(player)
        if self.phase is not Phase.MATCH_OVER:
            raise BadPhase("The match is not over.")
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
            self._count_down(now, outcome, with_round=True)
        else:
            self.phase = Phase.LOBBY
            outcome.events.append(self.room_event(with_round=True))
        return outcome

    # ----------------------------------------------------------------- play

    def act(self, player: Player, action_id: str, action: PlayerAction, now: float) -> Outcome:
        """Apply one Demon action (as a validated `Action` message holds it, whatever seat
        it names: the player's is used); the reply is `ack` or `rejected`, never an
        exception."""
        first = self.answered.answer(player.id, action_id)
        if first is not None:
            return Outcome(reply=out.duplicate(first))
        outcome = Outcome()
        try:
            outcome.reply = self._apply(player, action_id, action, outcome)
        except RaceLost as race:
            outcome.reply = self._race_lost(player, action, action_id, race)
        except (RoomError, EngineError) as err:
            outcome.reply = out.rejected(action_id, err.code, str(err))
        self.answered.remember(player.id, outcome.reply)
        return outcome

    def _apply(self, player: Player, action_id: str, action: PlayerAction, outcome: Outcome) -> out.Ack:
        seat = player.seat
        if seat is None or not self.seating.is_seated(player):
            raise SpectatorCannotPlay("Spectators cannot play.")
        if self.phase in (Phase.LOBBY, Phase.COUNTDOWN) or self.round is None:
            raise NotStarted("The round has not started yet.")
        if self.phase is not Phase.PLAYING:
            raise GameOver("The round is over.")
        if seat in self.round.absent:
            raise OutOfRound("You are out of this round.")
        if isinstance(action, MalformedMove):
            raise action.error()
        engine_action = bind_seat(action, seat)
        new_round, engine_events = self.round.apply(engine_action)
        self.round = new_round
        step = action_to_json(engine_action)
        self.record.log(step, (player.id, action_id, self.v + 1))  # before the stuck flags: a recycle counts
        self.record.note(engine_events)
        outcome.events.append(self._emit(out.MoveEvent(
            kind="move", seat=seat, action=public_action(step),
            engine=[e.to_json() for e in engine_events],
            seat_view=new_round.seat_view(seat),
            foundations=[views.foundation_entry(e.pile, new_round.foundations[e.pile])
                         for e in engine_events if isinstance(e, Played)],
            stuck=self.public_stuck(),
            cards_home=list(new_round.foundation_counts()))))
        move_v = self.v
        self._close_round_if_ended(outcome)
        return out.ack(action_id, move_v)

    def _race_lost(self, player: Player, action: PlayerAction, action_id: str, race: RaceLost) -> out.Rejected:
        """Name the seat and pile that won. For a play aimed at "any pile" (`pile: null`)
        that is whoever took a card like this one last, which the engine, seeing only
        the foundations, cannot tell from an earlier pile of the same height."""
        pile, by_seat, reason = race.pile, race.by_seat, str(race)
        if isinstance(action, ToFoundation) and action.pile is None and self.round is not None \
                and player.seat is not None:
            layout = self.round.seats[player.seat]
            src = action.src
            card = layout.waste[-1] if isinstance(src, str) else layout.tableau[src].up[-1]
            taken = self.record.last_taken(card.suit, card.rank)
            if taken is not None:
                pile, by_seat = taken
                reason = f"too late: seat {by_seat} put {card} on foundation pile {pile} first"
        winner = self.seating.at_seat(by_seat)
        return out.race_lost(action_id, race.code, reason, pile, by_seat, winner.name if winner else None)

    def vote(self, player: Player, end: bool) -> Outcome:
        if self.phase is not Phase.PLAYING or not self.seating.is_seated(player):
            raise BadPhase("There is no round you can vote in.")
        if end:
            self.votes.add(player.seat)
        else:
            self.votes.discard(player.seat)
        outcome = Outcome(events=[self._emit(out.VotesEvent(kind="votes", votes=sorted(self.votes)))])
        self._check_vote(outcome)
        return outcome

    def tick(self, now: float) -> Outcome:
        """Deadlines: the round's time limit and the reconnection grace period."""
        outcome = Outcome()
        host = self.seating.by_id(self.host) if self.host else None
        if (host is not None and not host.connected and host.dropped_at is not None
                and now - host.dropped_at >= self.grace_s):
            self.seating.pass_host()
            if self.host != host.id:
                outcome.events.append(self.room_event())
        if self.phase is Phase.PLAYING and self.round_deadline is not None and now >= self.round_deadline:
            self._finish("time", outcome)
        if self.phase is Phase.PLAYING and self.round is not None:
            expired = [p for p in self.players
                       if not p.connected and p.dropped_at is not None and p.seat not in self.round.absent
                       and now - p.dropped_at >= self.grace_s]
            for p in expired:
                self._mark_absent(p.seat, outcome)
            if expired:
                outcome.events.append(self.room_event())
                self._check_vote(outcome)
        return outcome

    def _voters(self) -> set[int]:
        """Seats that must agree (rule 17): everyone still in the round. A player whose
        connection dropped keeps their seat, and their say, until the grace period ends
        (then they are absent); so a flaky connection or a server restart never decides a
        vote."""
        assert self.round is not None
        return {p.seat for p in self.players if not p.left and p.seat not in self.round.absent}

    def _check_vote(self, outcome: Outcome) -> None:
        if self.phase is not Phase.PLAYING or self.round is None or not self.votes:
            return
        voters = self._voters()
        if voters and voters <= self.votes:
            self._finish("vote", outcome)

    def _finish(self, reason: str, outcome: Outcome) -> None:
        assert self.round is not None
        self.round, _events = self.round.finish(reason)
        self.record.log({"type": "finish", "reason": reason})
        self._close_round_if_ended(outcome)

    def _mark_absent(self, seat: int, outcome: Outcome) -> None:
        assert self.round is not None
        self.round, _events = self.round.with_absent(seat)
        self.record.log({"type": "absent", "seat": seat, "absent": True})
        self.votes.discard(seat)
        outcome.events.append(self._emit(out.AbsentEvent(
            kind="absent", absent=sorted(self.round.absent), stuck=self.public_stuck())))
        self._close_round_if_ended(outcome)

    def _close_round_if_ended(self, outcome: Outcome) -> None:
        """Playing -> round over or match over, once the engine says the round ended
        (Demon!, all stuck, a vote, the time limit)."""
        if self.round is None or self.round.end is None or self.phase is not Phase.PLAYING:
            return
        scores = self.round.scores()
        by_id = {}
        for p in self.players:
            by_id[p.id] = scores[p.seat]
            p.total += scores[p.seat]
        winner = self.seating.at_seat(self.round.end.winner) if self.round.end.winner is not None else None
        entry = {"round_no": self.round_no, "reason": self.round.end.reason,
                 "winner": winner.id if winner else None, "scores": by_id}
        self.history.append(entry)
        match_over = self.round_no >= self.options.rounds
        self.phase = Phase.MATCH_OVER if match_over else Phase.ROUND_OVER
        self.round_deadline = None
        totals = {p.id: p.total for p in self.players}
        best = max(totals.values())
        self.result = {**entry, "totals": totals, "match_over": match_over,
                       "winners": [pid for pid, t in totals.items() if t == best] if match_over else []}
        outcome.events.append(self._emit(out.RoundEndedEvent(kind="round_ended", result=self.result)))
        outcome.events.append(self.room_event())

    # ----------------------------------------------------------------- views

    def legal_for(self, player: Player) -> list[dict]:
        """The seat's legal actions as protocol JSON; the same list object as last time
        when they did not change (the hub sends only changed answers)."""
        if self.phase is not Phase.PLAYING or self.round is None or not self.seating.is_seated(player):
            return []
        return self.answers.legal(self.round, player.seat, player.id)

    def public_stuck(self) -> list[int]:
        """Seats known to be stuck (rule 16), shown only for seats that have been through
        their whole stock once. The answer depends on the order of the face-down stock;
        before every stock card has been on view, telling it would leak that order."""
        if self.round is None:
            return []
        return self.answers.stuck(self.round, self.record.cycled)

    def round_view(self) -> out.RoundView | None:
        return None if self.round is None else views.round_view(self.round, self.public_stuck(), self.votes)

    def public_state(self, now: float, *, with_round: bool = True) -> out.PublicState:
        return views.public_state(self, now, with_round=with_round)

    def snapshot(self, now: float) -> out.Snapshot:
        return out.snapshot(self.v, self.public_state(now))

    def room_event(self, *, with_round: bool = False) -> out.Event:
        """The table as it is now, without `round` (which the round's own events keep
        up to date) unless `with_round`."""
        return self._emit(out.RoomEvent(kind="room", state=self.public_state(self.clock(), with_round=with_round)))

    def _emit(self, body: out.RoomEventBody) -> out.Event:
        return self.log.append(body)

    def is_idle(self, now: float, ttl_s: float) -> bool:
        """No person connected for `ttl_s`: the hub may remove the room. Bots do not
        count: a room of bots alone is as empty as a room of nobody."""
        return not self.seating.person_connected() and now - self.last_active >= ttl_s

    def to_public_summary(self) -> dict:
        return views.summary(self)

    # ----------------------------------------------------------------- saving

    def match_json(self, now: float) -> dict:
        """The phase and the match, for the store's meta (the parts save themselves)."""
        return {
            "phase": self.phase.value,
            "round_no": self.round_no,
            "round_seed": self.round_seed,
            "votes": sorted(self.votes),
            "history": self.history,
            "result": self.result,
            "v": self.v,
            "created_at": self.created_at,
            # Wall-clock deadline: the round's clock keeps running while the server is down.
            "deadline_wall": (time.time() + self.round_deadline - now) if self.round_deadline is not None else None,
        }

    def restore(self, seating: Seating, record: RoundRecord, rnd: DemonRound | None,
                match: dict, now: float) -> None:
        """Take back a saved room: its parts as they restored themselves, and the phase
        and match as `match_json` wrote them. Every person comes back disconnected (the
        grace period restarts); a countdown starts again from its beginning."""
        self.seating = seating
        self.record = record
        self.round = rnd
        self.phase = Phase(match["phase"])
        self.round_no = match["round_no"]
        self.round_seed = match["round_seed"]
        self.votes = set(match["votes"])
        self.history = match["history"]
        self.result = match["result"]
        # Moves are saved as step rows only (the meta is not rewritten for them), so the
        # version is the later of the meta's and the last move's. (A client may hold later
        # versions whose save a crash cut off: the hub's epoch, not the version, tells it
        # apart; see `Hub.attach`.)
        self.log.resume_at(max([match["v"]] + [v for _pid, _aid, v in record.acknowledged()]))
        self.created_at = match.get("created_at", time.time())
        self.last_active = now
        if match.get("deadline_wall") is not None and self.phase is Phase.PLAYING:
            self.round_deadline = now + (match["deadline_wall"] - time.time())
        if self.phase is Phase.COUNTDOWN:
            self.countdown_ends = now + self.countdown_s
        if self.phase is Phase.PLAYING:
            self._close_round_if_ended(Outcome())  # saved just before the round's end was
        self.answered.restore(record.acknowledged())
