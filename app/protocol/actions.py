"""A racing game's action on the wire, and the one door from it to the engine's action and back.

A client sends an action as JSON without a seat (the seat comes from its token, never
from the client). The pydantic models below check its shape; once they have, the
validated message holds the engine's own action (`app.demon.rules.actions`), so the room
applies what the message holds and nothing parses an action twice. A bot, which already
has an engine action, hands that to the same field (`Action(action=...)`): it meets the
same checks of its message and its id, without a trip through JSON.

Until the room binds it to the sender's seat (`bind_seat`), an action from the wire
carries seat `SEAT_FROM_TOKEN`.

The engine refuses a few shapes the wire allows (a tableau move onto its own pile,
several cards from the waste). Such a message is still a well-formed request with an
id, and the room answers it as before: `rejected`, code `illegal`, after the same
checks of phase and seat as any move. So it validates to `MalformedMove`, which the
room raises where it would apply the action.

Demon's wire models are here; Nerts' are in `nerts_actions.py`, built the same way
(`engine_action_field`). Which a socket's message is read with is the room's game's
(`app.racing`).

Records and storage keep the engine's canonical JSON (`action_to_json`/
`action_from_json`, with the seat); `public_action` is that JSON as the wire shows it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Annotated, Any, Literal, Union, cast

from pydantic import BaseModel, ConfigDict, Field, GetCoreSchemaHandler, GetPydanticSchema, ValidatorFunctionWrapHandler
from pydantic_core import CoreSchema, core_schema

from app.common.errors import MalformedAction
from app.demon.rules.actions import ACTION_TYPES, DemonAction, Draw, Recycle, ToFoundation, ToTableau
from app.nerts.rules.actions import NertsAction
from app.protocol.server import ActionJson

SEAT_FROM_TOKEN = 0  # the seat of an action from the wire until the room binds it

Source = Union[Literal["waste"], Annotated[int, Field(ge=0, le=6)]]
Pile = Annotated[int, Field(ge=0, le=6)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class DrawAction(_Strict):
    type: Literal["draw"]

    def engine(self) -> DemonAction:
        return Draw(SEAT_FROM_TOKEN)


class RecycleAction(_Strict):
    type: Literal["recycle"]

    def engine(self) -> DemonAction:
        return Recycle(SEAT_FROM_TOKEN)


class TableauAction(_Strict):
    type: Literal["tableau"]
    src: Source
    dst: Pile
    count: Annotated[int, Field(ge=1, le=13)] = 1

    def engine(self) -> DemonAction:
        return ToTableau(SEAT_FROM_TOKEN, self.src, self.dst, self.count)


class FoundationAction(_Strict):
    type: Literal["foundation"]
    src: Source
    pile: Annotated[int, Field(ge=0, le=63)] | None = None

    def engine(self) -> DemonAction:
        return ToFoundation(SEAT_FROM_TOKEN, self.src, self.pile)


WireAction = Annotated[Union[DrawAction, RecycleAction, TableauAction, FoundationAction], Field(discriminator="type")]


@dataclass(frozen=True, slots=True)
class MalformedMove:
    """A well-formed message whose action the engine will not build (see the module's
    docstring): the room rejects it as `illegal` with `reason`."""

    reason: str

    def error(self) -> MalformedAction:
        return MalformedAction(self.reason)


# An engine action of either game, as a validated `Action` message holds it (the
# room's game decides which: app/racing), or a well-formed message the engine refused.
PlayerAction = Union[DemonAction, NertsAction, MalformedMove]


def engine_action_field(wire: Any, types: tuple[type, ...]) -> Any:
    """The type of a message field that holds a game's engine action: `wire` (the
    discriminated union of the game's wire models, each with `engine()`) checks the
    shape, so errors read exactly as the models'; then the engine action, or
    `MalformedMove`. A value that already is one of `types` (a bot's) passes as it is."""

    def to_engine(value: object, handler: ValidatorFunctionWrapHandler) -> PlayerAction:
        if isinstance(value, types):  # a bot's: built by the engine, so well formed
            return cast(PlayerAction, value)
        model = handler(value)
        try:
            return cast(PlayerAction, model.engine())
        except MalformedAction as err:
            return MalformedMove(str(err))

    def schema(_source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_wrap_validator_function(to_engine, handler.generate_schema(wire))

    return Annotated[PlayerAction, GetPydanticSchema(schema)]


# The type of `Action.action`: the Demon engine action a message validates to.
DemonActionField = engine_action_field(WireAction, ACTION_TYPES)


def bind_seat(action: DemonAction | NertsAction, seat: int) -> DemonAction | NertsAction:
    """`action` as played from `seat` (a move's every step counts: this is
    `dataclasses.replace` without its introspection of the fields on every call)."""
    if action.seat == seat:
        return action
    kind = type(action)
    others = _OTHER_FIELDS.get(kind) or _other_fields(kind)
    return kind(seat, *others(action))


# Per engine action class: a getter of its fields after `seat` (its first), in order.
_OTHER_FIELDS: dict[type, Callable[[Any], tuple[Any, ...]]] = {}


def _other_fields(kind: type) -> Callable[[Any], tuple[Any, ...]]:
    names = [f.name for f in fields(kind)]
    assert names[0] == "seat", f"{kind.__name__}: the seat comes first"
    getters = [attrgetter(name) for name in names[1:]]
    get: Callable[[Any], tuple[Any, ...]] = lambda action: tuple(g(action) for g in getters)  # noqa: E731
    _OTHER_FIELDS[kind] = get
    return get


def public_action(step: Mapping[str, object]) -> ActionJson:
    """An action's canonical JSON (`action_to_json`) as the wire shows it: without the
    seat, the other keys in their order."""
    return cast(ActionJson, {key: value for key, value in step.items() if key != "seat"})
