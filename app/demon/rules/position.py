"""A Demon position from explicit cards or JSON, its checks, and its canonical JSON.

Kept apart from the round's rules because this is about what a well-formed position
*is* (for tests, replays, saved rooms), not about what a seat may do in one. The round
(`DemonRound.from_layout`, `validate`, `to_json`, `from_json`) calls these with its
fields; they know nothing of the round class itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from app.common.cards import Card, CardError, format_cards
from app.common.checks import is_int
from app.demon.rules.ending import RoundEnd, Termination
from app.demon.rules.layout import MAX_PLAYERS, PILES, Foundations, LayoutError, SeatState, is_run

__all__ = ["check_position", "parse_foundations", "parse_seats", "parse_state", "state_to_json"]


def parse_seats(seats: Iterable[Any]) -> tuple[SeatState, ...]:
    """SeatState objects, or mappings {"tableau": [...], "stock": ..., "waste": ...}."""
    seat_list = []
    for i, s in enumerate(seats):
        if isinstance(s, SeatState):
            seat_list.append(s)
        elif isinstance(s, Mapping):
            seat_list.append(SeatState.parse(s.get("tableau", ()), s.get("stock", ()), s.get("waste", ())))
        else:
            raise LayoutError(f"seat {i}: expected a SeatState or a mapping")
    return tuple(seat_list)


def parse_foundations(foundations: Iterable[Iterable[Any]]) -> Foundations:
    """Piles of (card, seat) pairs or {"card": ..., "seat": ...} mappings; the owners are
    checked later, by `check_position`."""
    piles = []
    for i, fpile in enumerate(foundations):
        entries: list[tuple[Card, int]] = []
        for entry in fpile:
            card: Any  # a Card or its text; anything else is refused
            owner: Any  # a seat, checked by `check_position`
            if isinstance(entry, Mapping):
                card, owner = entry.get("card"), entry.get("seat")
            else:
                try:
                    card, owner = entry
                except (TypeError, ValueError):
                    raise LayoutError(f"foundation pile {i}: bad entry {entry!r}") from None
            if not isinstance(card, Card):
                try:
                    card = Card.parse(card)
                except CardError as exc:
                    raise LayoutError(f"foundation pile {i}: {exc}") from None
            entries.append((card, owner))
        piles.append(tuple(entries))
    return tuple(piles)


def check_position(
    seats: tuple[SeatState, ...], foundations: Foundations, absent: frozenset[int], end: RoundEnd | None
) -> None:
    """Raise LayoutError unless this is a well-formed position: 1..8 seats, 7 piles each,
    no face-down card on top of a pile, face-up cards form a run (descending, alternating
    colours), foundation piles are a suit from the ace up, owners are real seats, and no
    card appears twice for one owner. A layout need not hold all 52 cards of a seat
    (small test positions)."""
    n = len(seats)
    if not (1 <= n <= MAX_PLAYERS):
        raise LayoutError(f"a round has 1 to {MAX_PLAYERS} seats, not {n}")
    owned: list[set[Card]] = [set() for _ in range(n)]

    def own(seat: int, card: Card, where: str) -> None:
        if card in owned[seat]:
            raise LayoutError(f"seat {seat}: card {card} appears twice (again in {where})")
        owned[seat].add(card)

    for s, st in enumerate(seats):
        if len(st.tableau) != PILES:
            raise LayoutError(f"seat {s}: needs {PILES} tableau piles, not {len(st.tableau)}")
        for k, p in enumerate(st.tableau):
            if p.down and not p.up:
                raise LayoutError(f"seat {s} pile {k}: a face-down card is on top")
            if not is_run(p.up):
                raise LayoutError(
                    f"seat {s} pile {k}: face-up cards {format_cards(p.up)} "
                    "are not a descending run of alternating colours"
                )
            for c in p.down + p.up:
                own(s, c, f"pile {k}")
        for c in st.stock:
            own(s, c, "stock")
        for c in st.waste:
            own(s, c, "waste")
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
    seats: tuple[SeatState, ...],
    foundations: Foundations,
    started: bool,
    absent: frozenset[int],
    end: RoundEnd | None,
    seed: int | None,
) -> dict[str, Any]:
    """The canonical full state, hidden cards included (server side only)."""
    return {
        "players": len(seats),
        "seed": seed,
        "started": started,
        "absent": sorted(absent),
        "end": None if end is None else {"reason": end.reason.value, "winner": end.winner},
        "seats": [
            {
                "tableau": [{"down": [str(c) for c in p.down], "up": [str(c) for c in p.up]} for p in st.tableau],
                "stock": [str(c) for c in st.stock],
                "waste": [str(c) for c in st.waste],
            }
            for st in seats
        ],
        "foundations": [[{"card": str(c), "seat": o} for c, o in p] for p in foundations],
    }


def parse_state(data: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of `DemonRound.from_layout` for `state_to_json`'s form. Raises
    LayoutError, or KeyError, TypeError or ValueError on malformed input, which
    `DemonRound.from_json` (that also checks the layout) turns into a LayoutError."""
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
    started = data.get("started", False)
    if not isinstance(started, bool):
        raise LayoutError("started must be true or false")
    if not isinstance(seats, list) or not isinstance(absent, list):
        raise LayoutError("seats and absent must be lists")
    for s in seats:
        if not isinstance(s, Mapping) or not isinstance(s.get("tableau"), list) or len(s["tableau"]) != PILES:
            raise LayoutError(f"every seat needs a tableau of {PILES} piles")
    if "players" in data and data["players"] != len(seats):
        raise LayoutError("players does not match the number of seats")
    return {
        "seats": seats,
        "foundations": data.get("foundations", []),
        "started": started,
        "absent": absent,
        "end": end,
        "seed": seed,
    }
