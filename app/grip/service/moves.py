"""Batches of Devil's Grip operations the page has already played, with its own copy of the rules.

The page applies every move at once with its own copy of the rules (static/grip/
grip-rules.js) and sends the server what it did, in order: `{base, ops}`, where `base`
is the server's operation count (`GripSession.seq`) the page last saw. The server is
still the authority: it replays the ops with its engine on a copy of the game and keeps
the result only when every one of them is legal, so a refused batch changes nothing and
the page goes back to the server's state with the reason (never a silent divergence).

Why a count and not just the ops: a batch whose answer was lost (a dropped connection)
is sent again, and must not be played twice. A batch built on another count is refused
as `stale`, with the server's record, and the page compares that with its own.

A game played with no connection at all is sent the same way: a new game of the same
deal number, then one batch from `base` 0. The replay is the verification.
"""

from __future__ import annotations

from app.common.errors import IllegalAction
from app.grip.rules import grip_action_from_json, grip_action_to_json
from app.grip.service.sessions import GripError, GripSession, GripSessions
from app.grip.service.shapes import GripSyncAnswer
from app.protocol.messages import GripOp
from app.support.logfmt import log_event


class StaleBatch(GripError):
    """The batch was built on another operation count than the server's."""

    def __init__(self, base: int, seq: int) -> None:
        super().__init__("bad_phase", f"the batch starts after operation {base}, the server is at {seq}")
        self.base = base
        self.seq = seq


class RefusedBatch(GripError):
    """An operation of the batch is illegal (`index` says which); nothing was kept."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__("illegal", f"operation {index + 1} of the batch: {reason}")
        self.index = index
        self.reason = reason


def apply_batch(grips: GripSessions, session: GripSession, base: int, ops: list[GripOp]) -> GripSession:
    """Replay `ops` after operation `base`, all or nothing (see the module docstring)."""
    if base != session.seq:
        raise StaleBatch(base, session.seq)
    trial = session.game.copy()
    for index, item in enumerate(ops):
        try:
            if item.op == "action":
                if item.action is None:
                    raise IllegalAction("an action is required")
                trial.apply(grip_action_from_json(item.action))
            elif item.op == "undo":
                trial.undo()
            elif item.op == "redo":
                trial.redo()
            else:
                trial.end()
        except IllegalAction as err:
            log_event("grip_batch_refused", game=session.id, index=index, reason=str(err))
            raise RefusedBatch(index, str(err)) from err
    session.game = trial
    session.seq += len(ops)
    session.changes += 1  # a hint searched before this batch is stale
    session.hint = None
    grips.save(session)
    return session


def sync_answer(grips: GripSessions, session: GripSession, token: str | None = None) -> GripSyncAnswer:
    """The game as the page keeps it: the usual answer without the legal list (the page
    computes it), with the operation count and the record to rebuild the game from."""
    full = grips.describe(session, token)
    game = session.game
    answer: GripSyncAnswer = {
        "id": full["id"],
        "seq": session.seq,
        "number": full["number"],
        "passes": game.initial.passes_allowed,
        "state": full["state"],
        "actions": [grip_action_to_json(a) for a in game.actions],
        "redo": [grip_action_to_json(a) for a in game.redo_actions],
        "can_undo": full["can_undo"],
        "can_redo": full["can_redo"],
        "used_undo": full["used_undo"],
        "used_hint": full["used_hint"],
        "winnable": full["winnable"],
        "par": full["par"],
        "hint": full["hint"],
        "hint_info": full["hint_info"],
        "explain": full["explain"],
    }
    if token is not None:
        answer["token"] = token
    return answer
