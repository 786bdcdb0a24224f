"""A room's versioned history: the version counter and the replay window.

Lichess's model: every public change is an event with the next version `v`. A client
that reconnects names the last `v` it saw and gets the events after it, or, when they
are no longer all in the window, a snapshot (which replaces its state: merging is how
Colyseus's "ghost state" bug happens).

The window keeps each event as the JSON text it was sent as, encoded once when it is
appended: text is what a reconnecting client needs, and a few strings cost the garbage
collector far less than hundreds of nested dicts per room (docs/performance.md).
"""

from __future__ import annotations

from collections import deque

from app.protocol import server as out


class EventLog:
    def __init__(self, window: int) -> None:
        self.v = 0
        self._texts: deque[tuple[int, str]] = deque(maxlen=window)

    def append(self, body: out.RoomEventBody) -> out.Event:
        """Version `body` as the next event and keep its text for resumes."""
        self.v += 1
        message = out.event(self.v, body)
        self._texts.append((self.v, out.encode(message)))
        return message

    def text(self, message: out.Event) -> str:
        """The JSON text of an event this log appended (encoded once, in `append`)."""
        texts = self._texts
        if texts and texts[0][0] <= message["v"] <= self.v:
            v, text = texts[message["v"] - texts[0][0]]
            if v == message["v"]:
                return text
        return out.encode(message)

    def since(self, v: int) -> list[str] | None:
        """The JSON texts of the events after version `v`, or None when they are no
        longer all in the window (or `v` is from the future: the client must resync)."""
        if v > self.v:
            return None
        if v == self.v:
            return []
        if not self._texts or self._texts[0][0] > v + 1:
            return None
        return [text for ev_v, text in self._texts if ev_v > v]

    def resume_at(self, v: int) -> None:
        """A restored room carries on from version `v`, with an empty window: nobody
        can resume into the previous run anyway (the hub's epoch)."""
        self.v = v
        self._texts.clear()
