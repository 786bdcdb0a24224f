"""Why a Devil's Grip deal is over, in numbers a page can put into words (rule 10).

The page must not guess: it gets the counts computed here and formats them in the
player's language. For a deal ended by rule 10 the counts are the proof that nothing can
happen any more — no whole pile fits onto another pile (that is the only grid move that
lets a card in, rule 7) and none of the cards the talon can still show
(`talon_showable`: the rest of this pass and, when a redeal is allowed, one more pass)
fits onto a pile's top. For a deal the player ended early the same counts say what was
still possible.

Pure: a function of a `GripState`, nothing else.
"""

from __future__ import annotations

from typing import Literal

from app.grip.rules.layout import fits
from app.grip.rules.position import talon_showable
from app.grip.rules.shapes import GripEndExplanation
from app.grip.rules.state import GripState


def explain_end(state: GripState) -> GripEndExplanation | None:
    """The reasons a finished deal is over, or None while it goes on.

    Keys:
    * ``by``: ``"won"`` (every card is in the grid), ``"rule"`` (rule 10: no card can
      ever enter) or ``"player"`` (ended by the player while a card could still enter);
    * ``open_piles``: piles whose top can still take a card (a 2 to a 10 on top);
    * ``whole_moves``: whole piles that fit onto another pile's top;
    * ``showable``: distinct cards the talon can still show by deals and redeals alone;
    * ``showable_fit``: how many of those fit onto some pile's top;
    * ``stock``, ``talon``: cards left there (their sum is the score);
    * ``redeal``: whether the pass limit still allows a redeal.
    """
    if not state.is_over():
        return None
    grid = state.grid
    tops = [p[-1] for p in grid if p]
    open_tops = [t for t in tops if t.rank <= 10]
    whole_moves = 0
    for src, pile in enumerate(grid):
        if pile and any(fits(pile[0], other[-1]) for dst, other in enumerate(grid) if other and dst != src):
            whole_moves += 1
    # `talon_showable` only slices the sequences it is given, so it is asked about
    # positions (talon first, then stock, each bottom to top): a card it names twice
    # (this pass and the next) is one card, and twins from the two decks stay two.
    cards = state.talon + state.stock
    n_talon = len(state.talon)
    positions = set(talon_showable(tuple(range(n_talon, len(cards))), tuple(range(n_talon)), state.may_redeal_later))
    showable_fit = sum(1 for i in positions if any(fits(cards[i], top) for top in open_tops))
    by: Literal["won", "rule", "player"]
    if state.won:
        by = "won"
    elif whole_moves or showable_fit:
        by = "player"
    else:
        by = "rule"
    return {
        "by": by,
        "open_piles": len(open_tops),
        "whole_moves": whole_moves,
        "showable": len(positions),
        "showable_fit": showable_fit,
        "stock": len(state.stock),
        "talon": len(state.talon),
        "redeal": state.may_redeal_later,
    }
