"""A readable text picture of a whole Nerts round, hidden cards included: for people
reading a replay (`python -m app.records`) or a failing test, never for the table."""

from __future__ import annotations

from app.common.cards import format_cards
from app.nerts.rules.round import NertsRound

__all__ = ["describe"]


def describe(round_: NertsRound) -> str:
    """The full state; the Nerts pile's face-down cards in parentheses."""
    opts = round_.options
    head = f"Nerts round, {len(round_.seats)} players, draw {opts.draw}"
    if opts.racing_spaces:
        head += ", Racing Demon spaces"
    head += ", stall on" if opts.stall else ", no stall"
    if round_.seed is not None:
        head += f", seed {round_.seed}"
    if round_.end is not None:
        head += f" - ended ({round_.end.reason}"
        if round_.end.winner is not None:
            head += f", seat {round_.end.winner} called Nerts"
        head += ")"
    else:
        head += " - in play" if round_.started else " - waiting for the signal"
        if round_.stalled:
            head += " (stalled)"
    lines = [head, f"Foundations ({len(round_.foundations)} piles):"]
    for i, p in enumerate(round_.foundations):
        top, owner = p[-1]
        lines.append(f"  {i:2d}: {p[0][0]}..{top} ({len(p)} cards; top by seat {owner})")
    stuck = round_.stuck_seats()
    homes = round_.foundation_counts()
    for s, st in enumerate(round_.seats):
        tags = [tag for tag, on in (("absent", s in round_.absent), ("stuck", s in stuck)) if on]
        lines.append(f"Seat {s}{' [' + ', '.join(tags) + ']' if tags else ''}: {homes[s]} on foundations")
        under, face_up = st.nerts[:-1], st.nerts[-1:]
        down = f"({format_cards(under)}) " if under else ""
        lines.append(f"  nerts {len(st.nerts)}: {down}{format_cards(face_up) or '-'}")
        for k, pile in enumerate(st.work):
            lines.append(f"  work {k}: {format_cards(pile) or '-'}")
        lines.append(f"  stock {len(st.stock)}: {format_cards(reversed(st.stock)) or '-'}")
        lines.append(f"  waste {len(st.waste)}: {format_cards(st.waste) or '-'}")
    lines.append("Scores: " + ", ".join(f"seat {s}: {v}" for s, v in enumerate(round_.scores())))
    return "\n".join(lines)
