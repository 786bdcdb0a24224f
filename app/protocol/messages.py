"""Every message of the protocol as a pydantic model, in one place (docs/protocol.md).

Client messages forbid unknown fields, so a typo or an injected field is an error, not
something silently ignored. Demon actions are validated structurally (app/protocol/
actions.py, which turns them into the engine's actions); whether an action is *legal*
is the engine's decision.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Literal, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter

from app.protocol.actions import DemonActionField
from app.protocol.nerts_actions import NertsActionField

# Characters that change how the text around them reads without showing themselves:
# the bidirectional marks, embeddings, overrides and isolates ("\u202eevil" shows as
# "live"), and letters or marks that draw nothing (Hangul fillers, the braille blank).
_TEXT_DIRECTION = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_SHOW_NOTHING = frozenset("\u034f\u115f\u1160\u3164\uffa0\u2800")
# Control characters (C0 and C1, U+0085 among them), line and paragraph separators,
# surrogates: none belongs in a one-line name.
_NOT_IN_A_NAME = frozenset({"Cc", "Zl", "Zp", "Cs"})
_INVISIBLE = frozenset({"Cf", "Zs", "Mn", "Me"})  # format characters, spaces, combining marks


def _plain_name(name: str) -> str:
    """Refuse what would let a name hide or disguise itself: control
    and separator characters, text-direction overrides, and names with nothing visible
    (U+200B alone). Joiners and marks inside a visible name stay: emoji sequences and
    many scripts need them."""
    for ch in name:
        if unicodedata.category(ch) in _NOT_IN_A_NAME or ch in _TEXT_DIRECTION:
            raise ValueError("a name cannot hold control, line-break or text-direction characters")
    if all(unicodedata.category(ch) in _INVISIBLE or ch in _SHOW_NOTHING for ch in name):
        raise ValueError("a name needs at least one visible character")
    return name


# A player's name: 1-20 characters of plain text that shows itself (`_plain_name`). The
# browser always inserts it as text, so markup in a name is shown, never run. Two
# players of one room never share a name: the room numbers the second (`Ann (2)`).
Name = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=20), AfterValidator(_plain_name)
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# --- Client -> server over the WebSocket ----------------------------------------------


class Hello(_Strict):
    type: Literal["hello"]
    token: Annotated[str, StringConstraints(min_length=1, max_length=100)]
    v: Annotated[int, Field(ge=0)] | None = None
    epoch: Annotated[str, StringConstraints(max_length=40)] | None = None  # the `welcome`'s, with `v`
    # The protocol the page speaks (`PROTOCOL`); none from a page older than Nerts. A
    # room of a game the page cannot read closes its socket with `CLOSE_OUTDATED`.
    protocol: Annotated[int, Field(ge=1, le=1000)] | None = None


class Start(_Strict):
    type: Literal["start"]


# The racing layouts a table can deal (app/racing), and a game's house rules as sent:
# a few named switches, checked by the game itself (`RaceGame.house_rules`).
GameName = Literal["demon", "nerts"]
HouseRules = Annotated[dict[Annotated[str, StringConstraints(max_length=30)], Union[bool, int]], Field(max_length=8)]


class RoomOptions(_Strict):
    rounds: Annotated[int, Field(ge=1, le=20)] = 3
    time_limit_s: Annotated[int, Field(ge=60, le=3600)] | None = None
    max_players: Annotated[int, Field(ge=2, le=8)] = 8
    game: GameName = "demon"
    house_rules: HouseRules | None = None


class SetOptions(RoomOptions):
    type: Literal["options"]


class Action(_Strict):
    type: Literal["action"]
    id: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    action: DemonActionField  # the engine's action (app/protocol/actions.py)


class NertsAction(Action):
    """`action` in a Nerts room: the same message, its action read as Nerts' (the
    socket reads a room's messages with its game's `client_messages`)."""

    action: NertsActionField  # the same field, of the other game


class Vote(_Strict):
    type: Literal["vote"]
    end: bool = True
    # With end: a person whose every opponent is a bot lets the bots play the round out
    # fast instead of ending it now (docs/protocol.md).
    bots_finish: bool = False


class NextRound(_Strict):
    type: Literal["next_round"]


class Rematch(_Strict):
    type: Literal["rematch"]


class Leave(_Strict):
    type: Literal["leave"]


class Resync(_Strict):
    type: Literal["resync"]


class Ping(_Strict):
    type: Literal["ping"]


# The languages the page speaks (static/i18n/): an open table shows its creator's.
Language = Literal["en", "de", "fi", "ro", "ru"]

# A computer player's level (app/demon/rules/bot.py LEVELS).
BotLevel = Literal["easy", "medium", "hard"]


class AddBot(_Strict):
    """Host, between rounds: seat a computer player in a free seat."""

    type: Literal["add_bot"]
    level: BotLevel = "medium"


class RemoveBot(_Strict):
    """Host, between rounds: take a computer player (by its player id) off the table."""

    type: Literal["remove_bot"]
    player: Annotated[str, StringConstraints(min_length=1, max_length=20)]


# The emotes a player can float over their seat (app/demon/hub/emotes.py): a fixed set, so
# there is no text to moderate; the browser draws and names each one in every language.
EmoteName = Literal["wave", "thumbs_up", "laugh", "wow", "sad", "gg"]


class Emote(_Strict):
    """A seated player says hello: shown over their seat for a moment, never saved."""

    type: Literal["emote"]
    emote: EmoteName


class Coach(_Strict):
    """Practice rooms only (every other seat a bot): the next useful play, and why
    (app/demon/hub/coach.py)."""

    type: Literal["coach"]


class SetOpen(_Strict):
    """Host, any phase: list the table for strangers (`GET /api/tables`) or take it off."""

    type: Literal["set_open"]
    open: bool


class RemovePlayer(_Strict):
    """Host, in the lobby: send the person at `seat` away; they may not come back."""

    type: Literal["remove_player"]
    seat: Annotated[int, Field(ge=0, le=7)]


# What a seat sends once it is in (the hub's door, a socket's and a bot's alike): every
# client message but `hello`, which the socket endpoint answers itself.
RoomMessage = Union[
    Start,
    SetOptions,
    Action,
    Vote,
    NextRound,
    Rematch,
    Leave,
    Resync,
    Ping,
    AddBot,
    RemoveBot,
    Emote,
    Coach,
    SetOpen,
    RemovePlayer,
]
ClientMessage = Annotated[Union[Hello, RoomMessage], Field(discriminator="type")]
client_message = TypeAdapter(ClientMessage)

NertsRoomMessage = Union[
    Start,
    SetOptions,
    NertsAction,
    Vote,
    NextRound,
    Rematch,
    Leave,
    Resync,
    Ping,
    AddBot,
    RemoveBot,
    Emote,
    Coach,
    SetOpen,
    RemovePlayer,
]
nerts_client_message = TypeAdapter(Annotated[Union[Hello, NertsRoomMessage], Field(discriminator="type")])

# The protocol this server speaks: 2 since a table may deal Nerts. A page that sends no
# `protocol` speaks 1 and reads Demon only.
PROTOCOL = 2


# --- HTTP bodies ----------------------------------------------------------------------


class CreateRoom(RoomOptions):
    name: Name
    # The host lists the room's finished matches on every visitor's home page; by default
    # only the people who played see them (docs/security.md, "Who sees which games").
    listed: bool = False
    # Open tables (docs/protocol.md): listed for strangers on this server, and the
    # creator's page language, shown in the list so strangers find a table they can read.
    open: bool = False
    language: Language = "en"


class SeatProof(_Strict):
    """A seat's token, shown to see the finished matches played from that seat."""

    token: Annotated[str, StringConstraints(min_length=1, max_length=100)]


