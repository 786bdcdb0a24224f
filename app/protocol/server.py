"""Every server -> client WebSocket message and room event, as TypedDicts.

A TypedDict is a plain dict at run time, so building one costs what the dict literal it
replaces cost, and `encode` (orjson, `wire.dumps`) writes it unchanged: the classes here
exist for the reader and the type checker, and so that the shape of every message the
server sends is written down in one module, next to the client messages in
`messages.py`. The key order of each constructor call is the order on the wire, which is
what keeps the protocol byte-compatible (docs/protocol.md).

Nothing outside `app/protocol` writes a message dict literal: rooms and the socket
endpoint call the constructors below, and every message leaves through `encode`.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict, Union

from app.protocol.wire import dumps

# --- the public state (snapshot.state, the `room` event's state) -----------------------


class FoundationEntry(TypedDict):
    pile: NotRequired[int]  # in a `move` event; a snapshot's list is indexed by pile
    top: str
    seat: int
    count: int


class RoundView(TypedDict):
    seats: list[dict]  # the engine's seat views (app/demon/rules/round.py `seat_view`)
    foundations: list[FoundationEntry]
    stuck: list[int]
    absent: list[int]
    votes: list[int]
    cards_home: list[int]


class PublicState(TypedDict):
    code: str
    phase: str
    host: str | None
    options: dict
    players: list[dict]
    spectators: list[dict]
    round_no: int
    countdown_ends_in_ms: int | None
    time_left_ms: int | None
    history: list[dict]
    result: dict | None
    round: NotRequired[RoundView | None]  # absent from a `room` event, except after a rematch


# --- events (the `event` field of an `event` message) ----------------------------------


class RoomEvent(TypedDict):
    kind: Literal["room"]
    state: PublicState


class CountdownEvent(TypedDict):
    kind: Literal["countdown"]
    ends_in_ms: int


class RoundStartedEvent(TypedDict):
    kind: Literal["round_started"]
    round_no: int
    round: RoundView | None
    time_left_ms: int | None


class MoveEvent(TypedDict):
    kind: Literal["move"]
    seat: int
    action: dict
    engine: list[dict]
    seat_view: dict
    foundations: list[FoundationEntry]
    stuck: list[int]
    cards_home: list[int]


class VotesEvent(TypedDict):
    kind: Literal["votes"]
    votes: list[int]


class AbsentEvent(TypedDict):
    kind: Literal["absent"]
    absent: list[int]
    stuck: list[int]


class RoundEndedEvent(TypedDict):
    kind: Literal["round_ended"]
    result: dict


RoomEventBody = Union[RoomEvent, CountdownEvent, RoundStartedEvent, MoveEvent, VotesEvent,
                      AbsentEvent, RoundEndedEvent]


# --- messages --------------------------------------------------------------------------


class Welcome(TypedDict):
    type: Literal["welcome"]
    code: str
    you: str
    seat: int | None
    v: int
    epoch: str


class Snapshot(TypedDict):
    type: Literal["snapshot"]
    v: int
    state: PublicState


class Event(TypedDict):
    type: Literal["event"]
    v: int
    event: RoomEventBody


class Legal(TypedDict):
    type: Literal["legal"]
    v: int
    actions: list[dict]


class Ack(TypedDict):
    type: Literal["ack"]
    id: str
    v: int
    duplicate: NotRequired[bool]


class Rejected(TypedDict):
    type: Literal["rejected"]
    id: str
    code: str
    reason: str
    pile: NotRequired[int]  # race_lost only
    by_seat: NotRequired[int]
    by_name: NotRequired[str | None]
    duplicate: NotRequired[bool]


class Error(TypedDict):
    type: Literal["error"]
    code: str
    message: str


class Pong(TypedDict):
    type: Literal["pong"]


class EmoteShown(TypedDict):
    """Not an event: it has no `v`, is not in the replay window and is never saved."""

    type: Literal["emote"]
    player: str  # the sender's player id (stable for the room's life, unlike seats)
    emote: str


class CoachWhy(TypedDict):
    """Why the coach's play helps (app/demon/room/coach.py `reason`): a kind the page words,
    and the cards (all on view) it names."""

    kind: str
    card: NotRequired[str]
    onto: NotRequired[str]
    under: NotRequired[str]
    uncover: NotRequired[bool]


class Coach(TypedDict):
    """The answer to `coach` in a practice room: the next useful play (null: none) as of `v`."""

    type: Literal["coach"]
    v: int
    action: dict | None
    why: CoachWhy


ServerMessage = Union[Welcome, Snapshot, Event, Legal, Ack, Rejected, Error, Pong, EmoteShown, Coach]
Reply = Union[Ack, Rejected, Error, Pong, Coach]


def welcome(code: str, you: str, seat: int | None, v: int, epoch: str) -> Welcome:
    return Welcome(type="welcome", code=code, you=you, seat=seat, v=v, epoch=epoch)


def snapshot(v: int, state: PublicState) -> Snapshot:
    return Snapshot(type="snapshot", v=v, state=state)


def event(v: int, body: RoomEventBody) -> Event:
    return Event(type="event", v=v, event=body)


def legal(v: int, actions: list[dict]) -> Legal:
    return Legal(type="legal", v=v, actions=actions)


def ack(action_id: str, v: int) -> Ack:
    return Ack(type="ack", id=action_id, v=v)


def rejected(action_id: str, code: str, reason: str, **race: Any) -> Rejected:
    """`race`: `pile`, `by_seat`, `by_name` for a lost race, in that order."""
    return Rejected(type="rejected", id=action_id, code=code, reason=reason, **race)  # type: ignore[typeddict-item]


def duplicate(reply: Ack | Rejected) -> Ack | Rejected:
    """The first answer to an action id, again, marked as an answer to a resend."""
    return {**reply, "duplicate": True}  # type: ignore[return-value]


def error(code: str, message: str) -> Error:
    return Error(type="error", code=code, message=message)


def pong() -> Pong:
    return Pong(type="pong")


def emote(player: str, name: str) -> EmoteShown:
    return EmoteShown(type="emote", player=player, emote=name)


def coach(v: int, action: dict | None, why: CoachWhy) -> Coach:
    return Coach(type="coach", v=v, action=action, why=why)


def encode(message: ServerMessage | dict) -> str:
    """The one place a server message becomes text: one line of compact JSON."""
    return dumps(message)
