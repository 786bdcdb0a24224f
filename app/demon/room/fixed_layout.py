"""Testing only: every Demon round of a server starts from one fixed layout.

`DEMON_TEST_LAYOUT` names a JSON file holding a Demon round in `DemonRound.to_json()`'s
form: its `seats` and, optionally, its `foundations` (a round already well on its way,
so a test can reach a "Demon!" in two plays). Each seat must own a whole deck of 52
cards, counting the foundation cards it owns. A round of n players takes the file's
first n seats; seats past the end of the file are dealt from the round's seed as usual;
the foundations are kept only when every card on them belongs to one of the n seats.
The browser tests use it to reach positions a seeded deal does not give at once (a pile
of twelve face-up cards, a seat that is stuck from the deal, a round about to be won).
"""

from __future__ import annotations

import json
from pathlib import Path

from app.common.cards import standard_deck
from app.demon.rules.layout import LayoutError, deal_seat
from app.demon.rules.round import DemonRound


def load_test_layout(path: Path | str | None) -> DemonRound | None:
    """The round in the file at `path` (None: no test layout). Raises LayoutError when
    the file is not a valid round or a seat does not own exactly one whole deck."""
    if path is None:
        return None
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(data, dict):
        template = DemonRound.from_json({"seats": data.get("seats"), "foundations": data.get("foundations", [])})
    else:
        template = DemonRound.from_json({"seats": data})
    deck = sorted(standard_deck(), key=str)
    for s, seat in enumerate(template.seats):
        home = [card for pile in template.foundations for card, owner in pile if owner == s]
        if sorted(list(seat.cards()) + home, key=str) != deck:
            raise LayoutError(f"test layout seat {s}: must hold each of the 52 cards once")
    return template


def layout_round(template: DemonRound, seed: int, players: int) -> DemonRound:
    """A fresh, not yet started round of `players` seats from the template's seats (and
    its foundations, when all their cards belong to those seats)."""
    seats = list(template.seats[:players])
    seats += [deal_seat(seed, s) for s in range(len(seats), players)]
    owners = {owner for pile in template.foundations for _card, owner in pile}
    foundations = template.foundations if all(o < players for o in owners) else ()
    return DemonRound(seats=tuple(seats), foundations=foundations, seed=seed)
