"""The JSON the rules hand out, as TypedDicts: the shapes of actions, of a player's view of
a position, of the reason for a hint and of the explanation of an end.

Why TypedDicts (from `typing_extensions`, which pydantic needs before Python 3.12) and
not pydantic models: they cost nothing at run time — the values stay the plain dicts
that `orjson` encodes once per answer — while mypy checks every producer against them,
and the HTTP edge gives the same types to FastAPI as response models, so /docs and
/openapi.json describe exactly what is sent (`app/server/grip_http.py`). The class names
are the schema names, hence the `Grip` prefix.
"""

from __future__ import annotations

from typing import Literal, NotRequired, Union

from typing_extensions import TypedDict

# ------------------------------------------------------------------ actions (rules 4-10)


class GripDeal(TypedDict):
    """Rule 8: turn up to three stock cards onto the talon."""

    type: Literal["deal"]


class GripRedeal(TypedDict):
    """Rule 9: turn the talon over into a new stock."""

    type: Literal["redeal"]


class GripTalonPlay(TypedDict):
    """Rules 3-4: the talon's top card onto pile `dst`."""

    type: Literal["talon"]
    dst: int


class GripMove(TypedDict):
    """Rule 4: the top `count` cards of pile `src` onto pile `dst`."""

    type: Literal["move"]
    src: int
    dst: int
    count: int


class GripSwap(TypedDict):
    """Rule 5: cells `a` and `b` exchange their piles."""

    type: Literal["swap"]
    a: int
    b: int


class GripEnd(TypedDict):
    """Rule 10: the player ends the deal."""

    type: Literal["end"]


ActionJson = Union[GripDeal, GripRedeal, GripTalonPlay, GripMove, GripSwap, GripEnd]

# ------------------------------------------------------------------ a player's view

Rating = Literal["win", "brilliant", "excellent", "good"]


class GripStateView(TypedDict):
    """What the browser may see of a position (`GripState.view`): never the stock's order.
    Cards are strings like ``"TS"``; piles and the talon run bottom..top."""

    grid: list[list[str]]
    stock: int
    talon: list[str]  # the top three talon cards
    talon_count: int
    passes_allowed: int | None
    passes_used: int
    can_redeal: bool
    score: int
    rating: Rating | None
    ended: bool
    over: bool
    won: bool


class GripHintReason(TypedDict):
    """Why a hint helps (`why.hint_reason`): a `kind` and the cards it names."""

    kind: Literal["deal", "redeal", "talon", "whole", "part", "swap"]
    card: NotRequired[str]
    onto: NotRequired[str]
    chain: NotRequired[int]  # 0..2: 2-5-8-J, 3-6-9-Q, 4-7-10-K
    refill: NotRequired[Literal["stock", "talon"]]  # kind "whole": what fills the emptied cell
    under: NotRequired[str]  # kind "part": the card uncovered


class GripEndExplanation(TypedDict):
    """Why a finished deal is over, in counts (`explain.explain_end`)."""

    by: Literal["won", "rule", "player"]
    open_piles: int
    whole_moves: int
    showable: int
    showable_fit: int
    stock: int
    talon: int
    redeal: bool
