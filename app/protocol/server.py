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

from typing import Literal, NotRequired, TypedDict, Union

from app.protocol.wire import dumps

# JSON the engine writes (a seat view, an engine event): its keys are the engine's
# (app/demon/rules/round.py `seat_view`, app/common/events.py `event_to_json`), so this
# module names it rather than restating it.
EngineJson = dict[str, object]


# --- Demon actions as the server writes them (legal actions, a move, the coach) --------


class DrawJson(TypedDict):
    type: Literal["draw"]


class RecycleJson(TypedDict):
    type: Literal["recycle"]


class TableauJson(TypedDict):
    type: Literal["tableau"]
    src: int | str
    dst: int
    count: int


class FoundationJson(TypedDict):
    type: Literal["foundation"]
    src: int | str
    pile: int | None


# The engine's canonical action JSON without the seat (`app/protocol/actions.py`).
ActionJson = Union[DrawJson, RecycleJson, TableauJson, FoundationJson]


# --- the public state (snapshot.state, the `room` event's state) -----------------------


class OptionsJson(TypedDict):
    rounds: int
    time_limit_s: int | None
    max_players: int
    game: NotRequired[str]  # absent for Demon (its bytes are as before Nerts): "nerts"
    house_rules: NotRequired[dict[str, object]]  # the game's house rules, with `game`


class PlayerPublic(TypedDict):
    id: str
    name: str
    seat: int | None
    colour: int | None
    connected: bool
    left: bool
    total: int
    bot: str | None  # its level; null for a person


class SeatedPlayer(PlayerPublic):
    absent: bool
    voted: bool


class SpectatorPublic(TypedDict):
    id: str
    name: str
    connected: bool
    next_round: bool  # takes a seat at the next deal


class RoundResult(TypedDict):
    """One finished round, as the match's history keeps it."""

    round_no: int
    reason: str
    winner: str | None  # player id
    scores: dict[str, int]  # player id -> the round's score


class MatchResult(RoundResult):
    """The latest round's result with the match's totals (`result`, `round_ended`)."""

    totals: dict[str, int]
    match_over: bool
    winners: list[str]


class FoundationEntry(TypedDict):
    pile: NotRequired[int]  # in a `move` event; a snapshot's list is indexed by pile
    top: str
    seat: int
    count: int


class RoundView(TypedDict):
    seats: list[EngineJson]  # the engine's seat views (app/demon/rules/round.py `seat_view`)
    foundations: list[FoundationEntry]
    stuck: list[int]
    absent: list[int]
    votes: list[int]
    cards_home: list[int]
    bots_finish: NotRequired[bool]  # only when true: the person let the bots finish the round
    stalled: NotRequired[bool]  # Nerts only: a stall (N13) was played and no card went home since


class PublicState(TypedDict):
    code: str
    phase: str
    host: str | None
    options: OptionsJson
    players: list[SeatedPlayer]
    spectators: list[SpectatorPublic]
    round_no: int
    countdown_ends_in_ms: int | None
    time_left_ms: int | None
    history: list[RoundResult]
    result: MatchResult | None
    round: NotRequired[RoundView | None]  # absent from a `room` event, except after a rematch
    daily: NotRequired[str]  # a daily race's room only: its day (YYYY-MM-DD); docs/daily.md
    # Open tables (docs/protocol.md): present only at a table that was ever open (a
    # play-now one), so the bytes of every other table are what they were before.
    open: NotRequired[bool]  # listed for strangers (false: it was, and the host closed it)
    fill_at: NotRequired[int | None]  # epoch ms: a play-now lobby fills with bots and starts


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
    action: ActionJson
    engine: list[EngineJson]
    seat_view: EngineJson
    foundations: list[FoundationEntry]
    stuck: list[int]
    cards_home: list[int]


class VotesEvent(TypedDict):
    kind: Literal["votes"]
    votes: list[int]
    bots_finish: NotRequired[bool]  # only when true: the person let the bots finish the round


