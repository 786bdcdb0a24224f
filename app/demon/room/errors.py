"""What a room refuses, as typed errors that carry their wire code (docs/protocol.md).

Like the engine's errors (`app/common/errors.py`), each class names its `code`, so the
room answers any refusal with `err.code` and `err.message` instead of a ladder of
`except` clauses. The HTTP routes catch `RoomError` too (a full room on join, too many
bots on a practice room).
"""

from __future__ import annotations


class RoomError(Exception):
    code = "invalid"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Invalid(RoomError):
    """Well-formed but meaningless: an unknown bot level, a bot that is not there."""


class NotHost(RoomError):
    code = "not_host"


class BadPhase(RoomError):
    """Not now: the room's phase does not allow it."""

    code = "bad_phase"


class RoomFull(RoomError):
    code = "room_full"


class BadSeat(RoomError):
    """No person the host may remove sits there: an empty seat, a bot's (`remove_bot`
    takes those), or the host's own."""

    code = "bad_seat"


class SpectatorCannotPlay(RoomError):
    code = "spectator"


class OutOfRound(RoomError):
    """The seat is absent from this round (it left, or was away past its grace)."""

    code = "illegal"


class TooManyBots(RoomError):
    """The whole server holds `DEMON_MAX_BOTS` bots already."""

    code = "too_many_bots"


class DailyRace(RoomError):
    """Not in the daily race, which is one counted round alike for everyone (docs/daily.md):
    no coach, no handing the round to the bots, no rematch of the day's deal."""

    code = "daily_race"


class NotPractice(RoomError):
    """Only where no other person plays (a practice round): the coach's advice, and
    handing the rest of a round to the bots."""

    code = "not_practice"


class Removed(RoomError):
    """The host removed this person from the table: they may not join it again."""

    code = "removed"
