"""What a room shows: its public state, the round's public view, the lobby summary.

Views are built here, at the boundary, from the room's parts: a seat view has counts
for face-down cards and the stock and at most the top three waste cards, so no hidden
card ever reaches a message (docs/protocol.md). The room calls these; the hub sends what
they return. Their key order is the wire's (app/protocol/server.py). They read a room
through `ShownRoom`, what the table shows, so this module needs nothing of `Room`
itself (which imports it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NotRequired, Protocol, TypedDict

from app.common.cards import Card
from app.demon.room.phases import Op, Phase, allows
from app.demon.room.seating import Door, Player, Seating
from app.protocol import server as out
from app.racing import RaceGame, RaceRound


class ShownOptions(Protocol):
    @property
    def max_players(self) -> int: ...

    @property
    def game(self) -> str: ...

    def to_json(self) -> out.OptionsJson: ...


class ShownRoom(Protocol):
    """What `public_state` and `summary` read of a room (`Room` is one)."""

    @property
    def code(self) -> str: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def host(self) -> str | None: ...
    @property
    def options(self) -> ShownOptions: ...
    @property
    def seating(self) -> Seating: ...
    @property
    def players(self) -> list[Player]: ...
    @property
    def spectators(self) -> list[Player]: ...
    @property
    def round(self) -> RaceRound | None: ...
    @property
    def votes(self) -> set[int]: ...
    @property
    def round_no(self) -> int: ...
    @property
    def daily(self) -> str | None: ...
    @property
    def countdown_ends(self) -> float | None: ...
    @property
    def round_deadline(self) -> float | None: ...
    @property
    def history(self) -> list[out.RoundResult]: ...
    @property
    def result(self) -> out.MatchResult | None: ...
    @property
    def door(self) -> Door: ...
    @property
    def created_at(self) -> float: ...

    def round_view(self) -> out.RoundView | None: ...


class SummaryPlayer(TypedDict):
    id: str
    seat: int | None
    name: str
    connected: bool
    bot: str | None


class RoomSummary(TypedDict):
    """`GET /api/rooms/{code}` (an HTTP answer, not a socket message)."""

    code: str
    game: str  # "demon" or "nerts": a newcomer with the link knows what is played
    phase: str
    players: list[SummaryPlayer]
    max_players: int
    spectators: int
    free_seats: int


def foundation_entry(index: int, pile: Sequence[tuple[Card, int]]) -> out.FoundationEntry:
    card, owner = pile[-1]
    return out.FoundationEntry(pile=index, top=str(card), seat=owner, count=len(pile))


def round_view(
    rnd: RaceRound, stuck: list[int], votes: set[int], bots_finish: bool = False, game: RaceGame | None = None
) -> out.RoundView:
    view = out.RoundView(
        seats=[rnd.seat_view(s) for s in range(len(rnd.seats))],
        foundations=[foundation_entry(i, pile) for i, pile in enumerate(rnd.foundations)],
        stuck=stuck,
        absent=sorted(rnd.absent),
        votes=sorted(votes),
        cards_home=list(rnd.foundation_counts()),
    )
    if bots_finish:
        view["bots_finish"] = True
    if game is not None:
        view.update(game.view_extras(rnd))  # type: ignore[typeddict-item]  # the game's own keys (Nerts' `stalled`)
    return view


def ms_until(deadline: float | None, now: float) -> int | None:
    return None if deadline is None else max(0, int((deadline - now) * 1000))


def public_state(room: ShownRoom, now: float, *, with_round: bool) -> out.PublicState:
    rnd = room.round  # its absent seats show while it is in play
    absent = rnd.absent if rnd is not None and allows(room.phase, Op.END_ROUND) else frozenset()
    seated_next = room.seating.seated_next(room.options.max_players) if room.spectators else set()
    state = out.PublicState(
        code=room.code,
        phase=room.phase.value,
        host=room.host,
        options=room.options.to_json(),
        players=[
            out.SeatedPlayer(**p.public(), absent=p.seat in absent, voted=p.seat in room.votes) for p in room.players
        ],
        spectators=[
            out.SpectatorPublic(id=p.id, name=p.name, connected=p.connected, next_round=p.id in seated_next)
            for p in room.spectators
        ],
        round_no=room.round_no,
        countdown_ends_in_ms=ms_until(room.countdown_ends, now),
        time_left_ms=ms_until(room.round_deadline, now),
        history=room.history,
        result=room.result,
    )
    if with_round:
        state["round"] = room.round_view()
    door = room.door  # its keys only at a table that was ever open: Demon's bytes stay as they were
    if door.ever_open:
        state["open"] = door.open
    if door.play_now:
        fill_at = door.fill_at if room.phase is Phase.LOBBY else None
        state["fill_at"] = int(fill_at * 1000) if fill_at is not None else None
    if room.daily is not None:  # a daily race's room: the page offers no rematch (docs/daily.md)
        state["daily"] = room.daily
    return state


class TableRow(TypedDict):
    """One open table in `GET /api/tables` (docs/protocol.md, "Open tables"): what a
    stranger needs to choose, and never a token, an address or a player id."""

    code: str
    game: str
    house_rules: NotRequired[dict[str, object]]  # Nerts only, as in the room's options
    players: int  # people seated
    bots: int
    max_players: int
    started: bool  # a round is on (or between rounds): newcomers watch
    language: str
    host: str
    play_now: bool
    fill_at: int | None  # epoch ms


def table_row(room: ShownRoom) -> TableRow | None:
    """The table as the open-tables list shows it, or None when it is not listed there:
    closed, or a lobby with no free seat (nobody could sit down)."""
    door = room.door
    if not door.open:
        return None
    seated = room.seating.seated()
    lobby = room.phase is Phase.LOBBY
    if lobby and len(seated) >= room.options.max_players:
        return None
    host = room.seating.by_id(room.host) if room.host else None
    bots = sum(1 for p in seated if p.bot is not None)
    row = TableRow(
        code=room.code,
        game=room.options.game,
        players=len(seated) - bots,
        bots=bots,
        max_players=room.options.max_players,
        started=not lobby,
        language=door.language,
        host=host.name if host is not None else "",
        play_now=door.play_now,
        fill_at=int(door.fill_at * 1000) if door.fill_at is not None and lobby else None,
    )
    house = room.options.to_json().get("house_rules")
    if house is not None:
        row["house_rules"] = house
    return row


def summary(room: ShownRoom) -> RoomSummary:
    """`GET /api/rooms/{code}`: enough to decide whether to join."""
    return RoomSummary(
        code=room.code,
        game=room.options.game,
        phase=room.phase.value,
        players=[
            SummaryPlayer(
                id=p.id, seat=p.seat, name=p.name, connected=p.connected, bot=p.bot.level if p.bot is not None else None
            )
            for p in room.players
        ],
        max_players=room.options.max_players,
        spectators=len(room.spectators),
        # seats a newcomer could still take (at once between rounds, else at the next
        # deal), after those already waiting for one: 0 means they would only watch
        free_seats=max(0, room.options.max_players - len(room.seating.seated()) - len(room.seating.waiting())),
    )
