"""Demon as a `RaceGame`: the names the server reads, bound to `app/demon/rules`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from app.common.cards import Card
from app.common.events import Event
from app.demon.rules import bot
from app.demon.rules.actions import ACTION_TYPES, ToFoundation, action_from_json, action_to_json
from app.demon.rules.events import Played
from app.demon.rules.record import demon_initial, make_demon_record
from app.demon.rules.round import DemonRound
from app.demon.rules.view import seat_view
from app.protocol import messages as m
from app.racing.game import BotRules, RaceGame, RaceRound

__all__ = ["DEMON"]


def _house_rules(data: Mapping[str, Any] | None) -> None:
    """Demon has no house rules: its rules are the one variant the rules page states."""
    if data:
        raise ValueError("Demon has no house rules")


def _deal(seed: int, players: int, _house: object) -> RaceRound:
    return cast(RaceRound, DemonRound.deal(seed, players))


def _from_json(data: Mapping[str, Any]) -> RaceRound:
    return cast(RaceRound, DemonRound.from_json(data))


def _foundation_card(rnd: RaceRound, seat: int, action: Any) -> Card | None:
    if not isinstance(action, ToFoundation):
        return None
    layout = cast(DemonRound, rnd).seats[seat]
    src = action.src
    return layout.waste[-1] if isinstance(src, str) else layout.tableau[src].up[-1]


def _no_notices(_rnd: RaceRound, _events: Sequence[Event]) -> list[dict[str, Any]]:
    return []


def _make_record(
    initial: RaceRound, steps: Sequence[Mapping[str, Any]], times: Sequence[float | None] | None
) -> dict[str, Any]:
    return make_demon_record(cast(DemonRound, initial), steps, times=times)


DEMON = RaceGame(
    name="demon",
    protocol=1,
    house_rules=_house_rules,
    house_rules_json=lambda _house: None,
    deal=_deal,
    round_from_json=_from_json,
    action_from_json=action_from_json,
    action_to_json=action_to_json,
    action_types=ACTION_TYPES,
    foundation_card=_foundation_card,
    played_event=Played,
    notices=_no_notices,
    view_extras=lambda _rnd: {},
    make_record=_make_record,
    record_initial=lambda record: cast(RaceRound, demon_initial(record)),
    client_messages=m.client_message,
    action_message=m.Action,
    bots=BotRules(
        levels=bot.LEVELS,
        seat_view=seat_view,
        decide_from_view=bot.decide,
        level_think_time=bot.think_time,
        memory_type=bot.BotMemory,
        memory_from_json=bot.BotMemory.from_json,
    ),
)
