"""Devil's Grip, the solitaire: the public API.

The rules live in `state` (the position, built from the deal or JSON; behind it `layout`,
`actions`, `events`, `position` with end detection, `moves` and `play`) and `game`
(history with undo/redo, records, daily deal, text rendering); this package gathers what a server, a
replay tool or a test needs (the hint engine, par and the full-information solver are
`search`'s, here as `grip_hint`, `grip_par` and `grip_solve`, each spending a `Budget`
its caller gives, e.g. a `NodeBudget`)::

    from app.grip.rules import GripGame, TalonToGrid
    game = GripGame.new(1, passes=3)
    game.apply(game.hint())
"""

from app.common.records import RECORD_FORMAT, RECORD_VERSION
from app.grip.rules.budget import Budget, NodeBudget
from app.grip.rules.game import (
    GripGame,
    daily_deal_number,
    describe,
    game_from_record,
    make_grip_record,
    replay_record,
)
from app.grip.rules.search import Hint, PlanMemo
from app.grip.rules.search import hint as grip_hint
from app.grip.rules.search import par as grip_par
from app.grip.rules.search import solve as grip_solve
from app.grip.rules.state import (
    CELLS,
    COLS,
    DRAW,
    MAX_PILE,
    PASS_OPTIONS,
    ROWS,
    Arranged,
    DealEnded,
    Dealt,
    DealThree,
    EndDeal,
    Filled,
    GridToGrid,
    GripAction,
    GripEvent,
    GripState,
    PileMoved,
    Redeal,
    Redealt,
    Swap,
    Swapped,
    TalonPlayed,
    TalonToGrid,
    cell_name,
    chain_of,
    fits,
    grip_action_from_json,
    grip_action_to_json,
    grip_deck,
    is_chain,
    rating,
    talon_showable,
)
from app.grip.rules.view import GripView

__all__ = [
    "CELLS",
    "COLS",
    "DRAW",
    "MAX_PILE",
    "PASS_OPTIONS",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "ROWS",
    "Arranged",
    "Budget",
    "DealEnded",
    "DealThree",
    "Dealt",
    "EndDeal",
    "Filled",
    "GridToGrid",
    "GripAction",
    "GripEvent",
    "GripGame",
    "GripState",
    "GripView",
    "Hint",
    "NodeBudget",
    "PileMoved",
    "PlanMemo",
    "Redeal",
    "Redealt",
    "Swap",
    "Swapped",
    "TalonPlayed",
    "TalonToGrid",
    "cell_name",
    "chain_of",
    "daily_deal_number",
    "describe",
    "fits",
    "game_from_record",
    "grip_action_from_json",
    "grip_action_to_json",
    "grip_deck",
    "grip_hint",
    "grip_par",
    "grip_solve",
    "is_chain",
    "make_grip_record",
    "rating",
    "replay_record",
    "talon_showable",
]
