"""Devil's Grip, the solitaire: the public API.

The rules live in `devils_grip_core` (state, actions, end detection) and
`devils_grip_game` (history with undo/redo, records, daily deal, text rendering); this
module gathers what a server, a replay tool or a test needs (the hint engine, par and
the full-information solver are `grip_search`'s, here as `grip_hint`, `grip_par` and
`grip_solve`)::

    from app.engine.devils_grip import GripGame, TalonToGrid
    game = GripGame.new(1, passes=3)
    game.apply(game.hint())
"""

from app.engine.devils_grip_core import (
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
    Redealt,
    Swapped,
    TalonPlayed,
    Redeal,
    Swap,
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
from app.engine.devils_grip_game import (
    RECORD_FORMAT,
    RECORD_VERSION,
    GripGame,
    daily_deal_number,
    describe,
    game_from_record,
    make_grip_record,
    replay_record,
)
from app.engine.grip_search import Hint, PlanMemo
from app.engine.grip_search import hint as grip_hint
from app.engine.grip_search import par as grip_par
from app.engine.grip_search import solve as grip_solve
from app.engine.grip_view import GripView

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
    "DealEnded",
    "Dealt",
    "DealThree",
    "EndDeal",
    "Filled",
    "GridToGrid",
    "GripAction",
    "GripEvent",
    "GripGame",
    "GripState",
    "GripView",
    "Hint",
    "PlanMemo",
    "PileMoved",
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
