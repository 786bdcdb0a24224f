"""Our code's CPU per move without the network: `python bench/hub_cpu.py [--rooms 70] [--moves 8000]`.

bench/server.py measures a move's CPU in the server process, which is our code and the
shared stack (uvicorn, websockets, asyncio, the kernel's sockets) together; the bare
relay's figure is the stack's share. This runs the same rooms in one process with no
network at all, to see our share alone and what it is made of: rooms of 8 seats whose
sockets are recorders (`Pipe` needs only `send_text` and `close`), the real hub, rooms,
engine and SQLite store (persistence on, in a temporary directory), and, each turn of
the event loop, one random seat playing what bench/server.py's seats choose, sent as
its JSON text through the same reading as the socket's (`read_client_message`: the
short way for an `action`, pydantic for anything else),
`Hub.handle_message`, and the flush (the onlookers' frames, the commit, the mover's
`legal` and `ack`). The garbage collector is set as the server sets it (app/server/app.py).

`--parts` also times the three big parts of a move (those of a compiled class are not:
it refuses the timing wrapper) (the dispatch: `Room.act` and what
the hub does around it; the frames of the flush, the legal actions included; the
commit). `--messages` also times the reading of the run's own action messages alone,
pydantic's `validate_json` against `read_client_message`, in alternation. `--profile` prints cProfile's top functions (which inflates every figure).
Figures include the seat's own choice of move (its legal actions are cached), a few
µs; read them as ± 10 % on a busy machine and compare two commits in alternation.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from app.config import Settings  # noqa: E402
from app.demon.hub.connection import Pipe  # noqa: E402
from app.demon.hub.hub import Hub  # noqa: E402
from app.demon.room.phases import Phase  # noqa: E402
from app.protocol import messages as m  # noqa: E402
from app.protocol.fast_action import read_client_message  # noqa: E402
from app.server.loop.collector import GEN0_THRESHOLD  # noqa: E402
from app.storage.store import Store  # noqa: E402
from server import SEATS, choose, hot_path  # noqa: E402  (bench/server.py: a seat's choice of move)


class Recorder:
    """A socket that takes every frame at once and only counts them."""

    __slots__ = ("frames",)

    def __init__(self) -> None:
        self.frames = 0

    async def send_text(self, data: str) -> None:
        self.frames += 1

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass


def timed(obj: object, name: str, totals: dict) -> None:
    """Wrap `obj.name` to add its CPU time to `totals[name]`; a compiled class
    (app/support/native.py) refuses the wrapper, and its part is not timed (None)."""
    inner = getattr(obj, name)

    def wrapper(*args, **kwargs):
        t0 = time.process_time()
        try:
            return inner(*args, **kwargs)
        finally:
            totals[name] = totals.get(name, 0.0) + time.process_time() - t0

    try:
        setattr(obj, name, wrapper)
    except AttributeError:  # "attribute is read-only": a compiled class's method
        totals[name] = None


async def run(args: argparse.Namespace) -> None:
    data_dir = Path(tempfile.mkdtemp(prefix="demon-hubcpu-"))
    store = Store.open(data_dir)
    hub = Hub(Settings(data_dir=data_dir, countdown_s=0.0, test_seed=args.seed), store)
    seats = []
    for r in range(args.rooms):
        handle, host, _ = hub.create_room(m.CreateRoom(name="P0", rounds=3, max_players=SEATS))
        players = [host]
        for i in range(1, SEATS):
            joined = hub.join_room(handle.room.code, f"P{i}")
            assert joined is not None
            players.append(joined[1])
        pipes = [Pipe(Recorder(), 4096) for _ in players]
        for player, pipe in zip(players, pipes):
            hub.attach(handle, player, pipe, None)
        hub.handle_message(handle, host, pipes[0], m.Start(type="start"))
        for _ in range(3):
            await asyncio.sleep(0)
        hub.outbox.publish(handle, handle.room.begin_round(hub.clock()))
        for _ in range(3):
            await asyncio.sleep(0)
        seats += [(handle, p, pipe, random.Random(f"{r}-{i}")) for i, (p, pipe) in enumerate(zip(players, pipes))]
    rng = random.Random(args.seed)
    sent = 0
    texts: list[str] = []

    def play() -> bool:
        """One seat's play, as its socket would send it; True when it was applied."""
        nonlocal sent
        handle, player, pipe, seat_rng = rng.choice(seats)
        room = handle.room
        if room.phase is not Phase.PLAYING:
            return False
        view = room.round.seat_view(player.seat) if room.round else None
        action = choose(room.legal_for(player), view, seat_rng)
        if action is None:
            return False
        sent += 1
        text = json.dumps({"type": "action", "id": f"a{sent}", "action": action})
        if len(texts) < 5000:
            texts.append(text)
        msg = read_client_message(m.client_message, text)
        assert not isinstance(msg, m.Hello)
        v0 = room.v
        hub.handle_message(handle, player, pipe, msg)
        return room.v != v0

    gc.collect()
    gc.freeze()
    gc.set_threshold(GEN0_THRESHOLD, 20, 20)
    for _ in range(args.warm):
        play()
        await asyncio.sleep(0)  # the flush
    totals: dict = {}
    if args.parts:
        timed(hub.dispatcher, "dispatch", totals)
        timed(hub.outbox, "_send_turns", totals)
        timed(store, "save_rooms", totals)
    profile = cProfile.Profile() if args.profile else None
    applied = 0
    t0 = time.process_time()
    if profile:
        profile.enable()
    for _ in range(args.moves):
        applied += play()
        await asyncio.sleep(0)
    if profile:
        profile.disable()
    cpu = time.process_time() - t0
    print(hot_path())
    print(
        f"{args.rooms} rooms x {SEATS}: {applied} moves applied of {args.moves} plays; "
        f"{cpu / max(1, applied) * 1e6:.0f} us of CPU per applied move"
    )
    names = {
        "dispatch": "dispatch (Room.act and around it)",
        "_send_turns": "frames (legal actions included)",
        "save_rooms": "commit",
    }
    for name, seconds in totals.items():
        if seconds is None:
            print(f"  {names[name]:36s} not timed: compiled (`make clean-compiled` to time it)")
        else:
            print(f"  {names[name]:36s} {seconds / max(1, applied) * 1e6:6.0f} us/move")
    if args.messages:
        time_messages(texts)
    if profile:
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
    store.close()


