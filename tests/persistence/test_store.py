"""The SQLite store without sockets: what is saved is what comes back."""

from __future__ import annotations

import json
import time

from app.demon.room.persist import round_record
from app.demon.room.room import Options, Phase, Room
from app.demon.rules.record import replay_demon
from app.grip.service.sessions import GripSessions
from app.storage.store import Store
from app.support.secrets_util import hash_token
from tests.support.actions import as_sent

now = time.monotonic


def room_with_round(code: str = "ROOMAAA", **options) -> tuple[Room, list]:
    room = Room(code, Options(**options), test_seed=288)
    players = [room.join(f"P{i}", hash_token(f"t{i}")) for i in range(2)]
    for p in players:
        room.connect(p, now())
    room.start(players[0], now())
    room.begin_round(now())
    return room, players


def restored(store: Store, code: str) -> Room:
    return next(r for r in store.load_rooms() if r.code == code)


def test_a_saved_room_comes_back_the_same(tmp_path):
    store = Store.open(tmp_path)
    room, players = room_with_round(time_limit_s=300)
    for i in range(6):
        action = room.legal_for(players[i % 2])[0]
        room.act(players[i % 2], f"a{i}", as_sent(action), now())
        store.save_room(room)
    back = restored(Store.open(tmp_path), room.code)
    assert back.round == room.round and back.v == room.v and back.phase is Phase.PLAYING
    assert back.public_state(now())["round"] == room.public_state(now())["round"]
    # The round is kept as an engine record that replays to the same state.
    assert replay_demon(round_record(back)) == room.round
    # The round's clock is a wall-clock deadline: it does not grow back on restart.
    assert 295 < back.round_deadline - time.monotonic() <= 300


def test_a_rematch_is_restored_without_the_old_round(tmp_path):
    """Review finding: the finished round's steps were written again after a rematch."""
    store = Store.open(tmp_path)
    room, players = room_with_round(rounds=1)
    room.act(players[0], "d", as_sent({"type": "draw"}), now())
    room.vote(players[0], True)
    room.vote(players[1], True)
    store.save_room(room)
    room.rematch(players[0], now())
    store.reopen_match(room)
    store.save_room(room)
    back = restored(Store.open(tmp_path), room.code)
    assert back.phase is Phase.COUNTDOWN and back.round is None
    assert back.public_state(now())["round"] is None


def test_a_damaged_room_is_skipped_and_the_others_restored(tmp_path):
    store = Store.open(tmp_path)
    good, _ = room_with_round("GOODAAA")
    bad, players = room_with_round("BADAAAA")
    bad.act(players[0], "d", as_sent({"type": "draw"}), now())
    store.save_room(good)
    store.save_room(bad)
    store.conn.execute(
        "UPDATE steps SET step = ? WHERE code = ?",
        (json.dumps({"type": "tableau", "seat": 0, "src": 0, "dst": 0, "count": 1}), "BADAAAA"),
    )
    rooms = Store.open(tmp_path).load_rooms()
    assert [r.code for r in rooms] == ["GOODAAA"]
    assert Store.open(tmp_path).conn.execute("SELECT count(*) FROM rooms").fetchone()[0] == 2


def test_devils_grip_games_pushed_out_of_memory_are_still_there(tmp_path):
    """Review finding: eviction used to delete the oldest saved game."""
    grips = GripSessions(max_games=2, store=Store.open(tmp_path))
    first, token = grips.new(1, False, None)
    grips.new(2, False, None)
    grips.new(3, False, None)
    assert first.id not in grips.games
    again = grips.get(first.id, token)
    assert again.game.number == 1


def test_moves_saved_as_steps_only_restore_the_same_version(tmp_path):
    """A move is one INSERT (the meta is not rewritten): the version must still come
    back as the last move's."""
    store = Store.open(tmp_path)
    room, players = room_with_round()
    store.save_room(room)
    for i in range(5):
        room.act(players[i % 2], f"m{i}", as_sent(room.legal_for(players[i % 2])[0]), now())
        store.save_room(room, moves_only=True)
    back = restored(Store.open(tmp_path), room.code)
    assert back.v == room.v and back.round == room.round
    dup = back.act(back.seating.by_id(players[1].id), "m3", as_sent({"type": "draw"}), now())
    assert dup.reply["duplicate"] and back.v == room.v


def test_a_finished_match_that_cannot_be_recorded_does_not_unsave_the_rooms_saved_with_it(tmp_path):
    """Found in review: a failure recording one room's finished match, after the shared
    commit, left the other rooms' saved counts stale, so their next saves wrote the same
    steps again and failed on every move."""
    store = Store.open(tmp_path)
    done, done_players = room_with_round("DONEAAA", rounds=1)
    busy, busy_players = room_with_round("BUSYAAA")
    done.vote(done_players[0], True)
    done.vote(done_players[1], True)
    assert done.phase is Phase.MATCH_OVER
    busy.act(busy_players[0], "d1", as_sent({"type": "draw"}), now())
    store.conn.execute("DROP TABLE matches")  # recording the match will fail
    assert store.save_rooms([(done, False), (busy, True)]) == set()
    busy.act(busy_players[0], "d2", as_sent({"type": "draw"}), now())
    assert store.save_rooms([(busy, True)]) == set()
    assert restored(Store.open(tmp_path), "BUSYAAA").v == busy.v


