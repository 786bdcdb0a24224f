"""Building, checking and the JSON of a Nerts position (the round's fields, not the class).

Apart from the round so that the round class stays about play: this is the part a record
and a test position need (cards spelt out, every field checked), and it knows nothing of
the round class itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from app.common.cards import Card, format_cards
from app.common.checks import is_int
from app.nerts.rules.ending import RoundEnd, Termination
from app.nerts.rules.layout import MAX_PLAYERS, WORK_PILES, Foundations, LayoutError, NertsSeat, is_run

__all__ = ["check_position", "parse_foundations", "parse_seats", "parse_state", "state_to_json"]


def parse_seats(seats: Iterable[Any]) -> tuple[NertsSeat, ...]:
    """Seats from NertsSeat objects or {"nerts", "work", "stock", "waste"} mappings."""
    out = []
    for s in seats:
        if isinstance(s, NertsSeat):
            out.append(s)
        elif isinstance(s, Mapping):
            out.append(NertsSeat.from_mapping(s))
        else:
            raise LayoutError(f"a seat must be a layout or a mapping, not {type(s).__name__}")
    return tuple(out)


def parse_foundations(foundations: Iterable[Iterable[Any]]) -> Foundations:
    """Foundation piles from (card, seat) pairs or {"card": ..., "seat": ...} mappings."""
    piles = []
    for i, fpile in enumerate(foundations):
        entries: list[tuple[Card, int]] = []
        for entry in fpile:
            card: Any
            owner: Any
            card, owner = (entry.get("card"), entry.get("seat")) if isinstance(entry, Mapping) else entry
            try:
                entries.append((card if isinstance(card, Card) else Card.parse(card), owner))
            except ValueError as exc:
                raise LayoutError(f"foundation pile {i}: {exc}") from None
        piles.append(tuple(entries))
    return tuple(piles)


def check_position(
    seats: tuple[NertsSeat, ...], foundations: Foundations, absent: frozenset[int], end: RoundEnd | None
) -> None:
    """Raise LayoutError unless this is a well-formed position: 1..8 seats, four work
    piles each and each a run (N6), foundation piles a suit from the ace up (N10), owners
    real seats, no card twice for one owner. A layout need not hold all 52 cards of a
    seat, so a test can state a small position."""
    n = len(seats)
    if not (1 <= n <= MAX_PLAYERS):
        raise LayoutError(f"a round has 1 to {MAX_PLAYERS} seats, not {n}")
    owned: list[set[Card]] = [set() for _ in range(n)]

    def own(seat: int, card: Card, where: str) -> None:
        if card in owned[seat]:
            raise LayoutError(f"seat {seat}: card {card} appears twice (again in {where})")
        owned[seat].add(card)

    for s, st in enumerate(seats):
        if len(st.work) != WORK_PILES:
            raise LayoutError(f"seat {s}: needs {WORK_PILES} work piles, not {len(st.work)}")
        for k, p in enumerate(st.work):
            if not is_run(p):
                raise LayoutError(f"seat {s} work pile {k}: {format_cards(p)} is not a run (N6)")
        for c in st.cards():
            own(s, c, "the layout")
    for i, fpile in enumerate(foundations):
        if not fpile:
            raise LayoutError(f"foundation pile {i} is empty")
        suit = fpile[0][0].suit
        for h, (card, owner) in enumerate(fpile):
            if card.rank != h + 1 or card.suit != suit:
                raise LayoutError(f"foundation pile {i}: {card} cannot be at height {h + 1} of a {suit} pile")
            if not is_int(owner) or not (0 <= owner < n):
                raise LayoutError(f"foundation pile {i}: owner {owner!r} is not a seat")
            own(owner, card, f"foundation pile {i}")
    for a in absent:
        if not is_int(a) or not (0 <= a < n):
            raise LayoutError(f"absent seat {a!r} is not a seat")
    if end is not None:
        if not isinstance(end, RoundEnd) or not isinstance(end.reason, Termination):
            raise LayoutError("end must be a RoundEnd with a Termination reason")
        w = end.winner
        if w is not None and (not is_int(w) or not (0 <= w < n)):
            raise LayoutError(f"winner {w!r} is not a seat")


def state_to_json(
    seats: tuple[NertsSeat, ...],
    foundations: Foundations,
    flags: Mapping[str, Any],
    end: RoundEnd | None,
) -> dict[str, Any]:
    """The canonical full state, hidden cards included (server side and records only).
    `flags`: seed, started, absent, stalled and options, already in JSON form."""
    return {
        "game": "nerts",
        "players": len(seats),
        **flags,
        "end": None if end is None else {"reason": end.reason.value, "winner": end.winner},
        "seats": [st.to_json() for st in seats],
        "foundations": [[{"card": str(c), "seat": o} for c, o in p] for p in foundations],
    }


def parse_state(data: Mapping[str, Any]) -> dict[str, Any]:
    """The checked fields of `state_to_json`'s form (seats and foundations still raw).
    Raises LayoutError, or KeyError/TypeError/ValueError that `NertsRound.from_json`
    turns into one."""
    if data.get("game", "nerts") != "nerts":
        raise LayoutError(f"not a Nerts state: game is {data.get('game')!r}")
    seats = data["seats"]
    end = data.get("end")
    if end is not None:
        if not isinstance(end, Mapping) or not isinstance(end.get("reason"), str):
            raise LayoutError("end must be null or {reason, winner}")
        try:
            reason = Termination(end["reason"])
        except ValueError:
            raise LayoutError(f"unknown end reason {end['reason']!r}") from None
        end = RoundEnd(reason, end.get("winner"))
    seed = data.get("seed")
    if seed is not None and not is_int(seed):
        raise LayoutError(f"seed must be an integer or null, not {seed!r}")
    absent = data.get("absent", [])
    for key in ("started", "stalled"):
        if not isinstance(data.get(key, False), bool):
            raise LayoutError(f"{key} must be true or false")
    if not isinstance(seats, list) or not isinstance(absent, list):
        raise LayoutError("seats and absent must be lists")
    for s in seats:
        if not isinstance(s, Mapping) or not isinstance(s.get("work"), list) or len(s["work"]) != WORK_PILES:
            raise LayoutError(f"every seat needs {WORK_PILES} work piles")
    if "players" in data and data["players"] != len(seats):
        raise LayoutError("players does not match the number of seats")
    return {
        "seats": seats,
        "foundations": data.get("foundations", []),
        "started": data.get("started", False),
        "stalled": data.get("stalled", False),
        "absent": absent,
        "end": end,
        "seed": seed,
        "options": data.get("options", {}),
    }
