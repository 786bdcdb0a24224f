"""Rule 19 as the room keeps it: a match of a fixed number of rounds, each a fresh deal,
the highest total wins and a tie is shared. (These were the tests of `DemonMatch`, an
engine copy of the room's scoring that nothing but its tests used.)"""

from __future__ import annotations

import pytest

from app.demon.room.room import Phase, RoomError
from app.demon.rules.round import DemonRound
from tests.rooms.test_room import T0, started


def voted_round_with(room, players, homes: list[tuple[str, int, int]]) -> None:
    """Put a position where seat `owner` has `height` cards of `suit` home, for each
    (suit, height, owner), then end the round by everyone's vote (rule 17: no winner,
    each seat scores its cards on the foundations)."""
    room.round = DemonRound.from_layout(
        [{"tableau": [{"up": ["KS"]}] + [{}] * 6}, {"tableau": [{"up": ["KH"]}] + [{}] * 6}],
        foundations=[[(f"{r}{suit}", owner) for r in "A23456789TJQ"[:height]] for suit, height, owner in homes],
    )
    for p in players:
        room.vote(p, True)


def test_the_highest_total_over_the_match_wins():
    room, players = started(2, rounds=2)
    voted_round_with(room, players, [("D", 5, 0), ("C", 3, 1)])
    assert room.phase is Phase.ROUND_OVER and room.history[-1]["scores"] == {players[0].id: 5, players[1].id: 3}
    room.next_round(players[0], T0)
    room.begin_round(T0 + 3)
    # the foundation cards went back to their owners: a fresh full deal for everyone
    assert room.round.foundations == () and all(len(st.cards()) == 52 for st in room.round.seats)
    voted_round_with(room, players, [("C", 4, 1), ("D", 1, 1)])
    assert room.phase is Phase.MATCH_OVER
    assert room.result["totals"] == {players[0].id: 5, players[1].id: 8}
    assert room.result["winners"] == [players[1].id]
    with pytest.raises(RoomError):
        room.next_round(players[0], T0)  # the match is over


def test_a_tie_is_shared():
    room, players = started(2, rounds=1)
    voted_round_with(room, players, [("D", 2, 0), ("C", 2, 1)])
    assert room.phase is Phase.MATCH_OVER
    assert room.result["winners"] == [players[0].id, players[1].id]
