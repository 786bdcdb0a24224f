"""A racing round's record (Demon's or Nerts') as the frames a replay viewer shows: the
table at the signal, then one frame per recorded entry, built by replaying the record
through the engine here on the server, so the browser holds no rule of either game.

Each move frame has the shape of the live `move` event (docs/protocol.md, "Events"):
the mover's seat view and the foundation piles it changed, so the browser's own reducer
steps the table forward exactly as it does in a room, and a viewer keeps every table it
made to step back or jump. Views are the public ones (face-down cards as counts), the
same a player saw during the round. A Nerts stall adds a frame shaped like the live
`stall` event after the move or absence that caused it. `stuck` is left empty: telling
it needs the stuck search, far too slow for every frame of a long round, and the live
table shows it only for seats that went through their stock.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app import racing
from app.common.errors import EngineError, InvalidRecord
from app.common.records import check_header, record_times
from app.racing import RaceGame, RaceRound

__all__ = ["race_frames", "round_view"]


def _foundation(index: int, pile: Any) -> dict[str, Any]:
    card, owner = pile[-1]
    return {"pile": index, "top": str(card), "seat": owner, "count": len(pile)}


def round_view(rnd: RaceRound, game: RaceGame) -> dict[str, Any]:
    """The whole table as the live `round` view has it (app/demon/room/views.py)."""
    return {
        "seats": [rnd.seat_view(s) for s in range(len(rnd.seats))],
        "foundations": [_foundation(i, pile) for i, pile in enumerate(rnd.foundations)],
        "stuck": [],
        "absent": sorted(rnd.absent),
        "votes": [],
        "cards_home": list(rnd.foundation_counts()),
        **game.view_extras(rnd),
    }


def race_frames(record: Mapping[str, Any]) -> dict[str, Any]:
    """{"initial": the table at the signal, "frames": one per entry (and one per stall),
    "final": the last table, "end": {"reason", "winner"} or None, "scores": per seat},
    and `game` for a game other than Demon (a Demon answer is as it always was). A
    frame's `at` is its time in seconds after the signal (None when the record has no
    times for it). Raises InvalidRecord for a record that does not replay."""
    name = check_header(record)
    if name not in racing.GAMES:
        raise InvalidRecord(f"a {name!r} record is not a racing round")
    game = racing.game(name)
    state = game.record_initial(record)
    times = record_times(record)
    if not state.started:
        state = state.start()
    initial = round_view(state, game)
    frames: list[dict[str, Any]] = []
    for i, entry in enumerate(record["actions"]):
        at = times[i]
        try:
            kind = entry.get("type") if isinstance(entry, Mapping) else None
            if kind == "finish":
                state, events = state.finish(entry["reason"])
                frames.append({"kind": "finish", "reason": entry["reason"], "at": at})
            elif kind == "absent":
                state, events = state.with_absent(entry["seat"], entry["absent"])
                frames.append({"kind": "absent", "absent": sorted(state.absent), "stuck": [], "at": at})
            else:
                action = game.action_from_json(entry)
                state, events = state.apply(action)
                frames.append(
                    {
                        "kind": "move",
                        "seat": action.seat,
                        "action": {k: v for k, v in entry.items() if k != "seat"},
                        "engine": [e.to_json() for e in events],
                        "seat_view": state.seat_view(action.seat),
                        "foundations": [
                            _foundation(e.pile, state.foundations[e.pile]) for e in game.foundation_plays(events)
                        ],
                        "stuck": [],
                        "cards_home": list(state.foundation_counts()),
                        "at": at,
                    }
                )
            frames.extend({**notice, "at": at} for notice in game.notices(state, events))
        except (EngineError, KeyError, TypeError, ValueError) as exc:
            raise InvalidRecord(f"action {i}: {exc}", index=i) from None
    end = None if state.end is None else {"reason": state.end.reason.value, "winner": state.end.winner}
    answer: dict[str, Any] = {
        "initial": initial,
        "frames": frames,
        "final": round_view(state, game),
        "end": end,
        "scores": list(state.scores()),
    }
    if game.name != "demon":
        answer = {"game": game.name, **answer}
    return answer
