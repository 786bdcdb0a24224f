"""Why a Devil's Grip hint is useful, as a reason a page can put into one sentence.

The first-game guide (docs/architecture.md, "First-round guide") points at the hint
engine's move and says why. The page must not know the building rules, so the reason is
worked out here, next to them, and sent as a small dict the page words in the player's
language: a `kind`, the cards involved and the building chain (rule 3).

Pure, and a function of the player's view (`GripView`): the reason never mentions a
card the player has not seen. A whole pile that moves leaves a cell that the stock (or,
with the stock empty, the talon) fills at once (rule 7); whether the stock is empty is
on view, so the reason may say which.
"""

from __future__ import annotations

from typing import Literal

from app.grip.rules.actions import DealThree, GridToGrid, GripAction, Redeal, Swap, TalonToGrid
from app.grip.rules.layout import chain_of
from app.grip.rules.shapes import GripHintReason
from app.grip.rules.view import GripView

KINDS = ("deal", "redeal", "talon", "whole", "part", "swap")


def hint_reason(view: GripView, action: GripAction) -> GripHintReason:
    """The reason for `action` in `view`:

    * ``deal``: turn three stock cards onto the talon (nothing better on the grid);
    * ``redeal``: the stock is empty, turn the talon over for another pass;
    * ``talon``: the talon's top ``card`` builds on ``onto`` (chain ``chain``, 0..2 for
      2-5-8-J, 3-6-9-Q, 4-7-10-K);
    * ``whole``: a whole pile headed by ``card`` builds on ``onto``; its cell is emptied
      and ``refill`` says what fills it (``"stock"`` or ``"talon"``: with both empty
      no card could enter, so the deal would be over, rule 10);
    * ``part``: the run from ``card`` builds on ``onto`` and uncovers ``under``;
    * ``swap``: two piles change places (swaps are free), ``card`` and ``onto`` their tops.
    """
    if isinstance(action, DealThree):
        return {"kind": "deal"}
    if isinstance(action, Redeal):
        return {"kind": "redeal"}
    grid = view.grid
    if isinstance(action, TalonToGrid):
        card, onto = view.talon[-1], grid[action.dst][-1]
        return {"kind": "talon", "card": str(card), "onto": str(onto), "chain": chain_of(card)}
    if isinstance(action, GridToGrid):
        pile = grid[action.src]
        card, onto = pile[-action.count], grid[action.dst][-1]
        if action.count == len(pile):
            refill: Literal["stock", "talon"] = "stock" if view.stock_order or view.unseen else "talon"
            return {"kind": "whole", "card": str(card), "onto": str(onto), "chain": chain_of(card), "refill": refill}
        return {
            "kind": "part",
            "card": str(card),
            "onto": str(onto),
            "chain": chain_of(card),
            "under": str(pile[-action.count - 1]),
        }
    if isinstance(action, Swap):
        # A cell is empty only when the stock and the talon are (rule 7), and then no card
        # can enter and the deal is over (rule 10): both cells of a hinted swap hold piles.
        return {"kind": "swap", "card": str(grid[action.a][-1]), "onto": str(grid[action.b][-1])}
    raise ValueError(f"no reason for {action!r}")
