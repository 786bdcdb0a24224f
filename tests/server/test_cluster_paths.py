"""Which process a request's path names (app/server/cluster.py `held_letter`): the same
paths the balancer routes by letter (docker/haproxy-cfg.sh), and the replay ids that carry
their room's code (app/storage/replay_store.py)."""

from __future__ import annotations

from app.server.cluster import held_letter
from app.storage.replay_store import replay_id, replay_letter


def test_a_replay_id_names_its_room_and_an_older_bare_id_names_none():
    assert replay_id("ABCDEFG", "x4Tq-Wz_3abcdEfg") == "ABCDEFG-x4Tq-Wz_3abcdEfg"
    assert replay_letter("ABCDEFG-x4Tq-Wz_3abcdEfg") == "A"
    assert replay_letter("x4Tq-Wz_3abcdEfg") is None  # an id kept before the prefix
    assert replay_letter("ABCDEFGx4Tq") is None
    assert replay_letter("ABCDEFI-x4Tq") is None  # I is no code letter
    assert replay_letter("ABCDEFG-") is None


def test_the_letter_of_every_routed_path():
    assert held_letter("/api/rooms/bcdefgh", b"") == "B"  # people type codes in any case
    assert held_letter("/api/rooms/BCDEFGH/join", b"") == "B"
    assert held_letter("/api/rooms/practice", b"") is None
    assert held_letter("/api/rooms", b"") is None
    assert held_letter("/api/grip/Cx4Tq-Wz_3ab", b"") == "C"
    assert held_letter("/api/replays/DEFGHJK-x4Tq", b"") == "D"
    assert held_letter("/api/replays/DEFGHJK-x4Tq/share", b"") == "D"
    assert held_letter("/api/replays/x4Tq-Wz_3abcdEfg", b"") is None
    assert held_letter("/api/replays", b"code=efghjkl") == "E"
    assert held_letter("/api/replays", b"") is None
    assert held_letter("/api/daily", b"") is None
    assert held_letter("/health", b"") is None
