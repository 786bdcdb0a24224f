"""The JSON the Devil's Grip service answers with, as TypedDicts (see
`app.grip.rules.shapes` for why TypedDicts: no cost at run time, checked by mypy, and
the HTTP edge's response models)."""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict

from app.grip.rules.shapes import ActionJson, GripEndExplanation, GripHintReason, GripStateView


class GripHintInfo(TypedDict):
    """The last hint asked for this position: the engine's action, the score it expects to
    finish with, whether its search finished, and why the action helps."""

    action: ActionJson | None
    expected_score: float
    complete: bool
    why: GripHintReason | None


class GripGameAnswer(TypedDict):
    """A game as the page sees it: the view, the legal actions (the page knows no rules),
    history flags, par, the last hint and, once over, why the deal ended."""

    id: str
    number: int | None
    state: GripStateView
    legal: list[ActionJson]
    can_undo: bool
    can_redo: bool
    used_undo: bool
    used_hint: bool
    winnable: bool
    par: int | None
    hint: ActionJson | None
    hint_info: GripHintInfo | None
    explain: GripEndExplanation | None
    token: NotRequired[str]  # only in the answer that starts the game: keep it to play on


class GripSyncAnswer(TypedDict):
    """A game as the page keeps it when it plays with its own rules: no legal
    list (the page computes it), the operation count `seq` the next batch builds on, and
    the record (`actions`, `redo` next first, the deal `number` and `passes`) the page
    rebuilds the full state from."""

    id: str
    seq: int
    number: int | None
    passes: int | None
    state: GripStateView
    actions: list[ActionJson]
    redo: list[ActionJson]
    can_undo: bool
    can_redo: bool
    used_undo: bool
    used_hint: bool
    winnable: bool
    par: int | None
    hint: ActionJson | None
    hint_info: GripHintInfo | None
    explain: GripEndExplanation | None
    token: NotRequired[str]


class GripSolutionStep(TypedDict):
    """One action of a certified winning line and the view after it."""

    action: ActionJson
    state: GripStateView


class GripParAnswer(TypedDict):
    """A deal's par: the score the hint engine reaches on it (`passes` null: unlimited)."""

    number: int
    passes: int | None
    par: int


class GripSolutionAnswer(TypedDict):
    """A certified-winnable deal's winning line: the first view and every step after it."""

    number: int
    initial: GripStateView
    steps: list[GripSolutionStep]
