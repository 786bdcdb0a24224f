"""A socket's text read as a client message, with a short way for the in-round `action`.

pydantic's full validation of an `action` message (`messages.Action`: the message, the
discriminated union of the game's four action shapes, the wrap validator that builds the
engine's action) costs about 17 µs a move on the server, the largest single part of a
move outside the engine. Nearly every message of a race is that one shape, so
`read_client_message` first tries a check by hand of exactly the shape the models
accept: the same JSON parser (`pydantic_core.from_json`, jiter, as `validate_json`
uses; a duplicate key's last value wins in both), the exact keys, exact types (a JSON
integer only: no bool, no float such as `1.0`), the same bounds, and the same engine
action (or `MalformedMove`) built the same way. It builds the same message object
(`model_construct`'s attributes), which `==` the validated one.

Anything the short way is not sure of, it leaves alone: the text goes to pydantic
(`adapter.validate_json`) as before, so every refusal is pydantic's, with its exact
error. The short way therefore never refuses; it only accepts, and only what pydantic
accepts (tests/rooms/test_fast_action.py checks both ways on many thousands of
generated and mutated messages, for both games).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, TypeAdapter
from pydantic_core import from_json

from app.common.errors import MalformedAction
from app.demon.rules import actions as demon
from app.nerts.rules import actions as nerts
from app.protocol import messages as m
from app.protocol.actions import SEAT_FROM_TOKEN, MalformedMove, PlayerAction

__all__ = ["read_client_message"]

_ID_MAX = 40  # `Action.id`: 1-40 characters
_MESSAGE_KEYS = frozenset({"type", "id", "action"})
_MOVE_KEYS = frozenset({"type", "src", "dst"})  # tableau (Demon) / work (Nerts), `count` optional
_MOVE_KEYS_COUNT = _MOVE_KEYS | {"count"}
_FOUNDATION_KEYS = frozenset({"type", "src"})  # `pile` optional
_FOUNDATION_KEYS_PILE = _FOUNDATION_KEYS | {"pile"}


def _small_int(value: object, low: int, high: int) -> bool:
    """A JSON integer within [low, high] (strict: a bool or a float is not one)."""
    return type(value) is int and low <= value <= high


def _build(kind: Any, *args: object) -> PlayerAction | None:
    """The engine action, or `MalformedMove` where the engine refuses the shape (as
    `actions.engine_action_schema` does); None (ask pydantic) on anything else."""
    try:
        return kind(SEAT_FROM_TOKEN, *args)  # type: ignore[no-any-return]
    except MalformedAction as err:
        return MalformedMove(str(err))
    except Exception:
        return None


def _demon_action(action: dict[str, Any]) -> PlayerAction | None:
    """`actions.WireAction`'s four shapes, checked by hand; None when unsure."""
    kind = action.get("type")
    keys = action.keys()
    if kind == "draw":
        return demon.Draw(SEAT_FROM_TOKEN) if len(action) == 1 else None
    if kind == "recycle":
        return demon.Recycle(SEAT_FROM_TOKEN) if len(action) == 1 else None
    src = action.get("src")
    if not (src == "waste" and type(src) is str) and not _small_int(src, 0, 6):
        return None
    if kind == "tableau":
        count = action.get("count", 1)
        if not (_MOVE_KEYS <= keys <= _MOVE_KEYS_COUNT) or not _small_int(count, 1, 13):
            return None
        dst = action["dst"]
        return _build(demon.ToTableau, src, dst, count) if _small_int(dst, 0, 6) else None
    if kind == "foundation":
        pile = action.get("pile")
        if not (_FOUNDATION_KEYS <= keys <= _FOUNDATION_KEYS_PILE) or not (pile is None or _small_int(pile, 0, 63)):
            return None
        return _build(demon.ToFoundation, src, pile)
    return None


def _nerts_action(action: dict[str, Any]) -> PlayerAction | None:
    """`nerts_actions.WireAction`'s four shapes, checked by hand; None when unsure."""
    kind = action.get("type")
    keys = action.keys()
    if kind == "draw":
        return nerts.Draw(SEAT_FROM_TOKEN) if len(action) == 1 else None
    if kind == "recycle":
        return nerts.Recycle(SEAT_FROM_TOKEN) if len(action) == 1 else None
    src = action.get("src")
    if not ((src == "nerts" or src == "waste") and type(src) is str) and not _small_int(src, 0, 3):
        return None
    if kind == "work":
        count = action.get("count", 1)
        if not (_MOVE_KEYS <= keys <= _MOVE_KEYS_COUNT) or not _small_int(count, 1, 13):
            return None
        dst = action["dst"]
        return _build(nerts.ToWork, src, dst, count) if _small_int(dst, 0, 3) else None
    if kind == "foundation":
        pile = action.get("pile")
        if not (_FOUNDATION_KEYS <= keys <= _FOUNDATION_KEYS_PILE) or not (pile is None or _small_int(pile, 0, 63)):
            return None
        return _build(nerts.ToFoundation, src, pile)
    return None


def fast_action(adapter: TypeAdapter[Any], text: str) -> m.Action | None:
    """The `action` message `text` holds, when it is certainly one the adapter
    (`messages.client_message` or `nerts_client_message`) accepts as it is; else None."""
    if adapter is m.client_message:
        model: type[m.Action] = m.Action
        read = _demon_action
    elif adapter is m.nerts_client_message:
        model, read = m.NertsAction, _nerts_action
    else:
        return None
    try:
        data = from_json(text)
    except ValueError:
        return None
    if type(data) is not dict or len(data) != 3 or data.keys() != _MESSAGE_KEYS or data["type"] != "action":
        return None
    msg_id, action = data["id"], data["action"]
    if type(msg_id) is not str or not 1 <= len(msg_id) <= _ID_MAX or type(action) is not dict:
        return None
    engine = read(action)
    if engine is None:
        return None
    return _message(model, msg_id, engine)


_set = object.__setattr__


def _message(model: type[m.Action], msg_id: str, engine: PlayerAction) -> m.Action:
    """The message object pydantic's validation would build (the attributes of
    `BaseModel.model_construct`, set directly: model_construct's generality costs
    2 µs, more than the rest of the short way)."""
    msg = model.__new__(model)
    _set(msg, "__dict__", {"type": "action", "id": msg_id, "action": engine})
    _set(msg, "__pydantic_fields_set__", {"type", "id", "action"})
    _set(msg, "__pydantic_extra__", None)
    _set(msg, "__pydantic_private__", None)
    return msg


def _check_model(model: type[BaseModel]) -> None:
    """What `_message` leaves out must not exist: no private attributes, no post-init
    hook, no extra fields kept, and exactly the three fields it sets."""
    config: dict[str, Any] = dict(model.model_config)
    assert not model.__private_attributes__ and not model.__pydantic_post_init__, model
    assert config.get("extra") == "forbid" and list(model.model_fields) == ["type", "id", "action"], model


_check_model(m.Action)
_check_model(m.NertsAction)


def read_client_message(adapter: TypeAdapter[Any], text: str) -> Any:
    """`adapter.validate_json(text)`, the same answer (a message, or the same
    `ValidationError`), the common `action` message read the short way."""
    msg = fast_action(adapter, text)
    return msg if msg is not None else adapter.validate_json(text)