class JoinRoom(_Strict):
    name: Name
    # "Play now" sent the page here: a seat in an open lobby, or nothing (409) rather than
    # a spectator's place at a table that filled or started meanwhile.
    seat_only: bool = False


class PracticeRoom(_Strict):
    """ "Play against bots": a room of one person and 1-7 bots whose countdown starts at once."""

    name: Name
    bots: Annotated[int, Field(ge=1, le=7)] = 3
    level: BotLevel = "medium"
    rounds: Annotated[int, Field(ge=1, le=20)] = 3
    game: GameName = "demon"
    house_rules: HouseRules | None = None


class SeatGrant(BaseModel):
    """Answer to create/join: the token is shown once and never broadcast."""

    code: str
    token: str
    you: str
    seat: int | None
    spectator: bool


AvoidCode = Annotated[str, StringConstraints(min_length=1, max_length=12, pattern=r"^[A-Za-z0-9]+$")]


class PlayNow(_Strict):
    """ "Play now": a seat at the best open lobby for this person, or a new open table
    of four that fills with bots of `level` at its `fill_at`."""

    name: Name
    level: BotLevel = "medium"
    language: Language = "en"
    game: GameName = "demon"
    # Another process's lobbies this press must not be sent to: the page names a table it
    # was sent to and could not sit at (full by then, or it was removed from it).
    avoid: Annotated[list[AvoidCode], Field(max_length=4)] = []


class PlayNowGrant(SeatGrant):
    """A seat from "Play now": a `SeatGrant` and when its lobby fills with bots (epoch ms;
    None when nobody waits for bots: the table started already, or is not a play-now one)."""

    fill_at: int | None


class PlayNowElsewhere(BaseModel):
    """ "Play now" found its lobby on another process: the page joins it there
    (`POST /api/rooms/{join}/join`, which the balancer routes by the code's letter)."""

    join: str


class NewGrip(_Strict):
    number: Annotated[int, Field(ge=0, le=2**63)] | None = None
    daily: bool = False
    passes: Literal[1, 3] | None = None
    winnable: bool = False  # a deal certified winnable; unlimited passes only, no number


class GripRequest(_Strict):
    op: Literal["action", "undo", "redo", "hint", "end"]
    action: dict[str, object] | None = None


GRIP_MAX_BATCH = 200  # the page sends at most 150 a request; a body stays under the 16 KB limit


class GripOp(_Strict):
    """One operation of a batch: what the page already did locally (a hint is no
    operation: it is asked apart, on the game as the server has it)."""

    op: Literal["action", "undo", "redo", "end"]
    action: dict[str, object] | None = None


class GripMoves(_Strict):
    """The operations the page played since the server's `seq` it last saw (`base`),
    in order: replayed by the server's engine all or nothing."""

    base: Annotated[int, Field(ge=0)]
    ops: Annotated[list[GripOp], Field(min_length=1, max_length=GRIP_MAX_BATCH)]
