"""Open tables without sockets: the room's door (open, closed, a person removed and
barred), "Play now"'s choice of lobby through the real hub, and a play-now lobby filled
with bots when its time comes, with the budgets that may refuse them. The clocks are the
test's (the room's monotonic one and the hub's wall clock); sockets are recording ones.
The same over a real uvicorn: tests/server/test_open_tables.py."""

from __future__ import annotations

import asyncio
import functools

import pytest

from app.demon.hub.connection import Pipe
from app.demon.hub.dispatch import CLOSE_REMOVED
from app.demon.hub.hub import Hub
from app.demon.hub.open_tables import AWAY_S, NO_BOTS, PLAY_NOW_WAIT_S, RESTORED_WAIT_S
from app.demon.room.errors import BadPhase, BadSeat, NotHost, Removed
from app.demon.room.seating import address_mark
from app.demon.room.views import table_row
from app.protocol import messages as m
from app.storage.store import Store
from tests.rooms.test_hub_flush import RecordingSocket, settings, turns
from tests.rooms.test_room import T0, make_room


class Clocks:
    """The hub's monotonic clock and the open tables' wall clock, moved together."""

    def __init__(self) -> None:
        self.mono = 1000.0
        self.wall = 1_765_000_000.0

    def advance(self, seconds: float) -> None:
        self.mono += seconds
        self.wall += seconds


def hub_with(tmp_path, clocks: Clocks, store: Store | None = None, **overrides) -> Hub:
    values = {"persist": store is not None, **overrides}
    hub = Hub(settings(tmp_path, **values), store, clock=lambda: clocks.mono)
    hub.open_tables.wall = lambda: clocks.wall
    return hub


def in_loop(test):
    """Run a synchronous test body on an event loop (the hub's flush is scheduled on one)."""

    @functools.wraps(test)
    def run(*args, **kwargs):
        async def main():
            test(*args, **kwargs)

        asyncio.run(main())

    return run


def press(hub: Hub, name: str, address: str, **body) -> tuple:
    return hub.play_now(m.PlayNow(name=name, **body), address)


def attach(hub: Hub, handle, player) -> tuple[RecordingSocket, Pipe]:
    sock = RecordingSocket()
    pipe = Pipe(sock, 256)
    assert hub.attach(handle, player, pipe, None)
    return sock, pipe


# ----------------------------------------------------------------- the room's door


def test_the_host_opens_and_closes_the_table_and_the_view_says_so_only_when_open():
    room, (host, other) = make_room(2)
    assert "open" not in room.public_state(T0) and table_row(room) is None
    with pytest.raises(NotHost):
        room.set_open(other, True)
    outcome = room.set_open(host, True)
    assert outcome.events[0]["event"]["state"]["open"] is True
    row = table_row(room)
    assert row is not None and (row["players"], row["bots"], row["host"], row["started"]) == (2, 0, "P0", False)
    assert "token" not in str(row) and "p1" not in str(row)  # no token, no player id
    room.set_open(host, False)
    # `false`, not absent: a page merges a `room` event's keys into the state it holds
    assert room.public_state(T0)["open"] is False and table_row(room) is None


def test_closing_a_play_now_table_cancels_its_bots():
    room, (host, _) = make_room(2)
    room.set_open(host, True)
    room.door.play_now, room.door.fill_at = True, 1_765_000_020.0
    assert room.public_state(T0)["fill_at"] == 1_765_000_020_000
    room.set_open(host, False)
    assert room.door.fill_at is None and room.public_state(T0)["fill_at"] is None


def test_a_full_lobby_is_not_listed_but_a_started_open_table_is_to_watch():
    room, (host, _) = make_room(2, max_players=2)
    room.set_open(host, True)
    assert table_row(room) is None  # nobody could sit down
    room.start(host, T0)
    row = table_row(room)
    assert row is not None and row["started"] and row["fill_at"] is None


def test_the_host_removes_a_person_in_the_lobby_and_their_token_opens_nothing():
    room, (host, ann, bo) = make_room(3)
    room.door.marks[ann.id] = address_mark(room.code, "203.0.113.7")
    with pytest.raises(NotHost):
        room.remove_player(bo, ann.seat, T0)
    with pytest.raises(BadSeat):
        room.remove_player(host, host.seat, T0)  # the host's own seat
    with pytest.raises(BadSeat):
        room.remove_player(host, 7, T0)  # nobody there
    outcome, removed = room.remove_player(host, ann.seat, T0)
    assert removed is ann and ann.left
    assert [p["name"] for p in outcome.events[-1]["event"]["state"]["players"]] == ["P0", "P2"]
    assert room.seating.by_token("tok1") is None
    assert room.door.refuses(address_mark(room.code, "203.0.113.7"))
    assert not room.door.refuses(address_mark(room.code, "203.0.113.8"))


