"""`TableAnswers`: the rooms layer's one cache, of what each seat may do and who is stuck.

The hub asks, once per flush, for the legal actions of every socket of a changed room and
sends a seat a `legal` message only when its answer changed; every move event carries
the public stuck flags. Both questions are answered by the engine (whose `RoundAnalysis`
makes them cheap to ask again of an unchanged part of the round), but turning the
answers into protocol JSON and comparing them with what a socket was last told is the
room's business, and it happens for every seat on every move. So this object keeps, in
one place that a test or a benchmark can `clear()`:

* each player's last legal actions as protocol JSON, with the engine objects they were
  computed from (the seat's layout, the foundations, the absent set): reused while those
  are the same objects (engine states are immutable), and, when only the foundations
  changed, while the seat's foundation plays (a few (source, pile) pairs) are the same;
* the last public stuck answer, with the foundations and layouts it was computed from;
* what each player's socket was last sent (`news`), and what every seat's legal actions
  rested on at the last flush (`basis_moved_on`), so the flush need not even ask a seat
  whose answer cannot have changed.

Nothing here changes an answer, only how often it is computed
(`tests/rooms/test_room.py` checks the stuck flags against fresh ones).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from app.demon.rules.round import DemonRound, ToFoundation, action_to_json


@dataclass
class _Legal:
    layout: Any
    foundations: tuple
    absent: frozenset
    plays: tuple
    actions: list[dict]


class TableAnswers:
    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self._legal: dict[str, _Legal] = {}  # player id -> its last answer
        self._stuck: tuple | None = None  # (foundations, seats, answer)
        self._sent: dict[str, list] = {}  # player id -> the actions its socket was last sent
        self._basis: tuple | None = None  # (phase, foundations, absent) at the last flush

    def legal(self, rnd: DemonRound, seat: int, pid: str) -> list[dict]:
        """Seat `seat`'s legal actions in `rnd` as protocol JSON (without the seat).
        The same list object as last time when the answer did not change."""
        layout, foundations, absent = rnd.seats[seat], rnd.foundations, rnd.absent
        cached = self._legal.get(pid)
        plays = None
        if cached is not None and cached.layout is layout and cached.absent is absent:
            if cached.foundations is foundations:
                return cached.actions
            plays = rnd.foundation_plays(seat)
            if plays == cached.plays:
                cached.foundations = foundations
                return cached.actions
        actions = []
        found = []
        for a in rnd.legal_actions(seat):
            j = action_to_json(a)
            j.pop("seat", None)
            actions.append(j)
            if type(a) is ToFoundation:
                found.append((a.src, a.pile))
        if plays is None:
            # `foundation_plays` is exactly these pairs, in this order (the foundation
            # plays of `legal_actions`): read them off the list just built instead of
            # asking the engine a second time, once per move for the mover.
            plays = tuple(found)
        self._legal[pid] = _Legal(layout, foundations, absent, plays, actions)
        return actions

    def stuck(self, rnd: DemonRound, seen_stock: Iterable[int]) -> list[int]:
        """The seats stuck in `rnd` (rule 16) among those that have seen their whole stock
        (`seen_stock`: seats that recycled it, plus any whose stock is empty now)."""
        cycled = set(seen_stock)
        seats, cached = rnd.seats, self._stuck
        if cached is not None and cached[0] is rnd.foundations and len(cached[1]) == len(seats):
            # Same foundations: only a seat whose layout changed (the mover) can have
            # changed its answer, or whether it has seen its whole stock (a recycle
            # changes that seat's layout; a new round changes every seat's).
            changed = [s for s in range(len(seats)) if seats[s] is not cached[1][s]]
            keep = [s for s in cached[2] if s not in changed]
            seen = [s for s in changed if s in cycled or not seats[s].stock]
            answer = sorted(keep + list(rnd.stuck_seats(among=seen))) if seen else keep
        else:
            seen_all = cycled | {s for s, seat in enumerate(seats) if not seat.stock}
            answer = sorted(rnd.stuck_seats(among=seen_all)) if seen_all else []
        self._stuck = (rnd.foundations, seats, answer)
        return list(answer)

    # ------------------------------------------------------------ what sockets were told

    def news(self, pid: str, actions: list[dict]) -> bool:
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

    def basis_moved_on(self, phase: Any, rnd: DemonRound | None) -> bool:
        """Whether what every seat's legal actions rest on (the phase, the foundations,
        who is absent) changed since the last call. When it did not, only a seat that
        acted can have new legal actions, through its own layout: the others need not
        even be asked (most moves: draws and tableau moves)."""
        basis = (phase, rnd.foundations if rnd else None, rnd.absent if rnd else None)
        old, self._basis = self._basis, basis
        return old is None or any(a is not b for a, b in zip(old, basis))
