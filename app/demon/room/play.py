"""The round in play: its state, and the rules of playing it (moves, votes, absences,
the time limit) until it ends.

`Room` extends this class: to its callers a room is one object (the hub, the store,
the bots and the tests read `room.round`, `room.votes`, `room.legal_for(...)`), so the
play is the room's base rather than a part it calls. What is here knows the round and
the seats; what is the room's (who is in it, the match around the rounds, what the
table shows) the room supplies: `room_event` and `_close_round_if_ended`.

Every call is answered as data (`Outcome`), and what may happen in which phase is the
phase table's (`phases.py`), asked here in one place (`_allows`, `_require`, `_enter`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, cast

from app.common.errors import EngineError, RaceLost
from app.common.events import Event
from app.demon.room import views
from app.demon.room.action_ids import ActionIds
from app.demon.room.answers import TableAnswers
from app.demon.room.errors import DailyRace, NotPractice, OutOfRound, RoomError, SpectatorCannotPlay
from app.demon.room.event_log import EventLog
from app.demon.room.outcome import Outcome
from app.demon.room.phases import NOT_STARTED, Op, Phase, allows, check_move, require
from app.demon.room.round_record import RoundRecord
from app.demon.room.seating import Player, Seating
from app.protocol import server as out
from app.protocol.actions import MalformedMove, PlayerAction, bind_seat, public_action
from app.racing import RaceRound

# Why the room ends a round (both games' `Termination` have these values).
VOTE, TIME = "vote", "time"


class RoundPlay:
    def __init__(self, replay_window: int, grace_s: float) -> None:
        self.grace_s = grace_s
        self.phase = Phase.LOBBY
        self.seating = Seating()
        self.log = EventLog(replay_window)
        self.record = RoundRecord()
        self.answers = TableAnswers()
        self.answered = ActionIds()
        self.round: RaceRound | None = None  # of the game `self.record.game` dealt it in
        self.round_deadline: float | None = None
        self.votes: set[int] = set()
        # A person alone with bots handed the rest of the round to them (`vote(...,
        # bots_finish=True)`): the bots play it out fast, and their votes decide.
        self.bots_finish = False
        # A daily race's room (app/server/daily_http.py): its day, YYYY-MM-DD. The same
        # round for everyone, so nothing here may help one racer or deal it again.
        self.daily: str | None = None
        self.clock: Callable[[], float] = time.monotonic  # injectable, so room tests control time

    @property
    def v(self) -> int:
        return self.log.v

    @property
    def players(self) -> list[Player]:
        return self.seating.players

    def room_event(self, *, with_round: bool = False) -> out.Event:
        raise NotImplementedError  # the room's: the whole table

    def _close_round_if_ended(self, outcome: Outcome) -> None:
        raise NotImplementedError  # the room's: the round's place in the match

    # ----------------------------------------------------------------- the phase table

    def _allows(self, op: Op) -> bool:
        return allows(self.phase, op)

    def _require(self, op: Op) -> None:
        require(self.phase, op)

    def _enter(self, op: Op, phase: Phase) -> None:
        check_move(self.phase, op, phase)
        self.phase = phase

    # ----------------------------------------------------------------- play

    def act(self, player: Player, action_id: str, action: PlayerAction, now: float) -> Outcome:
        """Apply one Demon action (as a validated `Action` message holds it, whatever seat
        it names: the player's is used); the reply is `ack` or `rejected`, never an
        exception."""
        first = self.answered.answer(player.id, action_id)
        if first is not None:
            return Outcome(reply=out.duplicate(first))
        outcome = Outcome()
        reply: out.Ack | out.Rejected
        try:
            reply = self._apply(player, action_id, action, outcome, now)
        except RaceLost as race:
            reply = self._race_lost(player, action_id, action, race, now, outcome)
        except (RoomError, EngineError) as err:
            reply = out.rejected(action_id, err.code, str(err))
        outcome.reply = reply
        self.answered.remember(player.id, reply)
        return outcome

    def _race_lost(
        self, player: Player, action_id: str, action: PlayerAction, race: RaceLost, now: float, outcome: Outcome
    ) -> out.Rejected:
        """The loser's answer names the winner and, when the winning play's time is known,
        the margin on the receive clock (docs/protocol.md, "The margin of a race"); the
        winner is told the same margin directly (not an event: it changes nothing)."""
        pile, by_seat, reason = race.pile, race.by_seat, str(race)
        margin: float | None = None
        if self.round is not None and player.seat is not None and not isinstance(action, MalformedMove):
            engine_action = bind_seat(action, player.seat)
            pile, by_seat, reason = self.record.race_winner(self.round, player.seat, engine_action, race)
            margin = self.record.margin_s(self.round, player.seat, engine_action, pile, now)
        winner = self.seating.at_seat(by_seat)
        margin_ms = None if margin is None else round(margin * 1000)
        if margin_ms is not None and winner is not None and player.seat is not None:
            outcome.direct.append((winner.id, out.race_won(pile, player.seat, player.name, margin_ms)))
        return out.race_lost(action_id, race.code, reason, pile, by_seat, winner.name if winner else None, margin_ms)

    def _apply(self, player: Player, action_id: str, action: PlayerAction, outcome: Outcome, now: float) -> out.Ack:
        seat = player.seat
        if seat is None or not self.seating.is_seated(player):
            raise SpectatorCannotPlay("Spectators cannot play.")
        self._require(Op.ACT)
        if self.round is None:
            raise NOT_STARTED.exception()
        if seat in self.round.absent:
            raise OutOfRound("You are out of this round.")
        if isinstance(action, MalformedMove):
            raise action.error()
        engine_action = bind_seat(action, seat)
        new_round, engine_events = self.round.apply(engine_action)
        self.round = new_round
        game = self.record.game
        step = game.action_to_json(engine_action)
        self.record.log(step, (player.id, action_id, self.v + 1), now)  # before the stuck flags: a recycle counts
        self.record.note(engine_events)
        outcome.events.append(
            self._emit(
                out.MoveEvent(
                    kind="move",
                    seat=seat,
                    action=public_action(step),
                    engine=[e.to_json() for e in engine_events],
                    seat_view=new_round.seat_view(seat),
                    foundations=[
                        views.foundation_entry(e.pile, new_round.foundations[e.pile])
                        for e in game.foundation_plays(engine_events)
                    ],
                    stuck=self.public_stuck(),
                    cards_home=list(new_round.foundation_counts()),
                )
            )
        )
        move_v = self.v
        self._notices(engine_events, outcome)
        self._close_round_if_ended(outcome)
        return out.ack(action_id, move_v)

    def vote(self, player: Player, end: bool, bots_finish: bool = False) -> Outcome:
        """A vote to end the round (rule 17), or its taking back. With `bots_finish`, a
        person whose every opponent is a bot hands the rest of the round to them: the
        bots play it out fast (the hub's bot driver) and end it when they are done."""
        if player.seat is None or not self.seating.is_seated(player):
            raise SpectatorCannotPlay("Spectators cannot vote.")  # before the phase: docs/protocol.md
        self._require(Op.VOTE)
        if bots_finish:
            self.refuse_in_daily("Letting the bots finish is not offered in the daily race: its time is everyone's.")
            if not end or player.bot is not None or not self._only_bots_besides(player):
                raise NotPractice("Only a person whose every opponent is a bot can let the bots finish.")
            self.bots_finish = True
        elif player.bot is None:
            self.bots_finish = False  # ending now, or taking the vote back: the person decides again
        if end:
            self.votes.add(player.seat)
        else:
            self.votes.discard(player.seat)
        body = out.VotesEvent(kind="votes", votes=sorted(self.votes))
        if self.bots_finish:
            body["bots_finish"] = True
        outcome = Outcome(events=[self._emit(body)])
        self._check_vote(outcome)
        return outcome

    def refuse_in_daily(self, message: str) -> None:
        """`daily_race` in a daily race's room, where every racer gets the same round alone."""
        if self.daily is not None:
            raise DailyRace(message)

    def _in_round(self) -> list[Player]:
        assert self.round is not None
        absent = self.round.absent
        return [p for p in self.players if not p.left and p.seat is not None and p.seat not in absent]

    def _only_bots_besides(self, player: Player) -> bool:
        return self.round is not None and all(p.bot is not None for p in self._in_round() if p is not player)

    def _voters(self) -> set[int]:
        """Whose votes end the round (rule 17, and the decision in docs/rules.md: bots
        follow the people). The people still in the round; the bots have no say while a
        person does, so nobody waits on a bot that plays on. A table with no person
        left in the round, or one whose person let the bots finish, is decided by every
        seat still in it."""
        seated = self._in_round()
        people = {p.seat for p in seated if p.bot is None and p.seat is not None}
        if people and not self.bots_finish:
            return people
        return {p.seat for p in seated if p.seat is not None}

    def _check_vote(self, outcome: Outcome) -> None:
        """End the round once every voter (`_voters`) voted to. A player whose connection
        dropped keeps their seat, and their say, until the grace period ends (then they
        are absent); so a flaky connection or a server restart never decides a vote."""
        if not self._allows(Op.END_ROUND) or self.round is None or not self.votes:
            return
        voters = self._voters()
        if voters and voters <= self.votes:
            self._finish(VOTE, outcome)

    def _finish(self, reason: str, outcome: Outcome) -> None:
        assert self.round is not None
        self.round, _events = self.round.finish(reason)
        self.record.log({"type": "finish", "reason": reason})
        self._close_round_if_ended(outcome)

    def _mark_absent(self, seat: int, outcome: Outcome) -> None:
        assert self.round is not None
        self.round, events = self.round.with_absent(seat)
        self.record.log({"type": "absent", "seat": seat, "absent": True})
        self.votes.discard(seat)
        outcome.events.append(
            self._emit(out.AbsentEvent(kind="absent", absent=sorted(self.round.absent), stuck=self.public_stuck()))
        )
        self._notices(events, outcome)
        self._close_round_if_ended(outcome)

    def _notices(self, engine_events: Sequence[Event], outcome: Outcome) -> None:
        """The room events the game's engine events call for beyond the move or absence
        itself (Nerts' stall: `RaceGame.notices`); Demon has none."""
        assert self.round is not None
        for body in self.record.game.notices(self.round, engine_events):
            outcome.events.append(self._emit(cast(out.RoomEventBody, body)))

    def _round_deadlines(self, now: float, outcome: Outcome) -> None:
        """The round's time limit, and seats away past their grace period: now absent."""
        if self._allows(Op.END_ROUND) and self.round_deadline is not None and now >= self.round_deadline:
            self._finish(TIME, outcome)
        if self._allows(Op.END_ROUND) and self.round is not None:
            absent = self.round.absent
            expired = [
                p.seat
                for p in self.players
                if not p.connected
                and p.dropped_at is not None
                and p.seat is not None
                and p.seat not in absent
                and now - p.dropped_at >= self.grace_s
            ]
            for seat in expired:
                self._mark_absent(seat, outcome)
            if expired:
                outcome.events.append(self.room_event())
                self._check_vote(outcome)

    def legal_for(self, player: Player) -> list[out.ActionJson]:
        """The seat's legal actions as protocol JSON; the same list object as last time
        when they did not change."""
        return self._as_wire(self._legal(player))

    def legal_news(self, player: Player) -> list[out.ActionJson] | None:
        """The seat's legal actions if its socket has not been told them yet (they then
        count as told), else None: the hub sends a seat only changed answers."""
        legal = self._legal(player)
        return self._as_wire(legal) if self.answers.news(player.id, legal) else None

    def _legal(self, player: Player) -> list[dict[Any, Any]]:
        if not self._allows(Op.ACT) or self.round is None or player.seat is None or not self.seating.is_seated(player):
            return []
        return self.answers.legal(self.round, self.record.game, player.seat, player.id)

    @staticmethod
    def _as_wire(legal: list[dict[Any, Any]]) -> list[out.ActionJson]:
        # TableAnswers (answers.py, typed by the engine's owner) keeps them as the
        # engine's `action_to_json` without the seat: exactly ActionJson's shapes.
        return cast(list[out.ActionJson], legal)

    def public_stuck(self) -> list[int]:
        """Seats known to be stuck (rule 16), shown only for seats that have been through
        their whole stock once. The answer depends on the order of the face-down stock;
        before every stock card has been on view, telling it would leak that order."""
        if self.round is None:
            return []
        return self.answers.stuck(self.round, self.record.cycled)

    def round_view(self) -> out.RoundView | None:
        return (
            None
            if self.round is None
            else views.round_view(self.round, self.public_stuck(), self.votes, self.bots_finish, self.record.game)
        )

    def _emit(self, body: out.RoomEventBody) -> out.Event:
        return self.log.append(body)