def test_a_restored_room_knows_which_pile_took_each_card_last_and_which_ids_it_applied(tmp_path):
    """Across a restart: who took which card last is replayed from
    the saved steps (so a lost race with `pile: null` still names the real winner), and
    every action id applied this round is still answered, not applied again."""
    import random

    store = Store.open(tmp_path)
    room = Room("ROOMTKN", Options(), test_seed=288)
    players = [room.join(f"P{i}", hash_token(f"t{i}")) for i in range(4)]
    for p in players:
        room.connect(p, now())
    room.start(players[0], now())
    room.begin_round(now())
    rng = random.Random(7)
    for i in range(400):
        p = players[i % 4]
        legal = room.legal_for(p)
        plays = [a for a in legal if a["type"] == "foundation"]
        if room.phase is not Phase.PLAYING or not legal:
            break
        room.act(p, f"a{i}", as_sent(rng.choice(plays or legal)), now())
    store.save_room(room)
    assert len(room.record.taken) > 4
    back = restored(Store.open(tmp_path), room.code)
    assert back.record.taken == room.record.taken
    v = back.v
    again = back.act(back.players[0], "a0", as_sent({"type": "draw"}), now()).reply
    assert again["type"] == "ack" and again["duplicate"] is True and back.v == v


def test_a_round_handed_to_the_bots_stays_theirs_after_a_restart(tmp_path):
    """`bots_finish` is part of the saved match, or a restart would give the
    round back to a person who had left it to the bots (and the bots' votes would no
    longer end it)."""
    store = Store.open(tmp_path)
    room = Room("ROOMBOT", Options(rounds=1), test_seed=288)
    person = room.join("Ann", hash_token("t"))
    room.connect(person, now())
    room.add_bot(person, "easy", now())
    room.start(person, now())
    room.begin_round(now())
    room.vote(person, True, bots_finish=True)
    store.save_room(room)
    back = restored(Store.open(tmp_path), room.code)
    assert back.bots_finish and back.votes == {0} and back.phase is Phase.PLAYING
    assert back.round_view()["bots_finish"] is True


def test_a_round_the_bots_finished_is_kept_as_theirs_for_its_replay(tmp_path):
    """The record says only that votes ended the round; the kept round also says that its
    person let the bots finish it, so its replay says so as the results did (it said "The
    players voted to end the round."). A round the people voted to end says not."""
    store = Store.open(tmp_path)
    kept = {}
    for code, handed in (("ROOMBOT", True), ("ROOMVOT", False)):
        room = Room(code, Options(rounds=1), test_seed=288)
        person = room.join("Ann", hash_token(f"t-{code}"))
        room.connect(person, now())
        _out, bot = room.add_bot(person, "easy", now())
        room.start(person, now())
        room.begin_round(now())
        room.vote(person, True, bots_finish=handed)
        if handed:
            room.vote(bot, True)  # the bots' say ends a round handed to them
        assert room.phase is Phase.MATCH_OVER and room.result is not None and room.result["reason"] == "vote"
        store.save_room(room)
        (row,) = store.demon.replays.of_room(code)
        kept[code] = (row["bots_finish"], store.demon.replays.load(row["id"]))
    assert kept["ROOMBOT"][0] is True and kept["ROOMVOT"][0] is False
    assert kept["ROOMBOT"][1] is not None and kept["ROOMBOT"][1]["bots_finish"] is True
    assert kept["ROOMVOT"][1] is not None and kept["ROOMVOT"][1]["bots_finish"] is False


def test_applied_ids_of_the_previous_round_come_back_after_a_rematch_too(tmp_path):
    """Without sockets: the ids the room still answers come back as
    they were, in the next round and between a rematch and its first round, and an id
    two rounds old is forgotten as it is in memory."""
    store = Store.open(tmp_path)
    room, players = room_with_round(rounds=2)
    room.act(players[0], "r1", as_sent({"type": "draw"}), now())
    room.vote(players[0], True)
    room.vote(players[1], True)
    store.save_room(room)
    room.next_round(players[0], now())
    room.begin_round(now())
    room.act(players[0], "r2", as_sent({"type": "draw"}), now())
    store.save_room(room)
    back = restored(Store.open(tmp_path), room.code)
    assert back.answered.of(players[0].id) == room.answered.of(players[0].id)
    assert {a["id"] for a in back.answered.of(players[0].id)} == {"r1", "r2"}
    room.vote(players[0], True)
    room.vote(players[1], True)
    room.rematch(players[0], now())  # match over: back to round 0, the old round's steps go
    store.reopen_match(room)
    store.save_room(room)
    back = restored(Store.open(tmp_path), room.code)
    assert {a["id"] for a in back.answered.of(players[0].id)} == {"r1", "r2"}
    room.begin_round(now())
    store.save_room(room)
    back = restored(Store.open(tmp_path), room.code)
    assert (
        {a["id"] for a in back.answered.of(players[0].id)}
        == {"r2"}
        == {a["id"] for a in room.answered.of(players[0].id)}
    )