def test_a_bot_is_removed_with_remove_bot_and_nobody_is_removed_mid_match():
    room, (host, ann) = make_room(2)
    _, bot = room.add_bot(host, "easy", T0)
    with pytest.raises(BadSeat):
        room.remove_player(host, bot.seat, T0)
    room.start(host, T0)
    with pytest.raises(BadPhase):
        room.remove_player(host, ann.seat, T0)


@in_loop
def test_a_removed_address_is_refused_at_that_table_only(tmp_path):
    hub = hub_with(tmp_path, Clocks())
    handle, host, _ = hub.create_room(m.CreateRoom(name="Host"), "198.51.100.1")
    other, *_ = hub.create_room(m.CreateRoom(name="Other"), "198.51.100.2")
    _, ann, _ = hub.join_room(handle.room.code, "Ann", "203.0.113.7")
    handle.room.remove_player(host, ann.seat, hub.clock())
    with pytest.raises(Removed):
        hub.join_room(handle.room.code, "Ann again", "203.0.113.7")
    assert hub.join_room(handle.room.code, "Bo", "203.0.113.8") is not None
    assert hub.join_room(other.room.code, "Ann", "203.0.113.7") is not None


def test_remove_player_closes_the_persons_socket_with_4003(tmp_path):
    async def main():
        hub = hub_with(tmp_path, Clocks())
        handle, host, _ = hub.create_room(m.CreateRoom(name="Host"), "198.51.100.1")
        _, ann, _ = hub.join_room(handle.room.code, "Ann", "203.0.113.7")
        host_sock, host_pipe = attach(hub, handle, host)
        ann_sock, _ = attach(hub, handle, ann)
        hub.handle_message(handle, host, host_pipe, m.RemovePlayer(type="remove_player", seat=ann.seat))
        await turns()
        assert ann_sock.closed_with == (CLOSE_REMOVED, "removed by the host")
        assert ann.id not in handle.pipes
        assert not [msg for msg in host_sock.messages() if msg["type"] == "error"]
        # a second time: nobody sits there any more
        hub.handle_message(handle, host, host_pipe, m.RemovePlayer(type="remove_player", seat=1))
        await turns()
        assert host_sock.messages()[-1]["code"] == "bad_seat"

    asyncio.run(main())


def test_set_open_to_true_is_refused_when_the_server_has_no_open_tables(tmp_path):
    async def main():
        hub = hub_with(tmp_path, Clocks(), open_tables=False)
        handle, host, _ = hub.create_room(m.CreateRoom(name="Host"))
        sock, pipe = attach(hub, handle, host)
        hub.handle_message(handle, host, pipe, m.SetOpen(type="set_open", open=True))
        await turns()
        assert sock.messages()[-1]["type"] == "error" and not handle.room.door.open

    asyncio.run(main())


# ----------------------------------------------------------------- Play now's choice


@in_loop
def test_presses_fill_one_table_before_opening_another(tmp_path):
    hub = hub_with(tmp_path, Clocks())
    seats = [press(hub, f"P{i}", f"203.0.113.{i}") for i in range(6)]
    codes = [handle.room.code for handle, _, _ in seats]
    assert codes[:4] == [codes[0]] * 4 and codes[4] == codes[5] != codes[0]
    first = seats[0][0].room
    assert first.door.open and first.door.play_now and first.options.max_players == 4
    assert first.host == seats[0][1].id


@in_loop
def test_the_same_language_first_then_the_fullest_then_the_oldest(tmp_path):
    hub = hub_with(tmp_path, Clocks())

    def lobby(name: str, address: str, **options):
        return hub.create_room(m.CreateRoom(name=name, max_players=4, **options), address)[0]

    german = lobby("Hans", "203.0.113.1", open=True, language="de")
    old = lobby("Ann", "203.0.113.2", open=True)
    young = lobby("Cy", "203.0.113.3", open=True)
    young.room.created_at = old.room.created_at + 1
    lobby("Private", "203.0.113.4")  # not open: never chosen
    lobby("Nina", "203.0.113.5", open=True, game="nerts")  # another game
    assert press(hub, "Bo", "203.0.113.6")[0] is old  # English, as full as `young`, older
    assert press(hub, "Di", "203.0.113.7")[0] is old  # now the fullest
    assert press(hub, "Eva", "203.0.113.8", language="de")[0] is german  # fuller English ones wait
    assert press(hub, "Fin", "203.0.113.9", language="fi")[0] is old  # no Finnish lobby: the fullest
    assert press(hub, "Gus", "203.0.113.10", language="fi")[0] is german  # `old` is full now
    assert press(hub, "Nils", "203.0.113.11", game="nerts")[0].room.options.game == "nerts"


