"""One Demon room: the table, its players, the match, and its versioned event log.

This module is synchronous and knows nothing of sockets or asyncio: every method takes
the current time (`now`, monotonic seconds) and returns what happened as data, so room
logic is tested directly (tests/rooms) and the async layer (`hub.py`) only moves bytes.
The hub calls these methods one at a time on the event loop (a socket's message and a
bot's alike), which makes arrival order decide every race (Demon rule 14).

Versioning (lichess's model): every public change appends an event with the next
version `v` to a bounded history. A reconnecting client names the last `v` it saw and
gets the missed events, or a snapshot when it fell out of the window.
"""

from __future__ import annotations

import os
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from app.engine.demon import DemonRound, Played, action_from_json, action_to_json
from app.engine.errors import GameOver, IllegalAction, NotStarted, RaceLost
from app.engine.rng import SplitMix64, derive_seed
from app.protocol.wire import dumps
from app.rooms.bot_seat import BotSeat
from app.rooms.secrets_util import token_matches

MAX_SEATS = 8
MAX_SPECTATORS = 32
RECENT_ACTION_IDS = 256


class Phase(str, Enum):
    LOBBY = "lobby"
    COUNTDOWN = "countdown"
    PLAYING = "playing"
    ROUND_OVER = "round_over"
    MATCH_OVER = "match_over"


class RoomError(Exception):
    """A request the room refuses; `code` is machine-readable (docs/protocol.md)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Options:
    rounds: int = 3
    time_limit_s: int | None = None
    max_players: int = MAX_SEATS

    def to_json(self) -> dict:
        return {"rounds": self.rounds, "time_limit_s": self.time_limit_s, "max_players": self.max_players}


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
    recent: OrderedDict = field(default_factory=OrderedDict)  # action id -> reply dict
    bot: BotSeat | None = None  # a computer player (bots.py); it has no token and no socket

    def public(self) -> dict:
        return {"id": self.id, "name": self.name, "seat": self.seat, "colour": self.colour,
                "connected": self.connected, "left": self.left, "total": self.total,
                "bot": self.bot.level if self.bot is not None else None}


@dataclass
class Outcome:
    """What a room call produced: public events (already versioned) and a direct reply."""

    events: list[dict] = field(default_factory=list)
    reply: dict | None = None


@dataclass
class _LegalAnswer:
    """A seat's last legal actions and the engine objects they were computed from."""

    layout: Any
    foundations: tuple
    absent: frozenset
    plays: tuple
    actions: list[dict]


