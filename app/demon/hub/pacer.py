"""The pacer: bots finishing a round for a person share one budget of the event loop.

A bot at a person's pace acts when its timer fires. Hurried (the person let the bots
finish the round, `Room.bots_finish`), its think time is 20-50 ms, so one such room asks
for up to 350 plays a second and fifty of them for far more than a core can do. Left to
their timers, every bot whose time had come ran in the same turn of the event loop: all
of them, a play and a decision each, back to back, and no other table of the process
moved meanwhile (measured: the loop watch's stalls of 100-850 ms, with 57 such rooms;
bench/server.py --bots-finish). Bots finishing a round are a convenience, not a race:
they may slow down under load, the people's tables may not.

So a hurried bot's timer does not act itself: it queues the bot's turn here (`push`),
and the pacer runs the queue first come, first served across every room, in slices: at
most `per_turn` bot turns in one turn of the event loop, fewer if the slice has taken
`slice_s` already; then it steps aside for as long again as the slice took times
(1 - `share`) / `share`, so hurried bots never hold more than about `share` of the loop
however many rooms hurry them. Slices are timed in the loop thread's CPU time: on a
shared machine a slice that waited for a core did no more work, and counting the wait
made the bots step aside for it too (measured: a fifth of the plays at a load of 20). The people's messages, the other rooms' bots and the
flush run between two slices; the flush after a slice (its frames, its commit, the
bots' next look) is the slice's rooms' only. Nothing here knows about rooms: a turn is
a callable with a token, and a cancelled token (the room was removed, its round moved
on, the bots were hurried again) skips it.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from time import thread_time

PER_TURN = 8  # bot turns (a play and a decision each) in one turn of the event loop, at most
SLICE_S = 0.004  # ... and a slice stops once it has taken this much CPU time
SHARE = 0.5  # the part of the loop's time hurried bots may take, at most (about)


class Pacer:
    """A queue of hurried bots' turns, run a slice per turn of the event loop."""

    def __init__(
        self,
        per_turn: int = PER_TURN,
        slice_s: float = SLICE_S,
        share: float = SHARE,
        clock: Callable[[], float] = thread_time,
    ) -> None:
        if per_turn < 1 or slice_s <= 0 or not 0 < share <= 1:
            raise ValueError("per_turn >= 1, slice_s > 0 and 0 < share <= 1")
        self.per_turn = per_turn
        self.slice_s = slice_s
        self.share = share
        self.clock = clock
        self._queue: deque[tuple[asyncio.Handle, Callable[[], None]]] = deque()
        self._scheduled = False
        self.ran = 0  # turns run (the benchmark and the tests read these)
        self.slices = 0

    def __len__(self) -> int:
        return len(self._queue)

    def push(self, token: asyncio.Handle, turn: Callable[[], None]) -> None:
        """Queue `turn`; it runs in a later slice unless `token` is cancelled by then."""
        self._queue.append((token, turn))
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._run)

    def clear(self) -> None:
        """Drop every queued turn (the server stops)."""
        self._queue.clear()

    def _run(self) -> None:
        """One slice: at most `per_turn` turns, and none started after `slice_s`."""
        self._scheduled = False
        queue = self._queue
        started = self.clock()
        done = 0
        try:
            while queue and done < self.per_turn and (done == 0 or self.clock() - started < self.slice_s):
                token, turn = queue.popleft()
                if token.cancelled():
                    continue
                done += 1
                turn()  # (the driver's turn catches its own errors: one bot must not stop the rest)
        finally:  # even if a turn raised: the others still get their slice
            self.ran += done
            self.slices += 1
            if queue:
                took = self.clock() - started
                self._scheduled = True
                asyncio.get_running_loop().call_later(took * (1 - self.share) / self.share, self._run)