def time_messages(texts: list[str], rounds: int = 15) -> None:
    """CPU per message of the two ways of reading `texts` (the run's own action
    messages), each the best of `rounds` passes taken in alternation, so that a busy
    machine slows both alike."""
    ways = {
        "pydantic validate_json": lambda text: m.client_message.validate_json(text),
        "read_client_message": lambda text: read_client_message(m.client_message, text),
    }
    best = dict.fromkeys(ways, float("inf"))
    for _ in range(rounds):
        for name, read in ways.items():
            t0 = time.process_time()
            for text in texts:
                read(text)
            best[name] = min(best[name], time.process_time() - t0)
    for name, seconds in best.items():
        print(f"  reading an action message: {name:24s} {seconds / len(texts) * 1e6:5.2f} us")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rooms", type=int, default=70, help="rooms of 8 seats (default 70: 560 players)")
    ap.add_argument("--moves", type=int, default=8000, help="plays measured (default 8000)")
    ap.add_argument("--warm", type=int, default=2000, help="plays before measuring (default 2000)")
    ap.add_argument("--seed", type=int, default=20240, help="DEMON_TEST_SEED: every round's deal")
    ap.add_argument("--parts", action="store_true", help="also time the dispatch, the frames and the commit")
    ap.add_argument("--messages", action="store_true", help="also time the reading of an action message, both ways")
    ap.add_argument("--profile", action="store_true", help="cProfile's top functions")
    asyncio.run(run(ap.parse_args(argv)))


if __name__ == "__main__":
    main()
