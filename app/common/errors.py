"""Typed errors raised by the engine (modelled on python-chess's IllegalMoveError).

Every rejection is an exception carrying a message a person understands; the room
server forwards `str(error)` (and the structured fields) to the player. Raising never
changes state: engine states are immutable, so a failed `apply` leaves the old one.

Each class names its wire code (`code`, the `code` of a `rejected` message in
docs/protocol.md), so a caller can answer any engine error with `err.code` instead of a
ladder of `except` clauses that must list subclasses before their bases.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base of everything the engine raises on purpose; a malformed position, state or
    record (`LayoutError`, `InvalidRecord`) answers with the protocol's `invalid`."""

    code = "invalid"


class IllegalAction(EngineError):
    """The action breaks a rule in the current position."""

    code = "illegal"


class MalformedAction(IllegalAction):
    """The action itself is not well formed (wrong type, field or range): every game's
    action constructors and JSON readers raise this one class, so the wire can catch it
    whichever game's action it was building."""


class NotStarted(IllegalAction):
    """Demon rule 4: nothing may be played before the signal."""

    code = "not_started"


class GameOver(IllegalAction):
    """The round or deal has ended; no further actions are accepted."""

    code = "round_over"


class RaceLost(IllegalAction):
    """Demon rule 14: the named foundation pile no longer accepts the card.

    `by_seat` is the seat whose card now sits on top of that pile (the one that got there
    first); `pile` is the pile's index.
    """

    code = "race_lost"

    def __init__(self, message: str, *, pile: int, by_seat: int) -> None:
        super().__init__(message)
        self.pile = pile
        self.by_seat = by_seat


class InvalidRecord(EngineError):
    """A game record (JSON) is malformed or cannot be replayed.

    `index` is the position of the first offending action in the record's action list,
    or None when the problem is in the header or the initial cards.
    """

    def __init__(self, message: str, *, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index
