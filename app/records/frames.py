"""A Demon record as the frames a replay viewer shows: the table at the
signal, then one frame per recorded entry, built by replaying the record through the
engine here on the server, so the browser holds no Demon rule.

Each move frame has the shape of the live `move` event (docs/protocol.md, "Events"):
the mover's seat view and the foundation piles it changed, so the browser's own reducer
(static/demon/demon-model.js `applyEvent`) steps the table forward exactly as it does
in a room, and a viewer keeps every table it made to step back or jump. Views are the
public ones (face-down cards as counts), the same a player saw during the round.
`stuck` is left empty: telling it needs the stuck search, far too slow for every frame
of a long round, and the live table shows it only for seats that went through their
stock.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.common.errors import EngineError, InvalidRecord
from app.demon.rules.actions import action_from_json
from app.demon.rules.events import Played
from app.demon.rules.record import demon_initial, record_times
from app.demon.rules.round import DemonRound

__all__ = ["demon_frames", "round_view"]


def _foundation(index: int, pile: Any) -> dict[str, Any]:
    card, owner = pile[-1]
    return {"pile": index, "top": str(card), "seat": owner, "count": len(pile)}


def round_view(rnd: DemonRound) -> dict[str, Any]:
    """The whole table as the live `round` view has it (app/demon/room/views.py)."""
    return {
        "seats": [rnd.seat_view(s) for s in range(len(rnd.seats))],
        "foundations": [_foundation(i, pile) for i, pile in enumerate(rnd.foundations)],
        "stuck": [],
        "absent": sorted(rnd.absent),
        "votes": [],
        "cards_home": list(rnd.foundation_counts()),
    }


def demon_frames(record: Mapping[str, Any]) -> dict[str, Any]:
    """{"initial": the table at the signal, "frames": one per entry, "final": the last
    table, "end": {"reason", "winner"} or None, "scores": per seat}. A frame's `at` is
    its time in seconds after the signal (None when the record has no times for it).
    Raises InvalidRecord like `replay_demon` for a record that does not replay."""
    state = demon_initial(record)
    times = record_times(record)
    if not state.started:
        state = state.start()
    initial = round_view(state)
    frames: list[dict[str, Any]] = []
    for i, entry in enumerate(record["actions"]):
        at = times[i]
        try:
            kind = entry.get("type") if isinstance(entry, Mapping) else None
            if kind == "finish":
                state, _ = state.finish(entry["reason"])
                frames.append({"kind": "finish", "reason": entry["reason"], "at": at})
            elif kind == "absent":
                state, _ = state.with_absent(entry["seat"], entry["absent"])
                frames.append({"kind": "absent", "absent": sorted(state.absent), "stuck": [], "at": at})
            else:
                action = action_from_json(entry)
                state, events = state.apply(action)
                frames.append(
                    {
                        "kind": "move",
                        "seat": action.seat,
                        "action": {k: v for k, v in entry.items() if k != "seat"},
                        "engine": [e.to_json() for e in events],
                        "seat_view": state.seat_view(action.seat),
                        "foundations": [
                            _foundation(e.pile, state.foundations[e.pile]) for e in events if isinstance(e, Played)
                        ],
                        "stuck": [],
                        "cards_home": list(state.foundation_counts()),
                        "at": at,
                    }
                )
        except (EngineError, KeyError, TypeError) as exc:
            raise InvalidRecord(f"action {i}: {exc}", index=i) from None
    end = None if state.end is None else {"reason": state.end.reason.value, "winner": state.end.winner}
    return {
        "initial": initial,
        "frames": frames,
        "final": round_view(state),
        "end": end,
        "scores": list(state.scores()),
    }
