"""`TableAnswers`: what the rooms layer keeps of the engine's answers for its sockets.

The hub asks, once per flush, for the legal actions of every socket of a changed room and
sends a seat a `legal` message only when its answer changed; every move event carries
the public stuck flags. The engine answers both and keeps its answers in one place, the
round's `RoundAnalysis` (a seat's legal actions are the same tuple while they are the
same, and a stuck answer is kept beside the layout it is about). What is the room's own
business, and kept here, is only:

* each player's legal actions as protocol JSON, kept with the engine's answer tuple it
  was made from and reused while the engine gives that same tuple;
* what each player's socket was last sent (`news`), and what every seat's legal actions
  rested on at the last flush (`basis_moved_on`), so the flush need not even ask a seat
  whose answer cannot have changed.

`clear()` forgets them (a test or a benchmark). Nothing here changes an answer, only how
often it is turned into JSON (`tests/rooms/test_room.py` checks both against fresh ones).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.racing import RaceGame, RaceRound

__all__ = ["TableAnswers"]


class TableAnswers:
    def __init__(self) -> None:
        self._legal: dict[str, tuple[tuple[Any, ...], list[dict[str, Any]]]] = {}
        self._sent: dict[str, list[dict[str, Any]]] = {}  # player id -> what its socket was last sent
        self._basis: tuple[object, ...] | None = None  # (phase, foundations, absent) at the last flush

    def clear(self) -> None:
        self._legal.clear()
        self._sent.clear()
        self._basis = None

    def legal(self, rnd: RaceRound, game: RaceGame, seat: int, pid: str) -> list[dict[str, Any]]:
        """Seat `seat`'s legal actions in `rnd` (of `game`) as protocol JSON (without the
        seat). The same list object as last time when the answer did not change."""
        answer = rnd.legal_actions(seat)
        kept = self._legal.get(pid)
        if kept is not None and kept[0] is answer:
            return kept[1]
        actions = []
        to_json = game.action_to_json
        for a in answer:
            j = to_json(a)
            j.pop("seat", None)
            actions.append(j)
        self._legal[pid] = (answer, actions)
        return actions

    @staticmethod
    def stuck(rnd: RaceRound, seen_stock: Iterable[int]) -> list[int]:
        """The seats stuck in `rnd` (rule 16) among those that have seen their whole stock
        (`seen_stock`: seats that recycled it, plus any whose stock is empty now)."""
        seen = set(seen_stock) | {s for s, seat in enumerate(rnd.seats) if not seat.stock}
        return sorted(rnd.stuck_seats(among=seen)) if seen else []

    # ------------------------------------------------------------ what sockets were told

    def news(self, pid: str, actions: list[dict[str, Any]]) -> bool:
        """Whether `actions` are news to `pid`'s socket; if so, they count as sent."""
        sent = self._sent.get(pid)
        if sent is actions or sent == actions:
            return False
        self._sent[pid] = actions
        return True

    def forget_sent(self, pid: str) -> None:
        """`pid`'s socket is new (or asked for a snapshot): it must be told afresh."""
        self._sent.pop(pid, None)

    def was_sent(self, pid: str) -> bool:
        return pid in self._sent

    def basis_moved_on(self, phase: object, rnd: RaceRound | None) -> bool:
        """Whether what every seat's legal actions rest on (the phase, the foundations,
        who is absent) changed since the last call. When it did not, only a seat that
        acted can have new legal actions, through its own layout: the others need not
        even be asked (most moves: draws and tableau moves)."""
        basis = (phase, rnd.foundations if rnd else None, rnd.absent if rnd else None)
        old, self._basis = self._basis, basis
        return old is None or any(a is not b for a, b in zip(old, basis))
