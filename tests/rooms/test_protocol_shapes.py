"""The typed protocol: every client message has a handler in the hub's table, and the
server's message constructors write the keys in the documented order (the bytes the
browser and third-party clients already parse)."""

from __future__ import annotations

import typing

from app.demon.hub.dispatch import HANDLERS
from app.demon.room.errors import RoomError
from app.protocol import messages as m
from app.protocol import server as out


def test_every_client_message_but_hello_has_a_handler():
    """Of every game: a Nerts room's messages are Demon's with Nerts' `action`."""
    union = typing.get_args(typing.get_args(m.ClientMessage)[0])
    nerts = typing.get_args(m.NertsRoomMessage)
    assert (set(union) | set(nerts)) - {m.Hello} == set(HANDLERS)


def test_server_messages_are_encoded_with_the_documented_key_order():
    assert (
        out.encode(out.welcome("KXWPRTM", "p1", 0, 3, "e"))
        == '{"type":"welcome","code":"KXWPRTM","you":"p1","seat":0,"v":3,"epoch":"e"}'
    )
    assert out.encode(out.duplicate(out.ack("a1", 6))) == '{"type":"ack","id":"a1","v":6,"duplicate":true}'
    assert (
        out.encode(out.race_lost("a2", "race_lost", "too late", pile=1, by_seat=2, by_name="Bo"))
        == '{"type":"rejected","id":"a2","code":"race_lost","reason":"too late","pile":1,"by_seat":2,"by_name":"Bo"}'
    )
    assert out.encode(out.legal(7, [{"type": "draw"}])) == '{"type":"legal","v":7,"actions":[{"type":"draw"}]}'
    assert out.encode(out.error("invalid", "x")) == '{"type":"error","code":"invalid","message":"x"}'
    assert out.encode(out.pong()) == '{"type":"pong"}'
    assert out.encode(out.emote("p2", "wave")) == '{"type":"emote","player":"p2","emote":"wave"}'
    assert (
        out.encode(out.coach(9, {"type": "draw"}, out.CoachWhy(kind="draw")))
        == '{"type":"coach","v":9,"action":{"type":"draw"},"why":{"kind":"draw"}}'
    )


def test_every_room_error_names_a_documented_code():
    documented = {
        "illegal",
        "race_lost",
        "not_started",
        "round_over",
        "not_host",
        "bad_phase",
        "spectator",
        "invalid",
        "room_full",
        "too_many_bots",
        "slow_down",
        "not_practice",
        "daily_race",
        "bad_seat",
        "removed",
    }

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    assert {cls.code for cls in [RoomError, *subclasses(RoomError)]} <= documented
