"""Who is in a room: players in seat order, spectators, card-back colours, the host.

Player ids (`p1`, `p2`…) are given once and never reused, so an id means the same person
for the life of the room; seats are per round, renumbered 0..n-1 when seats are
compacted (between rounds, docs/architecture.md). The room decides *when* somebody may
sit (its phase); this class only keeps the list straight. It saves and restores itself
(`to_json`, `from_json`), so the store never reaches into it.

`Door` is who may come in: whether strangers see the table in the open-tables list
(docs/protocol.md, "Open tables"), a "Play now" lobby's bots-at time, and the people the
host removed, who may not come back.
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict

from app.demon.room.bot_seat import BotSeat, BotSeatJson
from app.demon.room.errors import BadPhase, BadSeat, Invalid, RoomFull
from app.protocol import server as out
from app.support.secrets_util import token_matches

MAX_SEATS = 8
MAX_SPECTATORS = 32


class PlayerJson(TypedDict):
    id: str
    name: str
    token_hash: str  # hex
    seat: int | None
    colour: int | None
    left: bool
    total: int
    bot: NotRequired[BotSeatJson]  # level, memory and random state: a restored bot carries on


class SeatingJson(TypedDict):
    players: list[PlayerJson]
    spectators: list[PlayerJson]
    host: str | None
    next_player: int


@dataclass
class Player:
    id: str
    name: str
    token_hash: bytes
    seat: int | None = None  # index in the current round; None for a spectator
    colour: int | None = None
    connected: bool = False
    left: bool = False
    dropped_at: float | None = None  # monotonic time the last socket closed
    total: int = 0
    bot: BotSeat | None = None  # a computer player (app/demon/hub/bot_driver.py); no token, no socket

    def public(self) -> out.PlayerPublic:
        return out.PlayerPublic(
            id=self.id,
            name=self.name,
            seat=self.seat,
            colour=self.colour,
            connected=self.connected,
            left=self.left,
            total=self.total,
            bot=self.bot.level if self.bot is not None else None,
        )

    def to_json(self) -> PlayerJson:
        d = PlayerJson(
            id=self.id,
            name=self.name,
            token_hash=self.token_hash.hex(),
            seat=self.seat,
            colour=self.colour,
            left=self.left,
            total=self.total,
        )
        if self.bot is not None:
            d["bot"] = self.bot.to_json()
        return d

    @classmethod
    def from_json(cls, d: PlayerJson, now: float) -> Player:
        """People come back disconnected (their grace period restarts); a bot is back at once."""
        saved_bot = d.get("bot")
        bot = BotSeat.from_json(saved_bot) if saved_bot else None
        present = bot is not None and not d["left"]
        return cls(
            id=d["id"],
            name=d["name"],
            token_hash=bytes.fromhex(d["token_hash"]),
            seat=d["seat"],
            colour=d["colour"],
            left=d["left"],
            total=d["total"],
            connected=present,
            dropped_at=None if bot is not None else now,
            bot=bot,
        )


def name_key(name: str) -> str:
    """What makes two names look the same to a person: case and compatibility forms
    (full-width letters, ligatures) do not count."""
    return unicodedata.normalize("NFKC", name).casefold()


class Seating:
    def __init__(self) -> None:
        self.players: list[Player] = []  # seated, in seat order once a round starts
        self.spectators: list[Player] = []
        self.host: str | None = None
        self.next_number = 1  # of the next player id

    # ------------------------------------------------------------ looking people up

    def everyone(self) -> list[Player]:
        return self.players + self.spectators

    def by_token(self, token: str) -> Player | None:
        found = None
        for p in self.everyone():
            if token_matches(token, p.token_hash):  # compare every one: no early exit timing
                found = p
        return found

    def by_id(self, pid: str) -> Player | None:
        for group in (self.players, self.spectators):  # asked for every seat on every flush
            for p in group:
                if p.id == pid:
                    return p
        return None

    def at_seat(self, seat: int | None) -> Player | None:
        return next((p for p in self.players if p.seat == seat), None)

    def is_seated(self, player: Player) -> bool:
        """Holds a seat at the table (by identity: comparing Player dataclasses field by
        field is slow, and two players are never equal anyway)."""
        seat = player.seat
        return seat is not None and seat < len(self.players) and self.players[seat] is player

    def seated(self) -> list[Player]:
        """The seated players who have not left."""
        return [p for p in self.players if not p.left]

    def waiting(self) -> list[Player]:
        return [p for p in self.spectators if not p.left]

    def bots(self) -> list[Player]:
        """The computer players still at the table."""
        return [p for p in self.players if p.bot is not None and not p.left]

    def has_people(self) -> bool:
        """Somebody who is not a bot is still in the room (connected or not)."""
        return any(p.bot is None and not p.left for p in self.everyone())

    def person_connected(self) -> bool:
        return any(p.connected and p.bot is None for p in self.everyone())

    # ------------------------------------------------------------ changing the table

    def new_player(
        self, name: str, token_hash: bytes, *, connected: bool = False, bot: BotSeat | None = None
    ) -> Player:
        player = Player(id=f"p{self.next_number}", name=name, token_hash=token_hash, connected=connected, bot=bot)
        self.next_number += 1
        return player

    def admit(self, name: str, token_hash: bytes, may_sit: bool, max_players: int) -> Player:
        """A newcomer, under a name nobody here has (`distinct_name`): seated when the
        room lets them sit now and a seat is free, else watching; the host if the room
        has none. RoomFull when even the spectators' places are taken."""
        name = self.distinct_name(name)
        if may_sit and len(self.seated()) < max_players:
            player = self.new_player(name, token_hash)
            self.sit(player)
        elif len(self.spectators) >= MAX_SPECTATORS:
            raise RoomFull("This room is full.")
        else:
            player = self.new_player(name, token_hash)
            self.watch(player)
        if self.host is None:
            self.host = player.id
        return player

    def seat_bot(self, level: str, seed: int) -> Player:
        """A computer player of `level` in the next seat (Invalid: no such level). A bot
        has no token (its hash matches none) and no socket; it counts as connected for
        the table, since it is always there."""
        try:
            seat = BotSeat.new(level, seed)
        except ValueError as err:
            raise Invalid("Unknown bot level.") from err
        bot = self.new_player(self.bot_name(), b"", connected=True, bot=seat)
        self.sit(bot)
        return bot

    def remove_bot(self, bot_id: str) -> None:
        bot = self.by_id(bot_id)
        if bot is None or bot.bot is None or bot.left:
            raise Invalid("There is no such bot in this room.")
        bot.left = True
        bot.connected = False
        self.compact()

    def leave(self, player: Player, renumber: bool) -> bool:
        """`player` is gone for good; seats are numbered again only when no round is in
        play (mid-round, seats are the round's indices and the cards stay). True when
        they held a seat (rather than watched)."""
        player.left = True
        player.connected = False
        if self.host == player.id:
            self.pass_host()
        if player in self.spectators:
            self.remove_spectator(player)
            return False
        if renumber:
            self.compact()
        return True

    def sit(self, player: Player) -> None:
        """At the end of the table, with the first card-back colour nobody present has."""
        used = {p.colour for p in self.players if not p.left}
        player.colour = next(c for c in range(MAX_SEATS) if c not in used)
        player.seat = len(self.players)
        self.players.append(player)

    def watch(self, player: Player) -> None:
        self.spectators.append(player)

    def remove_spectator(self, player: Player) -> None:
        self.spectators.remove(player)

    def compact(self) -> None:
        """Drop those who left and number the seats 0..n-1 again (between rounds only:
        mid-round, seats are the round's indices)."""
        self.players = [p for p in self.players if not p.left]
        for i, p in enumerate(self.players):
            p.seat = i

    def seat_waiting(self, max_players: int) -> None:
        """Spectators who joined mid-round take the free seats, in order of arrival."""
        for spectator in list(self.spectators):
            if len(self.players) >= max_players:
                break
            self.spectators.remove(spectator)
            self.sit(spectator)

    def seated_next(self, max_players: int) -> set[str]:
        """The ids of the spectators who take a seat when the next round is dealt (what
        `seat_waiting` will do then): the first to arrive, as many as there are free
        seats. The others keep watching."""
        free = max(0, max_players - len(self.seated()))
        return {p.id for p in self.waiting()[:free]}

    def pass_host(self) -> None:
        """The host is always a person: with only bots left, the room has no host."""
        people = [p for p in self.players if not p.left and p.bot is None]
        candidates = [p for p in people if p.connected] or people or self.waiting()
        self.host = candidates[0].id if candidates else None

    def _taken_names(self) -> set[str]:
        return {name_key(p.name) for p in self.everyone() if not p.left}

    def distinct_name(self, name: str) -> str:
        """`name`, or `name (2)`, `name (3)`… when somebody in the room already goes by
        it: two seats called "Ann" (or "Ann" and "ann") cannot be told apart in the
        result, the vote or a lost race's "too late: Ann was first"."""
        taken = self._taken_names()
        if name_key(name) not in taken:
            return name
        return next(
            f"{name} ({k})" for k in range(2, MAX_SEATS + MAX_SPECTATORS + 2) if name_key(f"{name} ({k})") not in taken
        )

    def bot_name(self) -> str:
        taken = self._taken_names()
        return next(f"Bot {k}" for k in range(1, MAX_SEATS + MAX_SPECTATORS + 2) if name_key(f"Bot {k}") not in taken)

    # ------------------------------------------------------------ saving

    def to_json(self) -> SeatingJson:
        return SeatingJson(
            players=[p.to_json() for p in self.players],
            spectators=[p.to_json() for p in self.spectators],
            host=self.host,
            next_player=self.next_number,
        )

    @classmethod
    def from_json(cls, data: SeatingJson, now: float) -> Seating:
        seating = cls()
        seating.players = [Player.from_json(d, now) for d in data["players"]]
        seating.spectators = [Player.from_json(d, now) for d in data["spectators"]]
        seating.host = data["host"]
        seating.next_number = data["next_player"]
        return seating


