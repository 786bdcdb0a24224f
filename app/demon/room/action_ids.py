"""Exactly once: the answer each player's action ids got, so that a resend is answered
again and never applied twice (docs/protocol.md, "Action ids").

A client resends an action whose `ack` it did not see (its socket dropped); the resend
must get the first answer back, `duplicate: true`, and change nothing. A window of the
last 256 ids per player was not enough: an id resent after 256 newer ones was applied
again. So the ids of *applied* actions are kept for the whole round
they were applied in and the whole of the next one. They cost what the round's log
already costs (one small entry per step; the log keeps a step for each anyway), and a
resend that arrives after the next round began is still answered, not played on the
new table. Rejections change nothing, so re-deciding an old one is harmless; only the
last `RECENT_REJECTED` per player are kept, which bounds what a client sending junk can
make the room hold.

After a restart, the applied ids of the current round come back from the saved log
(`RoundRecord.acknowledged`), and those of the round before from what the store wrote
when the round began (`kept`, `restore_kept`); rejections do not.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from typing import NamedTuple

from app.protocol import server as out

RECENT_REJECTED = 256


class KeptId(NamedTuple):
    player: str
    action_id: str
    v: int
    earlier: bool  # of the round before the current one


class ActionIds:
    def __init__(self) -> None:
        self._applied: dict[str, dict[str, int]] = {}  # player id -> {action id: version}
        self._applied_before: dict[str, dict[str, int]] = {}  # the same, of the last round
        self._rejected: dict[str, OrderedDict[str, out.Rejected]] = {}

    def answer(self, pid: str, action_id: str) -> out.Ack | out.Rejected | None:
        """The first answer to `action_id` from `pid`, if it is still remembered."""
        for applied in (self._applied, self._applied_before):
            ids = applied.get(pid)
            v = ids.get(action_id) if ids is not None else None
            if v is not None:
                return out.ack(action_id, v)
        rejected = self._rejected.get(pid)
        return rejected.get(action_id) if rejected is not None else None

    def remember(self, pid: str, reply: out.Ack | out.Rejected) -> None:
        if reply["type"] == "ack":
            self._applied.setdefault(pid, {})[reply["id"]] = reply["v"]
            return
        rejected = self._rejected.setdefault(pid, OrderedDict())
        rejected[reply["id"]] = reply
        while len(rejected) > RECENT_REJECTED:
            rejected.popitem(last=False)

    def new_round(self) -> None:
        """A round begins: the last round's applied ids are kept one round longer."""
        self._applied_before, self._applied = self._applied, {}

    def restore(self, acknowledged: Iterable[tuple[str, str, int]]) -> None:
        """The applied actions of the current round, from its saved log."""
        for pid, action_id, v in acknowledged:
            self._applied.setdefault(pid, {})[action_id] = v

    def kept(self, in_log: set[tuple[str, str]]) -> list[KeptId]:
        """The applied ids the current round's log (`in_log`: (player, action id)) does
        not hold, for the store: the previous round's (earlier=True), and, between a
        rematch and its first round, the last round's (earlier=False)."""
        return [KeptId(pid, aid, v, True) for pid, ids in self._applied_before.items() for aid, v in ids.items()] + [
            KeptId(pid, aid, v, False)
            for pid, ids in self._applied.items()
            for aid, v in ids.items()
            if (pid, aid) not in in_log
        ]

    def restore_kept(self, kept: Iterable[KeptId]) -> None:
        for pid, action_id, v, earlier in kept:
            (self._applied_before if earlier else self._applied).setdefault(pid, {})[action_id] = v

    def of(self, pid: str) -> list[out.Ack | out.Rejected]:
        """Every answer remembered for `pid`, applied ones first (what the tests look at)."""
        return [
            out.ack(a, v) for applied in (self._applied_before, self._applied) for a, v in applied.get(pid, {}).items()
        ] + list(self._rejected.get(pid, {}).values())
