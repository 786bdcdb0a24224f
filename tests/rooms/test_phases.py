"""The phase table (app/demon/room/phases.py), walked as a table: every client operation
in every phase is either allowed or refused with the code the room answered before the
table existed (`BEFORE`, written out by hand from the old guards), and a live room in
that phase does what the table says."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from app.common.errors import EngineError
from app.demon.hub import coach
from app.demon.room.errors import RoomError
from app.demon.room.phases import TABLE, Goes, Op, Phase, Refused, check_move
from app.demon.room.room import Options, Player, Room
from tests.support.actions import as_sent

T0 = 1000.0
OK = "ok"
PHASE_CODES = {"bad_phase", "not_started", "round_over"}

# Op -> the answer in lobby, countdown, playing, round over, match over.
BEFORE: dict[Op, tuple[str, str, str, str, str]] = {
    Op.SET_OPTIONS: (OK, "bad_phase", "bad_phase", "bad_phase", "bad_phase"),
    Op.ADD_BOT: (OK, "bad_phase", "bad_phase", OK, OK),
    Op.REMOVE_BOT: (OK, "bad_phase", "bad_phase", OK, OK),
    Op.START: (OK, "bad_phase", "bad_phase", OK, "bad_phase"),
    Op.NEXT_ROUND: ("bad_phase", "bad_phase", "bad_phase", OK, "bad_phase"),
    Op.REMATCH: ("bad_phase", "bad_phase", "bad_phase", "bad_phase", OK),
    Op.ACT: ("not_started", "not_started", OK, "round_over", "round_over"),
    Op.VOTE: ("bad_phase", "bad_phase", OK, "bad_phase", "bad_phase"),
    Op.COACH: ("bad_phase", "bad_phase", OK, "bad_phase", "bad_phase"),
}
PHASES = (Phase.LOBBY, Phase.COUNTDOWN, Phase.PLAYING, Phase.ROUND_OVER, Phase.MATCH_OVER)
CLIENT_OPS = [op for op in Op if op.from_client]


def room_in(phase: Phase) -> tuple[Room, Player, Player]:
    """A practice room (the host and two bots, so the coach may help) in `phase`; the
    host and one of its bots."""
    room = Room("PHASES", Options(rounds=1 if phase is Phase.MATCH_OVER else 3), test_seed=7)
    room.clock = lambda: T0
    host = room.join("Host", b"h")
    room.connect(host, T0)
    _, bot = room.add_bot(host, "easy", T0)
    room.add_bot(host, "easy", T0)
    if phase is not Phase.LOBBY:
        room.start(host, T0)
    if phase in (Phase.PLAYING, Phase.ROUND_OVER, Phase.MATCH_OVER):
        room.begin_round(T0)
    if phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
        room.vote(host, True)  # the one person: bots follow the people
    assert room.phase is phase
    return room, host, bot


CALLS: dict[Op, Callable[[Room, Player, Player], object]] = {
    Op.SET_OPTIONS: lambda room, host, bot: room.set_options(host, Options(rounds=3)),
    Op.ADD_BOT: lambda room, host, bot: room.add_bot(host, "easy", T0),
    Op.REMOVE_BOT: lambda room, host, bot: room.remove_bot(host, bot.id, T0),
    Op.START: lambda room, host, bot: room.start(host, T0),
    Op.NEXT_ROUND: lambda room, host, bot: room.next_round(host, T0),
    Op.REMATCH: lambda room, host, bot: room.rematch(host, T0),
    Op.ACT: lambda room, host, bot: room.act(host, "a1", as_sent({"type": "draw"}), T0),
    Op.VOTE: lambda room, host, bot: room.vote(host, True),
    Op.COACH: lambda room, host, bot: coach.advice(room, host),
}


def answer(op: Op, phase: Phase) -> str:
    """What a live room in `phase` answers to `op`: "ok" or the refusal's code."""
    room, host, bot = room_in(phase)
    try:
        outcome = CALLS[op](room, host, bot)
    except (RoomError, EngineError) as err:
        return err.code
    reply = getattr(outcome, "reply", None)
    if isinstance(reply, dict) and reply.get("type") == "rejected":
        return str(reply["code"])
    return OK


def test_every_client_operation_has_a_cell_in_every_phase():
    assert set(TABLE) == set(Phase)
    for phase in Phase:
        assert set(CLIENT_OPS) <= set(TABLE[phase]), phase


@pytest.mark.parametrize("phase", PHASES, ids=[p.value for p in PHASES])
@pytest.mark.parametrize("op", CLIENT_OPS, ids=[op.value for op in CLIENT_OPS])
def test_the_table_says_what_the_room_said_before(op: Op, phase: Phase):
    before = BEFORE[op][PHASES.index(phase)]
    cell = TABLE[phase][op]
    if before == OK:
        assert isinstance(cell, Goes)
    else:
        assert isinstance(cell, Refused) and cell.error.code == before
    got = answer(op, phase)
    assert got == before if before != OK else got not in PHASE_CODES


def test_a_transition_off_the_table_is_a_bug_not_a_refusal():
    check_move(Phase.LOBBY, Op.START, Phase.COUNTDOWN)
    with pytest.raises(AssertionError):
        check_move(Phase.LOBBY, Op.START, Phase.PLAYING)
    with pytest.raises(AssertionError):
        check_move(Phase.PLAYING, Op.START, Phase.COUNTDOWN)


def test_the_rooms_own_steps_happen_only_where_the_table_lists_them():
    for op in (Op.SIT, Op.BEGIN_ROUND, Op.END_ROUND):
        where = {phase for phase in Phase if isinstance(TABLE[phase].get(op), Goes)}
        assert (
            where
            == {
                Op.SIT: {Phase.LOBBY, Phase.ROUND_OVER, Phase.MATCH_OVER},
                Op.BEGIN_ROUND: {Phase.COUNTDOWN},
                Op.END_ROUND: {Phase.PLAYING},
            }[op]
        )
    room, host, _bot = room_in(Phase.COUNTDOWN)
    assert room.join("Late", b"l").seat is None  # no sitting down during a countdown
    room.begin_round(T0)
    assert room.begin_round(T0).events == []  # a second deal does not happen