# ------------------------------------------------------------------ the door


class DoorJson(TypedDict):
    open: bool
    language: str
    play_now: bool
    fill_at: float | None  # epoch seconds
    fill_level: str
    removed: list[str]  # `address_mark`s of the people the host removed
    ever_open: NotRequired[bool]  # older files have none: as `open`


def address_mark(code: str, address: str) -> str:
    """What a room keeps of a client address: a hash keyed by the room's code, enough to
    refuse a removed person at this table and useless for anything else (the same
    address gives another mark at every other table, and the address itself is never
    stored)."""
    return hashlib.sha256(f"{code}\0{address}".encode()).hexdigest()[:32]


@dataclass
class Door:
    """Who may come in. `open`: listed for strangers (`GET /api/tables`). A "Play now"
    table (`play_now`) fills its empty seats with bots of `fill_level` and starts at
    `fill_at` (wall-clock epoch seconds, so the time survives a restart; None once it
    filled, started or was closed). `removed`: the marks of people the host removed;
    `marks`: each person's mark by player id, for this run of the server only (never
    saved: after a restart, removing a person bars their seat but not their address).
    `ever_open`: the table was open once, so its view says `"open": false` once closed
    (a page merges a `room` event's keys into what it holds: a key that merely went
    away would leave it believing the table open)."""

    open: bool = False
    ever_open: bool = False
    language: str = "en"
    play_now: bool = False
    fill_at: float | None = None
    fill_level: str = "medium"
    removed: set[str] = field(default_factory=set)
    marks: dict[str, str] = field(default_factory=dict)

    def set_open(self, is_open: bool) -> None:
        """Closing a play-now table cancels its bots: nobody new will come to be waited for."""
        self.open = is_open
        self.ever_open = self.ever_open or is_open
        if not is_open:
            self.fill_at = None

    def refuses(self, mark: str) -> bool:
        return mark in self.removed

    def removable(self, seating: Seating, seat: int, host: Player, in_lobby: bool) -> Player:
        """The person at `seat`, whom the host may remove now (the lobby only: mid-match,
        a seat holds cards that score); BadPhase or BadSeat otherwise."""
        if not in_lobby:
            raise BadPhase("Players can only be removed in the lobby.")
        target = seating.at_seat(seat)
        if target is None or target.left or target.bot is not None or target is host:
            raise BadSeat("No player you can remove sits there.")
        return target

    def bar(self, player: Player) -> None:
        """`player` was removed: their address (when this run saw it) may not join again.
        Their token opens nothing already: they left the room."""
        mark = self.marks.pop(player.id, None)
        if mark is not None:
            self.removed.add(mark)

    def is_default(self) -> bool:
        return not self.ever_open and not self.play_now and not self.removed and self.language == "en"

    def to_json(self) -> DoorJson:
        return DoorJson(
            open=self.open,
            language=self.language,
            play_now=self.play_now,
            fill_at=self.fill_at,
            fill_level=self.fill_level,
            removed=sorted(self.removed),
            ever_open=self.ever_open,
        )

    @classmethod
    def from_json(cls, d: DoorJson) -> Door:
        return cls(
            open=d["open"],
            language=d["language"],
            play_now=d["play_now"],
            fill_at=d["fill_at"],
            fill_level=d["fill_level"],
            removed=set(d["removed"]),
            ever_open=d.get("ever_open", d["open"]),
        )