class AbsentEvent(TypedDict):
    kind: Literal["absent"]
    absent: list[int]
    stuck: list[int]


class RoundEndedEvent(TypedDict):
    kind: Literal["round_ended"]
    result: MatchResult


class StallEvent(TypedDict):
    """Nerts: everyone was stuck, so every listed seat turned its waste under its stock
    and moved one card to the bottom (N13); each waste is now empty."""

    kind: Literal["stall"]
    seats: list[int]
    stock_counts: list[int]


RoomEventBody = Union[
    RoomEvent, CountdownEvent, RoundStartedEvent, MoveEvent, VotesEvent, AbsentEvent, RoundEndedEvent, StallEvent
]


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
    actions: list[ActionJson]


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
    margin_ms: NotRequired[int]  # race_lost only, when the winning play's time is known
    duplicate: NotRequired[bool]


class RaceWon(TypedDict):
    """To the winner of a race only, not an event (no `v`): whom it beat, on which pile,
    and by how long on the server's receive clock."""

    type: Literal["race_won"]
    pile: int
    over_seat: int
    over_name: str
    margin_ms: int


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
    """Why the coach's play helps (app/demon/hub/coach.py `reason`): a kind the page words,
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
    action: ActionJson | None
    why: CoachWhy


ServerMessage = Union[Welcome, Snapshot, Event, Legal, Ack, Rejected, Error, Pong, EmoteShown, Coach, RaceWon]
Reply = Union[Ack, Rejected, Error, Pong, Coach]


def welcome(code: str, you: str, seat: int | None, v: int, epoch: str) -> Welcome:
    return Welcome(type="welcome", code=code, you=you, seat=seat, v=v, epoch=epoch)


def snapshot(v: int, state: PublicState) -> Snapshot:
    return Snapshot(type="snapshot", v=v, state=state)


def event(v: int, body: RoomEventBody) -> Event:
    return Event(type="event", v=v, event=body)


def legal(v: int, actions: list[ActionJson]) -> Legal:
    return Legal(type="legal", v=v, actions=actions)


def ack(action_id: str, v: int) -> Ack:
    return Ack(type="ack", id=action_id, v=v)


def rejected(action_id: str, code: str, reason: str) -> Rejected:
    return Rejected(type="rejected", id=action_id, code=code, reason=reason)


def race_lost(
    action_id: str, code: str, reason: str, pile: int, by_seat: int, by_name: str | None, margin_ms: int | None = None
) -> Rejected:
    """A rejection that names who won the race and where, and by how long when known
    (keys in this order)."""
    reply = Rejected(
        type="rejected", id=action_id, code=code, reason=reason, pile=pile, by_seat=by_seat, by_name=by_name
    )
    if margin_ms is not None:
        reply["margin_ms"] = margin_ms
    return reply


def race_won(pile: int, over_seat: int, over_name: str, margin_ms: int) -> RaceWon:
    return RaceWon(type="race_won", pile=pile, over_seat=over_seat, over_name=over_name, margin_ms=margin_ms)


def duplicate(reply: Ack | Rejected) -> Ack | Rejected:
    """The first answer to an action id, again, marked as an answer to a resend (a
    copy: the remembered answer stays as it was first sent)."""
    again = reply.copy()
    again["duplicate"] = True
    return again


def error(code: str, message: str) -> Error:
    return Error(type="error", code=code, message=message)


def pong() -> Pong:
    return Pong(type="pong")


def emote(player: str, name: str) -> EmoteShown:
    return EmoteShown(type="emote", player=player, emote=name)


def coach(v: int, action: ActionJson | None, why: CoachWhy) -> Coach:
    return Coach(type="coach", v=v, action=action, why=why)


def encode(message: ServerMessage) -> str:
    """The one place a server message becomes text: one line of compact JSON."""
    return dumps(message)
