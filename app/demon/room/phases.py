"""The phases of a match and what may happen in each: one table.

    lobby -> countdown -> playing -> round_over -> countdown -> ... -> match_over -> countdown
                 \\-> (fewer than two left) back where it came from      (rematch; the lobby
                                                                     when fewer than two are left)

`TABLE[phase][op]` is either `Goes(...)`: allowed, and the phases the room may be in
afterwards; or `Refused(...)`: the error the room answers with, carrying its wire code.
An operation is a client message whose answer depends on the phase, or one of the
room's own steps (a newcomer sitting down, the countdown ending, the round ending); an
own step a phase does not list simply does not happen there. The room asks the table
in one place (`Room._require`, `Room._allows`, `Room._enter`), so the rules of when
are read here, not gathered from guards across the room; tests/rooms/test_phases.py
walks the table against a live room. Messages that every phase answers alike (ping,
leave, resync, emote) are not in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Union

from app.common.errors import EngineError, GameOver, NotStarted
from app.demon.room.errors import BadPhase, RoomError


class Phase(str, Enum):
    LOBBY = "lobby"
    COUNTDOWN = "countdown"
    PLAYING = "playing"
    ROUND_OVER = "round_over"
    MATCH_OVER = "match_over"


class Op(Enum):
    # client messages
    SET_OPTIONS = "options"
    ADD_BOT = "add_bot"
    REMOVE_BOT = "remove_bot"
    START = "start"
    NEXT_ROUND = "next_round"
    REMATCH = "rematch"
    ACT = "action"
    VOTE = "vote"
    COACH = "coach"
    # the room's own steps
    SIT = "sit"  # a newcomer takes a seat (where it may not, it watches)
    BEGIN_ROUND = "begin_round"  # the countdown is over: deal
    END_ROUND = "end_round"  # the round ended: Demon!, all stuck, a vote, the time limit

    # Members are singletons, so identity is equality; and the guards ask on every move
    # and every seat's legal actions, where Enum's own hash (a Python call) showed.
    __hash__ = object.__hash__

    @property
    def from_client(self) -> bool:
        return self not in (Op.SIT, Op.BEGIN_ROUND, Op.END_ROUND)


@dataclass(frozen=True)
class Goes:
    """Allowed; the phases the room may be in afterwards."""

    to: frozenset[Phase]


@dataclass(frozen=True)
class Refused:
    """Not in this phase: answered with this error (its class carries the wire code)."""

    error: type[RoomError] | type[EngineError]
    message: str

    def exception(self) -> Exception:
        return self.error(self.message)


Cell = Union[Goes, Refused]

L, C, P, R, M = Phase.LOBBY, Phase.COUNTDOWN, Phase.PLAYING, Phase.ROUND_OVER, Phase.MATCH_OVER


def _goes(*phases: Phase) -> Goes:
    return Goes(frozenset(phases))


NOT_STARTED = Refused(NotStarted, "The round has not started yet.")
OVER = Refused(GameOver, "The round is over.")
NO_VOTE = Refused(BadPhase, "There is no round you can vote in.")
NO_COACH = Refused(BadPhase, "The coach helps during a round.")
NO_OPTIONS = Refused(BadPhase, "Options can only be changed in the lobby.")
NO_ADDING_BOTS = Refused(BadPhase, "Bots can only be added between rounds.")
NO_REMOVING_BOTS = Refused(BadPhase, "Bots can only be removed between rounds.")
NO_START = Refused(BadPhase, "A round cannot start now.")
NO_NEXT_ROUND = Refused(BadPhase, "There is no finished round to follow.")
NO_REMATCH = Refused(BadPhase, "The match is not over.")

TABLE: dict[Phase, dict[Op, Cell]] = {
    Phase.LOBBY: {
        Op.SET_OPTIONS: _goes(L),
        Op.ADD_BOT: _goes(L),
        Op.REMOVE_BOT: _goes(L),
        Op.SIT: _goes(L),
        Op.START: _goes(C),
        Op.NEXT_ROUND: NO_NEXT_ROUND,
        Op.REMATCH: NO_REMATCH,
        Op.ACT: NOT_STARTED,
        Op.VOTE: NO_VOTE,
        Op.COACH: NO_COACH,
    },
    Phase.COUNTDOWN: {
        Op.SET_OPTIONS: NO_OPTIONS,
        Op.ADD_BOT: NO_ADDING_BOTS,
        Op.REMOVE_BOT: NO_REMOVING_BOTS,
        Op.START: NO_START,
        Op.NEXT_ROUND: NO_NEXT_ROUND,
        Op.REMATCH: NO_REMATCH,
        Op.ACT: NOT_STARTED,
        Op.VOTE: NO_VOTE,
        Op.COACH: NO_COACH,
        Op.BEGIN_ROUND: _goes(P, L, R),  # back to the lobby or round over: fewer than two left
    },
    Phase.PLAYING: {
        Op.SET_OPTIONS: NO_OPTIONS,
        Op.ADD_BOT: NO_ADDING_BOTS,
        Op.REMOVE_BOT: NO_REMOVING_BOTS,
        Op.START: NO_START,
        Op.NEXT_ROUND: NO_NEXT_ROUND,
        Op.REMATCH: NO_REMATCH,
        Op.ACT: _goes(P, R, M),
        Op.VOTE: _goes(P, R, M),
        Op.COACH: _goes(P),
        Op.END_ROUND: _goes(R, M),
    },
    Phase.ROUND_OVER: {
        Op.SET_OPTIONS: NO_OPTIONS,
        Op.ADD_BOT: _goes(R),
        Op.REMOVE_BOT: _goes(R),
        Op.SIT: _goes(R),
        Op.START: _goes(C),
        Op.NEXT_ROUND: _goes(C),
        Op.REMATCH: NO_REMATCH,
        Op.ACT: OVER,
        Op.VOTE: NO_VOTE,
        Op.COACH: NO_COACH,
    },
    Phase.MATCH_OVER: {
        Op.SET_OPTIONS: NO_OPTIONS,
        Op.ADD_BOT: _goes(M),
        Op.REMOVE_BOT: _goes(M),
        Op.SIT: _goes(M),
        Op.START: NO_START,
        Op.NEXT_ROUND: NO_NEXT_ROUND,
        Op.REMATCH: _goes(C, L),
        Op.ACT: OVER,
        Op.VOTE: NO_VOTE,
        Op.COACH: NO_COACH,
    },
}


# The table read the other way, for `allows` (asked for every seat at every flush):
# the phases, by identity, where each operation may happen.
_ALLOWED_IN: dict[Op, tuple[Phase, ...]] = {
    op: tuple(phase for phase in Phase if isinstance(TABLE[phase].get(op), Goes)) for op in Op
}


def allows(phase: Phase, op: Op) -> bool:
    return phase in _ALLOWED_IN[op]


def require(phase: Phase, op: Op) -> None:
    """Raise the table's refusal of `op` in `phase`, if it has one."""
    cell = TABLE[phase].get(op)
    if isinstance(cell, Refused):
        raise cell.exception()
    if cell is None:
        raise AssertionError(f"{op} is not a step of phase {phase}")


def check_move(phase: Phase, op: Op, to: Phase) -> None:
    """A transition the table does not list is a bug in the room, not a refusal."""
    cell = TABLE[phase].get(op)
    if not isinstance(cell, Goes) or to not in cell.to:
        raise AssertionError(f"{phase.value} --{op.value}--> {to.value} is not in the phase table")
