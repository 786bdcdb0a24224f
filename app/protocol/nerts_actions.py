"""A Nerts action on the wire: the pydantic models of its four shapes, and the message
field that turns them into the engine's actions (as `actions.py` does for Demon's).

The shapes (docs/protocol.md, "Nerts"): `draw`, `recycle`, `work` (onto work pile
`dst` from "nerts", "waste" or a work pile, `count` cards) and `foundation` (from the
same sources, onto pile `pile` or any, null). Shapes the engine refuses though the wire
allows them (two cards from the Nerts pile, a pile onto itself) validate to
`MalformedMove`, answered `rejected`/`illegal` by the room like Demon's.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

from app.nerts.rules.actions import ACTION_TYPES, Draw, NertsAction, Recycle, ToFoundation, ToWork
from app.protocol.actions import SEAT_FROM_TOKEN, engine_action_field

__all__ = ["NertsActionField"]

Source = Union[Literal["nerts", "waste"], Annotated[int, Field(ge=0, le=3)]]
WorkPile = Annotated[int, Field(ge=0, le=3)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class DrawAction(_Strict):
    type: Literal["draw"]

    def engine(self) -> NertsAction:
        return Draw(SEAT_FROM_TOKEN)


class RecycleAction(_Strict):
    type: Literal["recycle"]

    def engine(self) -> NertsAction:
        return Recycle(SEAT_FROM_TOKEN)


class WorkAction(_Strict):
    type: Literal["work"]
    src: Source
    dst: WorkPile
    count: Annotated[int, Field(ge=1, le=13)] = 1

    def engine(self) -> NertsAction:
        return ToWork(SEAT_FROM_TOKEN, self.src, self.dst, self.count)


class FoundationAction(_Strict):
    type: Literal["foundation"]
    src: Source
    pile: Annotated[int, Field(ge=0, le=63)] | None = None

    def engine(self) -> NertsAction:
        return ToFoundation(SEAT_FROM_TOKEN, self.src, self.pile)


WireAction = Annotated[Union[DrawAction, RecycleAction, WorkAction, FoundationAction], Field(discriminator="type")]

# The type of a Nerts room's `Action.action`: the Nerts engine action it validates to.
NertsActionField = engine_action_field(WireAction, ACTION_TYPES)
