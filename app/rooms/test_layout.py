"""Testing only: every Demon round of a server starts from one fixed layout.

`DEMON_TEST_LAYOUT` names a JSON file holding a Demon round in `DemonRound.to_json()`'s
form (only its `seats` matter; each seat must hold a whole deck of 52 cards). A round of
n players takes the file's first n seats; seats past the end of the file are dealt from
the round's seed as usual. The browser tests use it to reach positions a seeded deal
does not give at once (a pile of twelve face-up cards, for instance).
"""

from __future__ import annotations

import json
from pathlib import Path

from app.engine.cards import standard_deck
from app.engine.demon import DemonRound
from app.engine.demon_layout import LayoutError, deal_seat


def load_test_layout(path: Path | str | None) -> DemonRound | None:
    """The round in the file at `path` (None: no test layout). Raises LayoutError when
    the file is not a valid round or a seat does not hold exactly one whole deck."""
    if path is None:
        return None
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    template = DemonRound.from_json({"seats": data.get("seats") if isinstance(data, dict) else data})
    deck = sorted(standard_deck(), key=str)
    for s, seat in enumerate(template.seats):
        if sorted(seat.cards(), key=str) != deck:
            raise LayoutError(f"test layout seat {s}: must hold each of the 52 cards once")
    return template


def layout_round(template: DemonRound, seed: int, players: int) -> DemonRound:
    """A fresh, not yet started round of `players` seats from the template's seats."""
    seats = list(template.seats[:players])
    seats += [deal_seat(seed, s) for s in range(len(seats), players)]
    return DemonRound(seats=tuple(seats), seed=seed)
