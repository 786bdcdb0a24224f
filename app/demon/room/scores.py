"""A finished round's place in the match: its scores added to the totals, its entry in
the history, and the result the table shows until the next round starts.

Separate from the room because it is arithmetic over the round and the seats, with no
phase or event in it: the room decides *when* a round is over, this *what it made*.
"""

from __future__ import annotations

from app.demon.room.seating import Seating
from app.protocol import server as out
from app.racing import RaceRound


def score_round(rnd: RaceRound, seating: Seating, round_no: int, rounds: int) -> out.MatchResult:
    """Add the ended round's scores to every seated player's total; the result, whose
    first keys are the round's entry for the history (`history_entry`)."""
    end = rnd.end
    assert end is not None, "only an ended round is scored"
    scores = rnd.scores()
    by_id = {}
    for p in seating.players:
        assert p.seat is not None  # seated players always have one
        by_id[p.id] = scores[p.seat]
        p.total += scores[p.seat]
    winner = seating.at_seat(end.winner) if end.winner is not None else None
    match_over = round_no >= rounds
    totals = {p.id: p.total for p in seating.players}
    best = max(totals.values())
    return out.MatchResult(
        round_no=round_no,
        reason=end.reason.value,
        winner=winner.id if winner else None,
        scores=by_id,
        totals=totals,
        match_over=match_over,
        winners=[pid for pid, t in totals.items() if t == best] if match_over else [],
    )


def history_entry(result: out.MatchResult) -> out.RoundResult:
    """The round alone, as the match's history keeps it."""
    return out.RoundResult(
        round_no=result["round_no"], reason=result["reason"], winner=result["winner"], scores=result["scores"]
    )