class Room:
    def __init__(self, code: str, options: Options, *, countdown_s: float = 3.0,
                 replay_window: int = 512, grace_s: float = 120.0,
                 test_seed: int | None = None, seed_source: SplitMix64 | None = None) -> None:
        self.code = code
        self.options = options
        self.countdown_s = countdown_s
        self.grace_s = grace_s
        self.test_seed = test_seed
        self._seeds = seed_source or SplitMix64(int.from_bytes(os.urandom(8), "big"))
        self.players: list[Player] = []  # seated, in seat order once a round starts
        self.spectators: list[Player] = []
        self.host: str | None = None
        self.phase = Phase.LOBBY
        self.round: DemonRound | None = None
        self.round_no = 0
        self.round_seed: int | None = None
        self.round_actions: list[dict] = []  # the round's log: engine actions and room steps
        self.round_step_ids: list[tuple[str, str, int] | None] = []  # (player, action id, v) per step
        self.cycled: set[int] = set()  # seats that have turned their whole stock over once
        self._legal_cache: dict[str, _LegalAnswer] = {}  # player id -> its last answer
        self._stuck_cache: tuple | None = None  # (foundations, seats, answer) of public_stuck
        self.round_initial: DemonRound | None = None
        self.countdown_ends: float | None = None
        self.round_deadline: float | None = None
        self.votes: set[int] = set()
        self.history: list[dict] = []  # finished rounds
        self.result: dict | None = None
        self.v = 0
        # The replay window, as the JSON text each event was sent as: text is what a
        # reconnecting client needs, and a few strings cost the garbage collector far
        # less than hundreds of nested dicts per room (docs/performance.md).
        self.log: deque[tuple[int, str]] = deque(maxlen=replay_window)
        self._next_player = 1
        self.created_at = time.time()
        self.last_active = time.monotonic()  # when somebody was last connected
        self.clock = time.monotonic  # injectable, so room tests control time

    # ----------------------------------------------------------------- membership

    def everyone(self) -> list[Player]:
        return self.players + self.spectators

    def player_by_token(self, token: str) -> Player | None:
        found = None
        for p in self.everyone():
            if token_matches(token, p.token_hash):  # compare every one: no early exit timing
                found = p
        return found

    def player_by_id(self, pid: str) -> Player | None:
        for group in (self.players, self.spectators):  # asked for every seat on every flush
            for p in group:
                if p.id == pid:
                    return p
        return None

    def _is_seated(self, player: Player) -> bool:
        """Holds a seat at the table (by identity: comparing Player dataclasses field by
        field is slow, and two players are never equal anyway)."""
        seat = player.seat
        return seat is not None and seat < len(self.players) and self.players[seat] is player

    def _seated(self) -> list[Player]:
        return [p for p in self.players if not p.left]

    def _free_colour(self) -> int:
        used = {p.colour for p in self.players if not p.left}
        return next(c for c in range(MAX_SEATS) if c not in used)

    def join(self, name: str, token_hash: bytes) -> Player:
        """Seat a newcomer if the table is between rounds and has room, else spectate."""
        player = Player(id=f"p{self._next_player}", name=name, token_hash=token_hash)
        self._next_player += 1
        between_rounds = self.phase in (Phase.LOBBY, Phase.ROUND_OVER, Phase.MATCH_OVER)
        if between_rounds and len(self._seated()) < self.options.max_players:
            self._seat(player)
        elif len(self.spectators) >= MAX_SPECTATORS:
            self._next_player -= 1
            raise RoomError("room_full", "This room is full.")
        else:
            self.spectators.append(player)
        if self.host is None:
            self.host = player.id
        return player

    def _seat(self, player: Player) -> None:
        player.colour = self._free_colour()
        player.seat = len(self.players)
        self.players.append(player)

    def connect(self, player: Player, now: float) -> Outcome:
        player.connected = True
        player.dropped_at = None
        self.last_active = now
        return Outcome(events=[self.room_event()])

    def disconnect(self, player: Player, now: float) -> Outcome:
        player.connected = False
        player.dropped_at = now
        self.last_active = now
        return Outcome(events=[self.room_event()])

    def leave(self, player: Player, now: float) -> Outcome:
        """Give up the seat for good. Mid-round the cards stay and still score."""
        out = Outcome()
        player.left = True
        player.connected = False
        if self.host == player.id:
            self._pass_host()
        if player in self.spectators:
            self.spectators.remove(player)
        elif self.phase in (Phase.LOBBY, Phase.COUNTDOWN, Phase.ROUND_OVER, Phase.MATCH_OVER):
            self._compact_seats()
        elif self.phase is Phase.PLAYING and self.round is not None and player.seat is not None:
            self._mark_absent(player.seat, out)
        out.events.append(self.room_event())
        self._check_vote(out)
        return out

    def _compact_seats(self) -> None:
        self.players = [p for p in self.players if not p.left]
        for i, p in enumerate(self.players):
            p.seat = i

    def _pass_host(self) -> None:
        """The host is always a person: with only bots left, the room has no host."""
        people = [p for p in self.players if not p.left and p.bot is None]
        candidates = [p for p in people if p.connected] or people or \
                     [p for p in self.spectators if not p.left]
        self.host = candidates[0].id if candidates else None

    # ----------------------------------------------------------------- bots

    def bots(self) -> list[Player]:
        """The computer players still at the table."""
        return [p for p in self.players if p.bot is not None and not p.left]

    def has_people(self) -> bool:
        """Somebody who is not a bot is still in the room (connected or not). Bots play
        only for people: in a room of bots alone they stop, and the room expires."""
        return any(p.bot is None and not p.left for p in self.everyone())

    def add_bot(self, player: Player, level: str, now: float) -> tuple[Outcome, Player]:
        """The host seats a computer player of `level` in a free seat, between rounds.

        A bot is a seat like any other (it plays through `act` and `vote`), with no token
        (its hash matches none) and no socket. It counts as connected for the table, since
        it is always there, but never for keeping the room alive (`is_idle`)."""
        self._require_host(player)
        if self.phase not in (Phase.LOBBY, Phase.ROUND_OVER, Phase.MATCH_OVER):
            raise RoomError("bad_phase", "Bots can only be added between rounds.")
        if len(self._seated()) >= self.options.max_players:
            raise RoomError("room_full", "Every seat is taken.")
        number = self._next_player
        seed = derive_seed(self.test_seed, number) if self.test_seed is not None else self._seeds.next_u64()
        try:
            seat = BotSeat.new(level, seed)
        except ValueError as err:
            raise RoomError("invalid", "Unknown bot level.") from err
        taken = {p.name for p in self.everyone() if not p.left}
        name = next(f"Bot {k}" for k in range(1, MAX_SEATS + 2) if f"Bot {k}" not in taken)
        bot = Player(id=f"p{number}", name=name, token_hash=b"", connected=True, bot=seat)
        self._next_player += 1
        self._seat(bot)
        self.last_active = now
        return Outcome(events=[self.room_event()]), bot

    def remove_bot(self, player: Player, bot_id: str, now: float) -> Outcome:
        """The host takes a computer player off the table, between rounds."""
        self._require_host(player)
        if self.phase not in (Phase.LOBBY, Phase.ROUND_OVER, Phase.MATCH_OVER):
            raise RoomError("bad_phase", "Bots can only be removed between rounds.")
        bot = self.player_by_id(bot_id)
        if bot is None or bot.bot is None or bot.left:
            raise RoomError("invalid", "There is no such bot in this room.")
        bot.left = True
        bot.connected = False
        self._compact_seats()
        return Outcome(events=[self.room_event()])

    # ----------------------------------------------------------------- host controls

    def _require_host(self, player: Player) -> None:
        if player.id != self.host:
            raise RoomError("not_host", "Only the host can do that.")

    def set_options(self, player: Player, options: Options) -> Outcome:
        self._require_host(player)
        if self.phase is not Phase.LOBBY:
            raise RoomError("bad_phase", "Options can only be changed in the lobby.")
        if options.max_players < len(self._seated()):
            raise RoomError("invalid", "More players are already seated than that.")
        self.options = options
        return Outcome(events=[self.room_event()])

    def start(self, player: Player, now: float) -> Outcome:
        self._require_host(player)
        if self.phase not in (Phase.LOBBY, Phase.ROUND_OVER):
            raise RoomError("bad_phase", "A round cannot start now.")
        if self.phase is Phase.ROUND_OVER and self.round_no >= self.options.rounds:
            raise RoomError("bad_phase", "The match is over: start a rematch.")
        staying = len(self._seated())
        waiting = len([p for p in self.spectators if not p.left])
        if min(self.options.max_players, staying + waiting) < 2:
            raise RoomError("bad_phase", "At least two seated players are needed.")
        self._compact_seats()
        self._seat_waiting_spectators()
        self.phase = Phase.COUNTDOWN
        self.countdown_ends = now + self.countdown_s
        self.result = None
        out = Outcome()
        out.events.append(self.room_event())
        out.events.append(self._emit({"kind": "countdown", "ends_in_ms": int(self.countdown_s * 1000)}))
        return out

    def _seat_waiting_spectators(self) -> None:
        for spectator in list(self.spectators):
            if len(self.players) >= self.options.max_players:
                break
            self.spectators.remove(spectator)
            self._seat(spectator)

    def begin_round(self, now: float) -> Outcome:
        """The signal (rule 4): deal and open the round for everyone at once."""
        if self.phase is not Phase.COUNTDOWN:
            return Outcome()
        self.countdown_ends = None
        if len(self.players) < 2:  # somebody left during the countdown
            self.phase = Phase.LOBBY if self.round_no == 0 else Phase.ROUND_OVER
            return Outcome(events=[self.room_event()])
        self.round_no += 1
        self.round_seed = self.test_seed if self.test_seed is not None else self._seeds.next_u64()
        dealt = DemonRound.deal(self.round_seed, len(self.players))
        self.round_initial = dealt
        self.round = dealt.start()
        self.round_actions = []
        self.round_step_ids = []
        self.cycled = set()
        self.votes = set()
        self.phase = Phase.PLAYING
        self.countdown_ends = None
        limit = self.options.time_limit_s
        self.round_deadline = now + limit if limit else None
        out = Outcome()
        for p in self.players:  # a seat already away past its grace is out from the start
            if not p.connected and p.dropped_at is not None and now - p.dropped_at >= self.grace_s:
                self.round, _ = self.round.with_absent(p.seat)
                self._log_step({"type": "absent", "seat": p.seat, "absent": True})
        out.events.append(self.room_event())
        out.events.append(self._emit({"kind": "round_started", "round_no": self.round_no,
                                      "round": self.round_view(), "time_left_ms": self._time_left_ms(now)}))
        self._after_round_change(out)
        return out

    def next_round(self, player: Player, now: float) -> Outcome:
        if self.phase is not Phase.ROUND_OVER:
            raise RoomError("bad_phase", "There is no finished round to follow.")
        return self.start(player, now)

    def rematch(self, player: Player, now: float) -> Outcome:
        self._require_host(player)
        if self.phase is not Phase.MATCH_OVER:
            raise RoomError("bad_phase", "The match is not over.")
        for p in self.players:
            p.total = 0
        self.history = []
        self.round_no = 0
        self.round = None
        self.round_initial = None
        self.round_seed = None
        self.round_actions = []
        self.round_step_ids = []
        self.cycled = set()
        self.result = None
        self.phase = Phase.LOBBY
        self._compact_seats()
        self._seat_waiting_spectators()
        return Outcome(events=[self.room_event()])

    # ----------------------------------------------------------------- play

    def act(self, player: Player, action_id: str, action: dict, now: float) -> Outcome:
        """Apply one Demon action; the reply is `ack` or `rejected`, never an exception."""
        if action_id in player.recent:
            return Outcome(reply={**player.recent[action_id], "duplicate": True})
        out = Outcome()
        try:
            out.reply = self._apply(player, action_id, action, out)
        except RaceLost as race:
            winner = self._player_at_seat(race.by_seat)
            out.reply = {"type": "rejected", "id": action_id, "code": "race_lost", "reason": str(race),
                         "pile": race.pile, "by_seat": race.by_seat,
                         "by_name": winner.name if winner else None}
        except RoomError as err:
            out.reply = {"type": "rejected", "id": action_id, "code": err.code, "reason": err.message}
        except NotStarted as err:
            out.reply = {"type": "rejected", "id": action_id, "code": "not_started", "reason": str(err)}
        except GameOver as err:
            out.reply = {"type": "rejected", "id": action_id, "code": "round_over", "reason": str(err)}
        except IllegalAction as err:
            out.reply = {"type": "rejected", "id": action_id, "code": "illegal", "reason": str(err)}
        player.recent[action_id] = out.reply
        while len(player.recent) > RECENT_ACTION_IDS:
            player.recent.popitem(last=False)
        return out

    def _apply(self, player: Player, action_id: str, action: dict, out: Outcome) -> dict:
        if not self._is_seated(player):
            raise RoomError("spectator", "Spectators cannot play.")
        if self.phase in (Phase.LOBBY, Phase.COUNTDOWN) or self.round is None:
            raise NotStarted("The round has not started yet.")
        if self.phase is not Phase.PLAYING:
            raise GameOver("The round is over.")
        if player.seat in self.round.absent:
            raise RoomError("illegal", "You are out of this round.")
        engine_action = action_from_json({**action, "seat": player.seat})
        new_round, engine_events = self.round.apply(engine_action)
        if action.get("type") == "recycle":  # only once it is applied: a refused one saw nothing
            self.cycled.add(player.seat)
        self.round = new_round
        out.events.append(self._emit({
            "kind": "move", "seat": player.seat, "action": action,
            "engine": [e.to_json() for e in engine_events],
            "seat_view": new_round.seat_view(player.seat),
            "foundations": [self._foundation_entry(e.pile, new_round.foundations[e.pile])
                            for e in engine_events if isinstance(e, Played)],
            "stuck": self.public_stuck(),
            "cards_home": self._cards_home(new_round),
        }))
        move_v = self.v
        self._log_step(action_to_json(engine_action), (player.id, action_id, move_v))
        self._after_round_change(out)
        return {"type": "ack", "id": action_id, "v": move_v}

    def vote(self, player: Player, end: bool) -> Outcome:
        if self.phase is not Phase.PLAYING or not self._is_seated(player):
            raise RoomError("bad_phase", "There is no round you can vote in.")
        if end:
            self.votes.add(player.seat)
        else:
            self.votes.discard(player.seat)
        out = Outcome(events=[self._emit({"kind": "votes", "votes": sorted(self.votes)})])
        self._check_vote(out)
        return out

    def tick(self, now: float) -> Outcome:
        """Deadlines: the round's time limit and the reconnection grace period."""
        out = Outcome()
        host = self.player_by_id(self.host) if self.host else None
        if (host is not None and not host.connected and host.dropped_at is not None
                and now - host.dropped_at >= self.grace_s):
            self._pass_host()
            if self.host != host.id:
                out.events.append(self.room_event())
        if self.phase is Phase.PLAYING and self.round_deadline is not None and now >= self.round_deadline:
            self._finish("time", out)
        if self.phase is Phase.PLAYING and self.round is not None:
            expired = [p for p in self.players
                       if not p.connected and p.dropped_at is not None and p.seat not in self.round.absent
                       and now - p.dropped_at >= self.grace_s]
            for p in expired:
                self._mark_absent(p.seat, out)
            if expired:
                out.events.append(self.room_event())
                self._check_vote(out)
        return out

    def _voters(self) -> set[int]:
        """Seats that must agree (rule 17): everyone still in the round. A player whose
        connection dropped keeps their seat, and their say, until the grace period ends
        (then they are absent); so a flaky connection or a server restart never decides a
        vote."""
        assert self.round is not None
        return {p.seat for p in self.players if not p.left and p.seat not in self.round.absent}

    def _check_vote(self, out: Outcome) -> None:
        if self.phase is not Phase.PLAYING or self.round is None or not self.votes:
            return
        voters = self._voters()
        if voters and voters <= self.votes:
            self._finish("vote", out)

    def _finish(self, reason: str, out: Outcome) -> None:
        assert self.round is not None
        self.round, _events = self.round.finish(reason)
        self._log_step({"type": "finish", "reason": reason})
        self._after_round_change(out)

    def _mark_absent(self, seat: int, out: Outcome) -> None:
        assert self.round is not None
        self.round, _events = self.round.with_absent(seat)
        self._log_step({"type": "absent", "seat": seat, "absent": True})
        self.votes.discard(seat)
        out.events.append(self._emit({"kind": "absent", "absent": sorted(self.round.absent),
                                      "stuck": self.public_stuck()}))
        self._after_round_change(out)

    def _after_round_change(self, out: Outcome) -> None:
        """Close the round when the engine says it ended (Demon!, all stuck, vote, time)."""
        if self.round is None or self.round.end is None or self.phase is not Phase.PLAYING:
            return
        scores = self.round.scores()
        by_id = {}
        for p in self.players:
            by_id[p.id] = scores[p.seat]
            p.total += scores[p.seat]
        winner = self._player_at_seat(self.round.end.winner) if self.round.end.winner is not None else None
        entry = {"round_no": self.round_no, "reason": self.round.end.reason,
                 "winner": winner.id if winner else None, "scores": by_id}
        self.history.append(entry)
        match_over = self.round_no >= self.options.rounds
        self.phase = Phase.MATCH_OVER if match_over else Phase.ROUND_OVER
        self.round_deadline = None
        totals = {p.id: p.total for p in self.players}
        best = max(totals.values())
        self.result = {**entry, "totals": totals, "match_over": match_over,
                       "winners": [pid for pid, t in totals.items() if t == best] if match_over else []}
        out.events.append(self._emit({"kind": "round_ended", "result": self.result}))
        out.events.append(self.room_event())

    def _log_step(self, step: dict, ids: tuple[str, str, int] | None = None) -> None:
        self.round_actions.append(step)
        self.round_step_ids.append(ids)

    def _player_at_seat(self, seat: int | None) -> Player | None:
        return next((p for p in self.players if p.seat == seat), None)

    # ----------------------------------------------------------------- views

    def legal_for(self, player: Player) -> list[dict]:
        """The seat's legal actions as protocol JSON. The hub asks once per flush for
        every seat of a room that changed, and sends only answers that are new objects,
        so the answer is reused: while the seat's layout and the foundations are the
        same objects (engine states are immutable), and, when only the foundations
        changed, while the seat's foundation plays (a few pairs, cheap to get) are the
        same."""
        if self.phase is not Phase.PLAYING or self.round is None or not self._is_seated(player):
            return []
        rnd = self.round
        seat = player.seat
        layout, foundations, absent = rnd.seats[seat], rnd.foundations, rnd.absent
        cached = self._legal_cache.get(player.id)
        plays = None
        if cached is not None and cached.layout is layout and cached.absent is absent:
            if cached.foundations is foundations:
                return cached.actions
            plays = rnd.foundation_plays(seat)
            if plays == cached.plays:
                cached.foundations = foundations
                return cached.actions
        actions = []
        for a in rnd.legal_actions(seat):
            j = action_to_json(a)
            j.pop("seat", None)
            actions.append(j)
        if plays is None:
            plays = rnd.foundation_plays(seat)
        self._legal_cache[player.id] = _LegalAnswer(layout, foundations, absent, plays, actions)
        return actions

    def public_stuck(self) -> list[int]:
        """Seats known to be stuck (rule 16), shown only for seats that have been through
        their whole stock once. The answer depends on the order of the face-down stock;
        before every stock card has been on view, telling it would leak that order."""
        rnd = self.round
        if rnd is None:
            return []
        seats, cached = rnd.seats, self._stuck_cache
        if cached is not None and cached[0] is rnd.foundations and len(cached[1]) == len(seats):
            # Same foundations: only a seat whose layout changed (the mover) can have
            # changed its answer, or whether it has seen its whole stock (`cycled` grows
            # only by a recycle, which changes that seat's layout; a new round changes
            # every seat's).
            changed = [s for s in range(len(seats)) if seats[s] is not cached[1][s]]
            keep = [s for s in cached[2] if s not in changed]
            seen = [s for s in changed if s in self.cycled or not seats[s].stock]
            answer = sorted(keep + list(rnd.stuck_seats(among=seen))) if seen else keep
        else:
            seen_all = self.cycled | {s for s, seat in enumerate(seats) if not seat.stock}
            answer = sorted(rnd.stuck_seats(among=seen_all)) if seen_all else []
        self._stuck_cache = (rnd.foundations, seats, answer)
        return list(answer)

    @staticmethod
    def _foundation_entry(index: int, pile) -> dict:
        card, owner = pile[-1]
        return {"pile": index, "top": str(card), "seat": owner, "count": len(pile)}

    @staticmethod
    def _cards_home(rnd: DemonRound) -> list[int]:
        return list(rnd.foundation_counts())

    def round_view(self) -> dict | None:
        if self.round is None:
            return None
        r = self.round
        return {
            "seats": [r.seat_view(s) for s in range(len(r.seats))],
            "foundations": [self._foundation_entry(i, pile) for i, pile in enumerate(r.foundations)],
            "stuck": self.public_stuck(),
            "absent": sorted(r.absent),
            "votes": sorted(self.votes),
            "cards_home": self._cards_home(r),
        }

    def _time_left_ms(self, now: float) -> int | None:
        if self.round_deadline is None:
            return None
        return max(0, int((self.round_deadline - now) * 1000))

    def public_state(self, now: float, *, with_round: bool = True) -> dict:
        absent = self.round.absent if self.round is not None and self.phase is Phase.PLAYING else frozenset()
        state = {
            "code": self.code,
            "phase": self.phase.value,
            "host": self.host,
            "options": self.options.to_json(),
            "players": [{**p.public(), "absent": p.seat in absent, "voted": p.seat in self.votes}
                        for p in self.players],
            "spectators": [{"id": p.id, "name": p.name, "connected": p.connected} for p in self.spectators],
            "round_no": self.round_no,
            "countdown_ends_in_ms": (max(0, int((self.countdown_ends - now) * 1000))
                                     if self.countdown_ends is not None else None),
            "time_left_ms": self._time_left_ms(now),
            "history": self.history,
            "result": self.result,
        }
        if with_round:
            state["round"] = self.round_view()
        return state

    def room_event(self) -> dict:
        return self._emit({"kind": "room", "state": self.public_state(self.clock(), with_round=False)})

    def _emit(self, event: dict) -> dict:
        self.v += 1
        message = {"type": "event", "v": self.v, "event": event}
        self.log.append((self.v, dumps(message)))
        return message

    def event_text(self, message: dict) -> str:
        """The JSON text of an event this room emitted (serialised once, in `_emit`)."""
        first = self.log[0][0] if self.log else None
        if first is not None and first <= message["v"] <= self.v:
            v, text = self.log[message["v"] - first]
            if v == message["v"]:
                return text
        return dumps(message)

    def events_since(self, v: int) -> list[str] | None:
        """The JSON texts of the events after version `v`, or None when they are no
        longer all in the window."""
        if v > self.v:
            return None
        if v == self.v:
            return []
        if not self.log or self.log[0][0] > v + 1:
            return None
        return [text for ev_v, text in self.log if ev_v > v]

    def is_idle(self, now: float, ttl_s: float) -> bool:
        """No person connected for `ttl_s`: the hub may remove the room. Bots do not
        count: a room of bots alone is as empty as a room of nobody."""
        if any(p.connected and p.bot is None for p in self.everyone()):
            return False
        return now - self.last_active >= ttl_s

    def to_public_summary(self) -> dict:
        return {"code": self.code, "phase": self.phase.value,
                "players": [{"id": p.id, "seat": p.seat, "name": p.name, "connected": p.connected,
                             "bot": p.bot.level if p.bot is not None else None}
                            for p in self.players],
                "max_players": self.options.max_players, "spectators": len(self.spectators)}

