"""`RaceGame`: what the room, the hub, the bots, the records and the replays need of a
racing layout's rules, as one value per game (Demon, Nerts).

Why a value of functions rather than a base class: each game's rules stay pure and
shaped by their own numbered rules (`app/demon/rules`, `app/nerts/rules`); they share a
shape (a round with `apply`, `finish`, `with_absent`, seat views, scores), not an
ancestor. What differs — how a round is dealt, an action read from the wire or a record,
what a bot sees and decides, which events mean a foundation play or a stall — is named
here once, and the server reads it from the room's game. A third layout is one more
rules folder and one more `RaceGame` (`app/racing/__init__.py`), not edits across the
server.

`RaceRound` is the round's shape as the room uses it (both `DemonRound` and `NertsRound`
have it); the room holds it without knowing which game dealt it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

from pydantic import TypeAdapter

from app.common.cards import Card
from app.common.events import Event
from app.common.rng import SplitMix64

__all__ = ["BotChoice", "BotRules", "FoundationPlay", "RaceEnd", "RaceGame", "RaceRound"]


class RaceEnd(Protocol):
    """How a round ended (each game's `RoundEnd`)."""

    @property
    def reason(self) -> Any: ...  # a str enum: its `.value` is the wire's and the record's
    @property
    def winner(self) -> int | None: ...


class FoundationPlay(Protocol):
    """The engine's event of a card landing on a foundation (`RaceGame.played_event`)."""

    @property
    def seat(self) -> int: ...
    @property
    def card(self) -> Card: ...
    @property
    def pile(self) -> int: ...


class SeatLayout(Protocol):
    @property
    def stock(self) -> Sequence[Card]: ...


class RaceRound(Protocol):
    """A round of a racing layout as the room drives it (immutable: every change returns
    a new round and the engine's events)."""

    @property
    def seats(self) -> Sequence[SeatLayout]: ...
    @property
    def foundations(self) -> Sequence[Sequence[tuple[Card, int]]]: ...
    @property
    def absent(self) -> frozenset[int]: ...
    @property
    def started(self) -> bool: ...
    @property
    def end(self) -> RaceEnd | None: ...
    @property
    def seed(self) -> int | None: ...

    def start(self) -> RaceRound: ...
    def apply(self, action: Any) -> tuple[RaceRound, Sequence[Event]]: ...
    def finish(self, reason: Any) -> tuple[RaceRound, Sequence[Event]]: ...
    def with_absent(self, seat: object, absent: bool = True) -> tuple[RaceRound, Sequence[Event]]: ...
    def legal_actions(self, seat: object) -> tuple[Any, ...]: ...
    def stuck_seats(self, among: Iterable[int] | None = None) -> frozenset[int]: ...
    def foundation_counts(self) -> tuple[int, ...]: ...
    def scores(self) -> tuple[int, ...]: ...
    def seat_view(self, seat: object) -> dict[str, Any]: ...
    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class BotChoice:
    """A bot's decision in any game: the engine action to play (None: nothing now) and
    whether it wants the round to end (the games' `Decision`s have these two fields)."""

    action: Any
    vote_end: bool


@dataclass(frozen=True)
class BotRules:
    """A game's computer players: levels by name ("easy", "medium", "hard"), the view of a
    seat they decide from (no hidden card: the type holds none), the decision, the think
    time, and the memory a bot keeps between decisions."""

    levels: Mapping[str, Any]
    seat_view: Callable[..., Any]  # (round, seat, *, stuck) -> the game's seat view
    decide_from_view: Callable[[Any, Any, Any, SplitMix64], Any]  # (view, level, memory, rng) -> Decision
    level_think_time: Callable[[Any, SplitMix64], float]  # (level, rng) -> seconds
    memory_type: type
    memory_from_json: Callable[[Any], Any]

    def decide(self, rnd: RaceRound, seat: int, stuck: bool, level: str, memory: Any, rng: SplitMix64) -> BotChoice:
        """What the bot of `level` at `seat` does now, from that seat's view only."""
        view = self.seat_view(rnd, seat, stuck=stuck)
        decision = self.decide_from_view(view, self.levels[level], memory, rng)
        return BotChoice(decision.action, decision.vote_end)

    def think_time(self, level: str, rng: SplitMix64) -> float:
        return self.level_think_time(self.levels[level], rng)


@dataclass(frozen=True)
class RaceGame:
    """One racing layout's rules, as the server uses them. Every field is a pure function
    of the game's rules package (or a value from it)."""

    name: str  # "demon", "nerts": the room's options, records' header, the wire
    protocol: int  # the least `hello.protocol` a page needs to read this game's table
    # The house rules: checked JSON -> the value the deal takes (None for a game without).
    house_rules: Callable[[Mapping[str, Any] | None], Any]
    house_rules_json: Callable[[Any], dict[str, Any] | None]
    deal: Callable[[int, int, Any], RaceRound]  # (seed, players, house rules), not yet started
    round_from_json: Callable[[Mapping[str, Any]], RaceRound]
    action_from_json: Callable[[Any], Any]
    action_to_json: Callable[[Any], dict[str, Any]]
    action_types: tuple[type, ...]
    # The card a foundation play takes from `src` of `seat` (for the race's margin), or
    # None when the action is not a foundation play.
    foundation_card: Callable[[RaceRound, int, Any], Card | None]
    played_event: type  # the engine's `FoundationPlay` event class

    # The room events the engine's events call for beyond the move itself (Nerts' stall).
    notices: Callable[[RaceRound, Sequence[Event]], list[dict[str, Any]]]
    view_extras: Callable[[RaceRound], dict[str, Any]]  # keys the round view adds
    make_record: Callable[[RaceRound, Sequence[Mapping[str, Any]], Sequence[float | None] | None], dict[str, Any]]
    record_initial: Callable[[Mapping[str, Any]], RaceRound]  # a record's checked first position
    # The socket's client messages, with the `action` field of this game.
    client_messages: TypeAdapter[Any]
    action_message: type  # the `Action` message class whose field holds this game's action
    bots: BotRules

    def foundation_plays(self, events: Iterable[Event]) -> list[FoundationPlay]:
        """The events of `events` that put a card on a foundation."""
        played = self.played_event
        return [cast(FoundationPlay, e) for e in events if isinstance(e, played)]