@in_loop
def test_a_removed_address_is_not_matched_to_that_table_again(tmp_path):
    hub = hub_with(tmp_path, Clocks())
    handle, host, _ = press(hub, "Host", "198.51.100.1")
    _, ann, _ = press(hub, "Ann", "203.0.113.7")
    handle.room.remove_player(host, ann.seat, hub.clock())
    assert press(hub, "Ann", "203.0.113.7")[0] is not handle


# ----------------------------------------------------------------- a play-now lobby's bots


def test_at_fill_at_the_empty_seats_get_bots_of_the_level_and_the_round_starts(tmp_path):
    async def main():
        clocks = Clocks()
        hub = hub_with(tmp_path, clocks)
        charged = []
        hub.open_tables.charge = lambda address, n: charged.append((address, n)) or True
        handle, ann, _ = press(hub, "Ann", "203.0.113.1", level="hard")
        room = handle.room
        assert room.door.fill_at == clocks.wall + PLAY_NOW_WAIT_S
        attach(hub, handle, ann)
        clocks.advance(PLAY_NOW_WAIT_S - 1)
        hub.open_tables.tick()
        assert not room.bots() and room.phase.value == "lobby"
        clocks.advance(1)
        hub.open_tables.tick()
        assert [b.bot.level for b in room.bots()] == ["hard"] * 3
        assert room.phase.value == "countdown" and room.door.fill_at is None
        assert charged == [("203.0.113.1", 3)]  # paid by the address that opened the table
        assert room.public_state(clocks.mono)["fill_at"] is None
        hub.open_tables.stop()
        if handle.countdown is not None:
            handle.countdown.cancel()

    asyncio.run(main())


def test_a_timer_that_fires_a_little_early_waits_again_and_still_fills(tmp_path):
    """uvloop keeps time in whole milliseconds, so a timer may fire up to 1 ms before
    `fill_at` by the wall clock: the lobby must still fill, not be forgotten."""

    async def main():
        clocks = Clocks()
        hub = hub_with(tmp_path, clocks)
        handle, ann, _ = press(hub, "Ann", "203.0.113.1", level="easy")
        attach(hub, handle, ann)
        room = handle.room
        clocks.wall = room.door.fill_at - 0.0005  # the timer comes half a millisecond early
        clocks.mono += PLAY_NOW_WAIT_S
        hub.open_tables._wake(room.code)
        assert not room.bots()  # not due yet by the wall clock
        clocks.wall = room.door.fill_at + 0.001
        await asyncio.sleep(0.05)  # the re-armed timer's turn
        assert [b.bot.level for b in room.bots()] == ["easy"] * 3
        hub.open_tables.stop()
        if handle.countdown is not None:
            handle.countdown.cancel()

    asyncio.run(main())


def test_seats_of_people_who_went_away_go_to_bots(tmp_path):
    async def main():
        clocks = Clocks()
        hub = hub_with(tmp_path, clocks)
        handle, ann, _ = press(hub, "Ann", "203.0.113.1")
        _, ghost, _ = press(hub, "Ghost", "203.0.113.2")  # pressed, never opened the room
        attach(hub, handle, ann)
        clocks.advance(PLAY_NOW_WAIT_S)
        hub.open_tables.tick()
        room = handle.room
        assert ghost.left and [p.name for p in room.seating.seated() if p.bot is None] == ["Ann"]
        assert len(room.bots()) == 3 and room.phase.value == "countdown"
        hub.open_tables.stop()

    asyncio.run(main())


@pytest.mark.parametrize("refusal", ["budget", "server cap"])
def test_refused_bots_start_the_round_with_the_people_there(tmp_path, refusal):
    async def main():
        clocks = Clocks()
        hub = hub_with(tmp_path, clocks, max_bots=0 if refusal == "server cap" else 400)
        hub.open_tables.charge = lambda address, n: refusal != "budget"
        handle, ann, _ = press(hub, "Ann", "203.0.113.1")
        _, bo, _ = press(hub, "Bo", "203.0.113.2")
        attach(hub, handle, ann)
        attach(hub, handle, bo)
        clocks.advance(PLAY_NOW_WAIT_S)
        hub.open_tables.tick()
        assert not handle.room.bots() and handle.room.phase.value == "countdown"
        assert len(handle.room.seating.seated()) == 2
        hub.open_tables.stop()

    asyncio.run(main())


