"""A readable text picture of a whole Demon round, hidden cards included: for people
reading a replay (`python -m app.records`) or a failing test, never for the table."""

from __future__ import annotations

from app.common.cards import format_cards
from app.demon.rules.round import DemonRound

__all__ = ["describe"]


def describe(round_: DemonRound) -> str:
    """The full state, face-down cards in parentheses."""
    lines = []
    head = f"Demon round, {len(round_.seats)} players"
    if round_.seed is not None:
        head += f", seed {round_.seed}"
    if round_.end is not None:
        head += f" - ended ({round_.end.reason}"
        if round_.end.winner is not None:
            head += f", seat {round_.end.winner} went out"
        head += ")"
    else:
        head += " - in play" if round_.started else " - waiting for the signal"
    lines.append(head)
    lines.append(f"Foundations ({len(round_.foundations)} piles):")
    for i, p in enumerate(round_.foundations):
        top, owner = p[-1]
        lines.append(f"  {i:2d}: {p[0][0]}..{top} ({len(p)} cards; top by seat {owner})")
    stuck = round_.stuck_seats()
    scores = round_.scores()
    for s, st in enumerate(round_.seats):
        tags = []
        if s in round_.absent:
            tags.append("absent")
        if s in stuck:
            tags.append("stuck")
        lines.append(
            f"Seat {s}{' [' + ', '.join(tags) + ']' if tags else ''}: {round_.cards_on_foundations(s)} on foundations"
        )
        for k, pile in enumerate(st.tableau):
            down = f"({format_cards(pile.down)}) " if pile.down else ""
            lines.append(f"  pile {k}: {down}{format_cards(pile.up) or '-'}")
        lines.append(f"  stock {len(st.stock)}: {format_cards(reversed(st.stock)) or '-'}")
        lines.append(f"  waste {len(st.waste)}: {format_cards(st.waste) or '-'}")
    lines.append("Scores: " + ", ".join(f"seat {s}: {v}" for s, v in enumerate(scores)))
    return "\n".join(lines)
