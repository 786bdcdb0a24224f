"""Nerts as a `RaceGame`: the names the server reads, bound to `app/nerts/rules`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from app.common.cards import Card
from app.common.events import Event
from app.nerts.rules import bot
from app.nerts.rules.actions import ACTION_TYPES, ToFoundation, action_from_json, action_to_json
from app.nerts.rules.bot_view import seat_view
from app.nerts.rules.events import Played, Stalled
from app.nerts.rules.options import NertsOptions
from app.nerts.rules.record import make_nerts_record, nerts_initial
from app.nerts.rules.round import NertsRound
from app.protocol import messages as m
from app.racing.game import BotRules, RaceGame, RaceRound

__all__ = ["NERTS"]


def _house_rules(data: Mapping[str, Any] | None) -> NertsOptions:
    """H2-H4 from the wire or a saved room (OptionsError, a ValueError, when off)."""
    return NertsOptions.from_json(data or {})


def _house_rules_json(house: Any) -> dict[str, Any]:
    return cast(NertsOptions, house).to_json()


def _deal(seed: int, players: int, house: Any) -> RaceRound:
    return cast(RaceRound, NertsRound.deal(seed, players, cast(NertsOptions, house)))


def _from_json(data: Mapping[str, Any]) -> RaceRound:
    return cast(RaceRound, NertsRound.from_json(data))


def _foundation_card(rnd: RaceRound, seat: int, action: Any) -> Card | None:
    if not isinstance(action, ToFoundation):
        return None
    return cast(NertsRound, rnd).source_card(seat, action.src)


def _notices(_rnd: RaceRound, events: Sequence[Event]) -> list[dict[str, Any]]:
    """N13's stall changes every present seat's stock and waste, not only the mover's:
    the table is told in an event of its own (docs/protocol.md, "Nerts")."""
    return [
        {"kind": "stall", "seats": list(e.seats), "stock_counts": list(e.stock_counts)}
        for e in events
        if isinstance(e, Stalled)
    ]


def _view_extras(rnd: RaceRound) -> dict[str, Any]:
    return {"stalled": cast(NertsRound, rnd).stalled}


def _make_record(
    initial: RaceRound, steps: Sequence[Mapping[str, Any]], times: Sequence[float | None] | None
) -> dict[str, Any]:
    return make_nerts_record(cast(NertsRound, initial), steps, times=times)


NERTS = RaceGame(
    name="nerts",
    protocol=2,
    house_rules=_house_rules,
    house_rules_json=_house_rules_json,
    deal=_deal,
    round_from_json=_from_json,
    action_from_json=action_from_json,
    action_to_json=action_to_json,
    action_types=ACTION_TYPES,
    foundation_card=_foundation_card,
    played_event=Played,
    notices=_notices,
    view_extras=_view_extras,
    make_record=_make_record,
    record_initial=lambda record: cast(RaceRound, nerts_initial(record)),
    client_messages=m.nerts_client_message,
    action_message=m.NertsAction,
    bots=BotRules(
        levels=bot.LEVELS,
        seat_view=seat_view,
        decide_from_view=bot.decide,
        level_think_time=bot.think_time,
        memory_type=bot.BotMemory,
        memory_from_json=bot.BotMemory.from_json,
    ),
)