def test_refused_bots_and_one_person_the_lobby_is_told_and_stays_open(tmp_path):
    async def main():
        clocks = Clocks()
        hub = hub_with(tmp_path, clocks)
        hub.open_tables.charge = lambda address, n: False
        handle, ann, _ = press(hub, "Ann", "203.0.113.1")
        sock, _ = attach(hub, handle, ann)
        clocks.advance(PLAY_NOW_WAIT_S)
        hub.open_tables.tick()
        await turns()
        room = handle.room
        assert room.phase.value == "lobby" and not room.bots() and room.door.fill_at is None
        assert {"type": "error", "code": "no_bots", "message": NO_BOTS} in sock.messages()
        last_state = [msg for msg in sock.messages() if msg["type"] == "event"][-1]["event"]["state"]
        assert last_state["fill_at"] is None and last_state["open"] is True
        assert table_row(room) is not None  # strangers can still sit down
        hub.open_tables.stop()

    asyncio.run(main())


def test_a_full_lobby_of_people_all_there_starts_without_waiting(tmp_path):
    async def main():
        hub = hub_with(tmp_path, Clocks())
        seats = [press(hub, f"P{i}", f"203.0.113.{i}") for i in range(4)]
        handle = seats[0][0]
        for _, player, _ in seats[:3]:
            attach(hub, handle, player)
        assert handle.room.phase.value == "lobby"  # one seat not opened yet
        attach(hub, handle, seats[3][1])
        assert handle.room.phase.value == "countdown" and not handle.room.bots()
        hub.open_tables.stop()

    asyncio.run(main())


@in_loop
def test_an_address_holds_a_bounded_number_of_waiting_seats(tmp_path):
    hub = hub_with(tmp_path, Clocks())
    for game in ("demon", "nerts"):
        for i in range(2):
            press(hub, f"{game}{i}", "203.0.113.1", game=game)
    assert hub.open_tables.waiting_seats("203.0.113.1") == 4
    assert hub.open_tables.waiting_seats("203.0.113.2") == 0


# ----------------------------------------------------------------- surviving a restart


def test_the_door_is_saved_and_a_restored_lobby_fills_after_its_people_are_back(tmp_path):
    async def main():
        clocks = Clocks()
        store = Store.open(tmp_path)
        hub = hub_with(tmp_path, clocks, store)
        handle, ann, _ = press(hub, "Ann", "203.0.113.1", language="ro", level="easy")
        _, bo, _ = press(hub, "Bo", "203.0.113.2")
        code, fill_at = handle.room.code, handle.room.door.fill_at
        hub.outbox.publish(handle, handle.room.remove_player(ann, bo.seat, clocks.mono)[0])
        hub.outbox.flush()
        store.close()

        clocks.advance(PLAY_NOW_WAIT_S + 60)  # down past its time
        store = Store.open(tmp_path)
        again = hub_with(tmp_path, clocks, store)
        await again.start()
        room = again.rooms[code].room
        door = room.door
        assert (door.open, door.play_now, door.language, door.fill_level) == (True, True, "ro", "easy")
        assert door.refuses(address_mark(code, "203.0.113.2"))  # the removal survived
        assert door.fill_at == clocks.wall + RESTORED_WAIT_S > fill_at  # time to reconnect first
        person = room.seating.by_id(ann.id)
        attach(again, again.rooms[code], person)
        clocks.advance(RESTORED_WAIT_S)
        again.open_tables.tick()
        assert len(room.bots()) == 3 and room.phase.value == "countdown"
        await again.stop()
        store.close()

    asyncio.run(main())


def test_a_person_away_briefly_keeps_the_seat(tmp_path):
    async def main():
        clocks = Clocks()
        hub = hub_with(tmp_path, clocks)
        handle, ann, _ = press(hub, "Ann", "203.0.113.1")
        _, pipe = attach(hub, handle, ann)
        clocks.advance(PLAY_NOW_WAIT_S - AWAY_S / 2)
        hub.detach(handle, ann, pipe)  # a network blip just before the bots
        clocks.advance(AWAY_S / 2)
        hub.open_tables.tick()
        assert not ann.left and len(handle.room.bots()) == 3
        hub.open_tables.stop()

    asyncio.run(main())
