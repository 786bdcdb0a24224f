"""Devil's Grip: the position of a deal, the actions, and exact end detection.

The numbers in comments refer to the rules in `shared/rules/devils-grip.md` (the player's
version is `docs/rules.md`). Everything here is pure: a `GripState` is an immutable value,
`apply` returns a new state plus a list of events (frozen dataclasses, JSON by
`app.common.events`) and never changes the old one.

Layout conventions
------------------
* The grid has 24 cells, 3 rows x 8 columns, indexed row-major: ``cell = row * 8 + col``.
* A pile is a tuple of cards from bottom to top; an empty cell is ``()``.
* ``stock`` and ``talon`` are tuples whose *last* element is the top card.

The deal (rules 1-2)
--------------------
The 96 cards start in a fixed order: deck one then deck two, each in suit order
S H D C and, within a suit, ranks 2..K (no aces). They are shuffled by Fisher-Yates with
``SplitMix64(derive_seed(number))``. After shuffling, card ``i`` for ``i < 24`` goes to
cell ``i``; the remaining 72 cards form the stock in the order they will be turned, i.e.
shuffled card 24 is the first card the first deal turns up (it is the stock's top).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, ClassVar, Iterable, Sequence, Union

from app.common.cards import SUITS, Card, CardError
from app.common.checks import is_int
from app.common.errors import GameOver, IllegalAction, InvalidRecord
from app.common.events import Event
from app.common.rng import SplitMix64, derive_seed

ROWS = 3
COLS = 8
CELLS = ROWS * COLS
MAX_PILE = 4
DRAW = 3
PASS_OPTIONS: tuple[int | None, ...] = (1, 3, None)
FULL_DECK_SIZE = 96

# --------------------------------------------------------------------------- cards


def fits(card: Card, onto: Card) -> bool:
    """Rule 3: `card` may lie on `onto` (same suit, exactly three ranks higher)."""
    return card.suit == onto.suit and card.rank == onto.rank + 3


def chain_of(card: Card) -> int:
    """Which building chain a card belongs to: 0 for 2-5-8-J, 1 for 3-6-9-Q, 2 for 4-7-10-K."""
    return (card.rank - 2) % 3


def grip_deck() -> list[Card]:
    """The 96 cards in the documented order before shuffling (see the module docstring)."""
    one = [Card(rank, suit) for suit in SUITS for rank in range(2, 14)]
    return one + list(one)


def is_chain(pile: Sequence[Card]) -> bool:
    """Rule 3: every card of the pile lies legally on the one below it."""
    return len(pile) <= MAX_PILE and all(fits(pile[i + 1], pile[i]) for i in range(len(pile) - 1))


def _card(value: Any) -> Card:
    if isinstance(value, Card):
        return value
    return Card.parse(value)


def _cards(values: Any) -> tuple[Card, ...]:
    if isinstance(values, str):
        return tuple(Card.parse(t) for t in values.split())
    return tuple(_card(v) for v in values)


def _strs(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class DealThree:
    """Rule 8: turn up to three stock cards onto the talon (the last one turned is on top)."""

    type: ClassVar[str] = "deal"

    def to_json(self) -> dict:
        return {"type": "deal"}


@dataclass(frozen=True, slots=True)
class Redeal:
    """Rule 9: with the stock empty, turn the talon over (unshuffled) to form a new stock."""

    type: ClassVar[str] = "redeal"

    def to_json(self) -> dict:
        return {"type": "redeal"}


@dataclass(frozen=True, slots=True)
class TalonToGrid:
    """Rules 3-4: the talon's top card onto the (non-empty) grid pile `dst`."""

    dst: int
    type: ClassVar[str] = "talon"

    def to_json(self) -> dict:
        return {"type": "talon", "dst": self.dst}


@dataclass(frozen=True, slots=True)
class GridToGrid:
    """Rule 4: the top `count` cards of pile `src` move as a unit onto non-empty pile `dst`."""

    src: int
    dst: int
    count: int = 1
    type: ClassVar[str] = "move"

    def to_json(self) -> dict:
        return {"type": "move", "src": self.src, "dst": self.dst, "count": self.count}


@dataclass(frozen=True, slots=True)
class Swap:
    """Rule 5: cells `a` and `b` exchange their whole piles (one of them may be empty).

    `Swap(a, b)` and `Swap(b, a)` do the same thing; `legal_actions` lists each pair once,
    with ``a < b``.
    """

    a: int
    b: int
    type: ClassVar[str] = "swap"

    def to_json(self) -> dict:
        return {"type": "swap", "a": self.a, "b": self.b}


@dataclass(frozen=True, slots=True)
class EndDeal:
    """Rule 10: the player ends the deal. Always allowed while the deal is not over; it is
    not listed by `legal_actions` (which lists only plays), but it is an action so that a
    record replays to exactly the same final state."""

    type: ClassVar[str] = "end"

    def to_json(self) -> dict:
        return {"type": "end"}


GripAction = Union[DealThree, Redeal, TalonToGrid, GridToGrid, Swap, EndDeal]

_ACTION_FIELDS: dict[str, tuple[type, tuple[str, ...]]] = {
    "deal": (DealThree, ()),
    "redeal": (Redeal, ()),
    "talon": (TalonToGrid, ("dst",)),
    "move": (GridToGrid, ("src", "dst", "count")),
    "swap": (Swap, ("a", "b")),
    "end": (EndDeal, ()),
}


def grip_action_to_json(action: GripAction) -> dict:
    """The JSON object for an action, e.g. ``{"type": "move", "src": 3, "dst": 7, "count": 1}``."""
    if not isinstance(action, tuple(cls for cls, _ in _ACTION_FIELDS.values())):
        raise IllegalAction(f"not a Devil's Grip action: {action!r}")
    return action.to_json()


def grip_action_from_json(data: Any) -> GripAction:
    """Parse an action object; raises `IllegalAction` for anything malformed.

    Checked here: it is an object with a known ``type``, exactly the fields of that type,
    cells are integers 0..23 and ``count`` is 1..4. Whether the action is legal in a
    position is `GripState.apply`'s business.
    """
    if not isinstance(data, dict):
        raise IllegalAction("an action must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _ACTION_FIELDS:
        raise IllegalAction(f"unknown action type: {kind!r}")
    cls, names = _ACTION_FIELDS[kind]
    extra = set(data) - {"type", *names}
    if extra:
        raise IllegalAction(f"unexpected field(s) for {kind!r}: {', '.join(sorted(map(str, extra)))}")
    values = {}
    for name in names:
        if name not in data:
            if kind == "move" and name == "count":
                values[name] = 1
                continue
            raise IllegalAction(f"{kind!r} needs the field {name!r}")
        value = data[name]
        if not is_int(value):
            raise IllegalAction(f"{name!r} must be an integer")
        if name == "count":
            if not 1 <= value <= MAX_PILE:
                raise IllegalAction(f"count must be 1..{MAX_PILE}")
        elif not 0 <= value < CELLS:
            raise IllegalAction(f"{name!r} must be a cell 0..{CELLS - 1}")
        values[name] = value
    return cls(**values)


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """Rule 8: `cards` turned from the stock onto the talon, in turning order."""

    type: ClassVar[str] = "deal"
    cards: tuple[Card, ...]
    stock: int
    talon: int


@dataclass(frozen=True, slots=True)
class Redealt(Event):
    """Rule 9: the talon turned over into the stock; pass `passes_used` begins."""

    type: ClassVar[str] = "redeal"
    passes_used: int = field(metadata={"key": "pass"})
    stock: int


@dataclass(frozen=True, slots=True)
class TalonPlayed(Event):
    """Rules 3-4: the talon's top card went onto pile `dst`."""

    type: ClassVar[str] = "talon"
    card: Card
    dst: int


@dataclass(frozen=True, slots=True)
class PileMoved(Event):
    """Rule 4: the top `count` cards of `src` (`cards`, bottom..top) went onto `dst`."""

    type: ClassVar[str] = "move"
    src: int
    dst: int
    count: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Swapped(Event):
    """Rule 5: cells `a` and `b` exchanged their piles."""

    type: ClassVar[str] = "swap"
    a: int
    b: int


@dataclass(frozen=True, slots=True)
class Filled(Event):
    """Rule 7: the emptied `cell` took `card` from the stock or, that being empty, the talon."""

    type: ClassVar[str] = "fill"
    cell: int
    card: Card
    source: str = field(metadata={"key": "from"})  # "stock" | "talon"


@dataclass(frozen=True, slots=True)
class DealEnded(Event):
    """Rule 10 ("rule") or the player ("player") ended the deal; rule 11's score."""

    type: ClassVar[str] = "end"
    by: str
    score: int
    rating: str | None
    won: bool


@dataclass(frozen=True, slots=True)
class Arranged(Event):
    """Rule 6: a won deal's rows, arranged; `grid` is the new grid."""

    type: ClassVar[str] = "arrange"
    grid: tuple[tuple[Card, ...], ...]


GripEvent = Union[Dealt, Redealt, TalonPlayed, PileMoved, Swapped, Filled, DealEnded, Arranged]


# --------------------------------------------------------------------------- helpers


def rating(score: int) -> str | None:
    """Rule 11: "win" for 0, "brilliant" for 1-2, "excellent" up to 5, "good" up to 10."""
    if score <= 0:
        return "win"
    if score <= 2:
        return "brilliant"
    if score <= 5:
        return "excellent"
    if score <= 10:
        return "good"
    return None


def cell_name(cell: int) -> str:
    """A person's name for a cell: row 1-3 and column 1-8, e.g. ``r2c5`` for cell 12."""
    return f"r{cell // COLS + 1}c{cell % COLS + 1}"


def talon_showable(
    stock: Sequence[Card], talon: Sequence[Card], may_redeal: bool
) -> list[Card]:
    """Every card the talon can show from here on by deals and redeals alone (rule 10).

    Nothing but deals and redeals happens in between, so the cycle ignores the grid:
    * the current talon top can be played now;
    * dealing through the rest of the stock shows every third card in turning order,
      plus the last card when the stock does not divide by three;
    * after a redeal the new stock turns in the order ``talon bottom..top`` followed by the
      cards turned from the rest of this pass: one full pass over the same sequence D.
      Another redeal restores exactly the same stock again, so every later pass shows the
      same cards as this one: one extra pass (if allowed at all) is the whole future.
    """
    shown: list[Card] = []
    if talon:
        shown.append(talon[-1])
    order = list(reversed(stock))  # turning order of the rest of this pass
    shown.extend(order[DRAW - 1 :: DRAW])
    if len(order) % DRAW:
        shown.append(order[-1])
    if may_redeal:
        full = list(talon) + order
        shown.extend(full[DRAW - 1 :: DRAW])
        if len(full) % DRAW:
            shown.append(full[-1])
    return shown


# --------------------------------------------------------------------------- state

Grid = tuple[tuple[Card, ...], ...]


@dataclass(frozen=True)
class GripState:
    """One position of a Devil's Grip deal. Build it with `deal`, `from_layout` or
    `from_json`; the plain constructor does not validate.

    Invariant kept by every constructor and by `apply`: a grid cell is empty only when both
    the stock and the talon are empty (rule 7 fills a cell as soon as it empties).
    """

    grid: Grid
    stock: tuple[Card, ...]
    talon: tuple[Card, ...]
    passes_allowed: int | None = None
    passes_used: int = 1
    ended: bool = False

    # ------------------------------------------------------------------ construction

    @classmethod
    def deal(cls, number: int, passes: int | None = None) -> "GripState":
        """Deal `number` (rules 1-2; the order is documented in the module docstring)."""
        if not is_int(number) or not 0 <= number < 1 << 64:
            raise ValueError("a deal number is an integer 0 .. 2**64-1")
        _check_passes(passes, 1)
        cards = grip_deck()
        SplitMix64(derive_seed(number)).shuffle(cards)
        grid = tuple((c,) for c in cards[:CELLS])
        stock = tuple(reversed(cards[CELLS:]))
        state = cls(grid, stock, (), passes, 1, False)
        return state._with_end_detected()

    @classmethod
    def from_layout(
        cls,
        grid: Sequence[Any],
        stock: Any = (),
        talon: Any = (),
        passes: int | None = None,
        passes_used: int = 1,
    ) -> "GripState":
        """A position from explicit cards (``Card`` objects or strings like ``"TS"``; a
        pile may also be one string ``"5S 8S"``). The cards need not be a full double deck
        (tests use small, made-up positions; copies are not counted), but there are no
        aces, 24 cells, and every pile is a valid chain (rule 3).

        Rule 7 is applied at once: each empty cell, in cell order, takes the stock's top
        card, or the talon's when the stock is empty. `ended` is set when rule 10 says the
        deal is over.
        """
        try:
            piles = [list(_cards(p)) for p in grid]
            stock_t = _cards(stock)
            talon_t = _cards(talon)
        except (CardError, TypeError) as exc:
            raise ValueError(f"bad cards in layout: {exc}") from None
        if len(piles) != CELLS:
            raise ValueError(f"the grid has {CELLS} cells, got {len(piles)}")
        _check_passes(passes, passes_used)
        _check_cards(piles, stock_t, talon_t)
        stock_l, talon_l = list(stock_t), list(talon_t)
        for pile in piles:
            if not pile:
                if stock_l:
                    pile.append(stock_l.pop())
                elif talon_l:
                    pile.append(talon_l.pop())
        state = cls(tuple(tuple(p) for p in piles), tuple(stock_l), tuple(talon_l), passes, passes_used, False)
        return state._with_end_detected()

    def _with_end_detected(self) -> "GripState":
        if not self.ended and self._stuck:
            return replace(self, ended=True)
        return self

    # ------------------------------------------------------------------ queries

    @property
    def may_redeal_later(self) -> bool:
        """Whether the pass limit still allows at least one more redeal (rule 9)."""
        return self.passes_allowed is None or self.passes_used < self.passes_allowed

    @property
    def can_redeal(self) -> bool:
        """Whether `Redeal` is legal right now."""
        return not self.ended and not self.stock and bool(self.talon) and self.may_redeal_later

    def score(self) -> int:
        """Rule 11: cards not in the grid (stock + talon); lower is better."""
        return len(self.stock) + len(self.talon)

    @property
    def won(self) -> bool:
        """Every card is in the grid (rule 11: score 0)."""
        return not self.stock and not self.talon

    def cards_in_grid(self) -> int:
        return sum(len(p) for p in self.grid)

    @cached_property
    def _stuck(self) -> bool:
        return _no_card_can_enter(self.grid, self.stock, self.talon, self.may_redeal_later)

    def is_over(self) -> bool:
        """Rule 10, exact: the deal has ended (by the player) or no card can ever enter the
        grid again.

        A card enters the grid only (a) from the talon onto a pile, or (b) into a cell
        emptied by moving a *whole* pile onto another pile (rule 7). Part-pile moves and
        swaps never help: a part-pile move uncovers a top whose successor is the moved
        card's twin, which already fitted where the moved card went, and it leaves the set
        of pile bottoms unchanged; swaps change neither tops nor bottoms. So the deal goes
        on exactly when some whole pile's bottom card fits on another pile's top, or some
        card the talon can still show (`talon_showable`: the current pass, and one more
        pass if a redeal is allowed — later passes repeat it) fits on a pile's top.

        Empty cells: by the invariant a cell is empty only when stock and talon are both
        empty, and then no card can ever enter: the deal is over (moving a pile into an
        empty cell or onto another pile brings nothing in).
        """
        return self.ended or self._stuck

    def legal_actions(self, *, swaps: bool = True) -> list[GripAction]:
        """Every legal play (deal, redeal, talon, move, and swaps unless ``swaps=False``),
        in that order. Empty once the deal is over. `EndDeal` is not listed: it is always
        allowed while the deal is not over."""
        if self.ended:
            return []
        grid = self.grid
        out: list[GripAction] = []
        if self.stock:
            out.append(DealThree())
        elif self.talon and self.may_redeal_later:
            out.append(Redeal())
        tops = [(i, p[-1]) for i, p in enumerate(grid) if p]
        if self.talon:
            t = self.talon[-1]
            out.extend(TalonToGrid(i) for i, top in tops if fits(t, top))
        for src, pile in enumerate(grid):
            n = len(pile)
            for count in range(1, n + 1):
                card = pile[n - count]
                for dst, top in tops:
                    if dst != src and fits(card, top):
                        out.append(GridToGrid(src, dst, count))
        if swaps:
            for a in range(CELLS):
                for b in range(a + 1, CELLS):
                    if grid[a] or grid[b]:
                        out.append(Swap(a, b))
        return out

    def hint(self) -> GripAction | None:
        """A next step towards bringing a card into the grid, or None when the deal is over.

        In order of preference: the talon's top card onto a pile; a whole-pile move onto
        another pile (its cell is refilled from the stock or talon); otherwise some card
        the talon can still show fits, so deal (or redeal when the stock is empty).
        Following the hints repeatedly brings a card in: deals and redeals walk the talon
        cycle, which reaches the fitting card within the allowed passes.
        """
        if self.is_over():
            return None
        tops = [(i, p[-1]) for i, p in enumerate(self.grid) if p]
        if self.talon:
            t = self.talon[-1]
            for i, top in tops:
                if fits(t, top):
                    return TalonToGrid(i)
        for src, pile in enumerate(self.grid):
            if pile:
                for dst, top in tops:
                    if dst != src and fits(pile[0], top):
                        return GridToGrid(src, dst, len(pile))
        if self.stock:
            return DealThree()
        if self.can_redeal:
            return Redeal()
        return None  # unreachable while not over; kept for safety

    # ------------------------------------------------------------------ apply

    def apply(self, action: GripAction) -> tuple["GripState", list[GripEvent]]:
        """Validate and play `action`; return the new state and the events.

        Raises `GameOver` after the end, `IllegalAction` for anything against the rules;
        this state is never changed. Events (`GripEvent`; `to_json()` gives the wire
        form): `Dealt`, `Redealt`, `TalonPlayed`, `PileMoved`, `Swapped`, `Filled` (rule 7:
        the card that refilled an emptied cell and where it came from), and a final
        `DealEnded` when the deal ends (by the player or by rule 10), with score, rating
        and won. When the play wins the deal, the rows are arranged at once (rule 6, see
        `arranged`) and an `Arranged` event carries the new grid.
        """
        if self.ended:
            raise GameOver("the deal is over")
        events: list[GripEvent]
        if isinstance(action, DealThree):
            new, events = self._deal_three()
        elif isinstance(action, Redeal):
            new, events = self._redeal()
        elif isinstance(action, TalonToGrid):
            new, events = self._talon_to_grid(action)
        elif isinstance(action, GridToGrid):
            new, events = self._grid_to_grid(action)
        elif isinstance(action, Swap):
            new, events = self._swap(action)
        elif isinstance(action, EndDeal):
            new = replace(self, ended=True)
            return new, [new._end_event("player")]
        else:
            raise IllegalAction(f"not a Devil's Grip action: {action!r}")
        if new._stuck:
            new = replace(new, ended=True)
            events.append(new._end_event("rule"))
            if new.won:  # rule 6: the app arranges the rows of a won deal itself
                try:
                    tidy = new.arranged()
                except IllegalAction:  # a made-up position whose piles cannot fill the rows
                    tidy = new
                if tidy.grid != new.grid:
                    new = tidy
                    events.append(Arranged(new.grid))
        return new, events

    def _end_event(self, by: str) -> DealEnded:
        s = self.score()
        return DealEnded(by, s, rating(s), self.won)

    def _deal_three(self) -> tuple["GripState", list[GripEvent]]:
        if not self.stock:
            if self.talon and self.may_redeal_later:
                raise IllegalAction("the stock is empty: redeal the talon first")
            raise IllegalAction("the stock is empty")
        n = min(DRAW, len(self.stock))
        turned = self.stock[::-1][:n]  # turning order: top of the stock first
        new = replace(self, stock=self.stock[:-n], talon=self.talon + turned)
        return new, [Dealt(turned, len(new.stock), len(new.talon))]

    def _redeal(self) -> tuple["GripState", list[GripEvent]]:
        if self.stock:
            raise IllegalAction("redeal only when the stock is empty")
        if not self.talon:
            raise IllegalAction("there is no talon to turn over")
        if not self.may_redeal_later:
            raise IllegalAction(f"no more redeals: {self.passes_allowed} pass(es) allowed")
        new = replace(self, stock=self.talon[::-1], talon=(), passes_used=self.passes_used + 1)
        return new, [Redealt(new.passes_used, len(new.stock))]

    def _cell(self, value: Any, what: str) -> int:
        if not is_int(value) or not 0 <= value < CELLS:
            raise IllegalAction(f"{what} must be a cell 0..{CELLS - 1}, got {value!r}")
        return value

    def _talon_to_grid(self, action: TalonToGrid) -> tuple["GripState", list[GripEvent]]:
        dst = self._cell(action.dst, "dst")
        if not self.talon:
            raise IllegalAction("the talon is empty")
        card = self.talon[-1]
        pile = self.grid[dst]
        if not pile:
            raise IllegalAction("a talon card never goes into an empty cell")
        if not fits(card, pile[-1]):
            raise IllegalAction(f"{card} does not go on {pile[-1]}")
        grid = list(self.grid)
        grid[dst] = pile + (card,)
        new = replace(self, grid=tuple(grid), talon=self.talon[:-1])
        return new, [TalonPlayed(card, dst)]

    def _grid_to_grid(self, action: GridToGrid) -> tuple["GripState", list[GripEvent]]:
        src = self._cell(action.src, "src")
        dst = self._cell(action.dst, "dst")
        count = action.count
        if src == dst:
            raise IllegalAction("a pile cannot move onto itself")
        pile = self.grid[src]
        if not pile:
            raise IllegalAction("that cell is empty")
        if not is_int(count) or not 1 <= count <= len(pile):
            raise IllegalAction(f"count must be 1..{len(pile)} for that pile")
        target = self.grid[dst]
        if not target:
            raise IllegalAction("moving a pile into an empty cell is a swap")
        run = pile[len(pile) - count :]
        if not fits(run[0], target[-1]):
            raise IllegalAction(f"{run[0]} does not go on {target[-1]}")
        grid = list(self.grid)
        grid[dst] = target + run
        grid[src] = pile[: len(pile) - count]
        events: list[GripEvent] = [PileMoved(src, dst, count, run)]
        stock, talon = self.stock, self.talon
        if not grid[src]:  # rule 7, with the talon fallback (decision)
            if stock:
                grid[src] = (stock[-1],)
                stock = stock[:-1]
                events.append(Filled(src, grid[src][0], "stock"))
            elif talon:
                grid[src] = (talon[-1],)
                talon = talon[:-1]
                events.append(Filled(src, grid[src][0], "talon"))
        return replace(self, grid=tuple(grid), stock=stock, talon=talon), events

    def _swap(self, action: Swap) -> tuple["GripState", list[GripEvent]]:
        a = self._cell(action.a, "a")
        b = self._cell(action.b, "b")
        if a == b:
            raise IllegalAction("a cell cannot swap with itself")
        if not self.grid[a] and not self.grid[b]:
            raise IllegalAction("both cells are empty")
        grid = list(self.grid)
        grid[a], grid[b] = grid[b], grid[a]
        # By the invariant an empty cell means stock and talon are empty: no refill needed.
        return replace(self, grid=tuple(grid)), [Swapped(a, b)]

    # ------------------------------------------------------------------ arrangement

    def arranged(self) -> "GripState":
        """Rule 6: a won deal with its rows arranged: 2-based piles (ending in J) in the top
        row, 3-based in the middle, 4-based at the bottom; within a row by suit S H D C,
        twins side by side in their current cell order. Raises `IllegalAction` when the
        piles cannot fill the rows that way (the deal is not won)."""
        rows: list[list[tuple[int, int, tuple[Card, ...]]]] = [[], [], []]
        for i, pile in enumerate(self.grid):
            if not pile:
                raise IllegalAction("only a won deal is arranged")
            rows[chain_of(pile[0])].append((SUITS.index(pile[0].suit), i, pile))
        if any(len(r) != COLS for r in rows):
            raise IllegalAction("only a won deal is arranged")
        grid = tuple(p for r in rows for _, _, p in sorted(r, key=lambda x: (x[0], x[1])))
        return replace(self, grid=grid)

    # ------------------------------------------------------------------ JSON

    def view(self) -> dict:
        """What the browser may see: piles, counts, the top three talon cards (bottom..top;
        they were face up when turned) and never the stock's order."""
        s = self.score()
        over = self.is_over()
        out = {
            "grid": [_strs(p) for p in self.grid],
            "stock": len(self.stock),
            "talon": _strs(self.talon[-DRAW:]),
            "talon_count": len(self.talon),
            "passes_allowed": self.passes_allowed,
            "passes_used": self.passes_used,
            "can_redeal": self.can_redeal,
            "score": s,
            "rating": rating(s),
            "ended": self.ended,
            "over": over,
            "won": self.won,
        }
        return out

    def to_json(self) -> dict:
        """The full canonical state (stock order included): for storage, never for players."""
        return {
            "grid": [_strs(p) for p in self.grid],
            "stock": _strs(self.stock),
            "talon": _strs(self.talon),
            "passes_allowed": self.passes_allowed,
            "passes_used": self.passes_used,
            "ended": self.ended,
        }

    @classmethod
    def from_json(cls, data: Any) -> "GripState":
        """Inverse of `to_json`; raises `InvalidRecord` for anything malformed or
        inconsistent (including an empty cell beside a non-empty stock or talon)."""
        if not isinstance(data, dict):
            raise InvalidRecord("a state must be a JSON object")
        need = {"grid", "stock", "talon", "passes_allowed", "passes_used", "ended"}
        if set(data) != need:
            raise InvalidRecord(f"a state has exactly the fields {sorted(need)}")
        if not isinstance(data["ended"], bool):
            raise InvalidRecord("'ended' must be true or false")
        state = state_from_parts(data["grid"], data["stock"], data["talon"], data["passes_allowed"], data["passes_used"])
        if data["ended"]:
            state = replace(state, ended=True)
        elif state.ended:
            raise InvalidRecord("the state is over but not marked ended")
        return state


def state_from_parts(grid: Any, stock: Any, talon: Any, passes: Any, passes_used: Any) -> GripState:
    """Strictly validated state from JSON parts (lists of card strings); `InvalidRecord`
    on any problem. Unlike `from_layout`, empty cells are not filled: they are an error
    while the stock or talon holds a card."""
    if not isinstance(grid, list) or not all(isinstance(p, list) for p in grid):
        raise InvalidRecord("'grid' must be a list of 24 lists of cards")
    for part in (stock, talon):
        if not isinstance(part, list):
            raise InvalidRecord("'stock' and 'talon' must be lists of cards")
    for value in [c for p in grid for c in p] + stock + talon:
        if not isinstance(value, str):
            raise InvalidRecord("cards must be strings like 'TS'")
    if passes is not None and not is_int(passes):
        raise InvalidRecord("'passes' must be an integer or null")
    if not is_int(passes_used):
        raise InvalidRecord("'passes_used' must be an integer")
    if (stock or talon) and any(not p for p in grid):
        raise InvalidRecord("an empty cell while the stock or talon has cards breaks rule 7")
    try:
        return GripState.from_layout(grid, stock, talon, passes, passes_used)
    except ValueError as exc:  # CardError is a ValueError too
        raise InvalidRecord(str(exc)) from None


def _check_passes(passes: Any, passes_used: Any) -> None:
    if passes is not None and (not is_int(passes) or passes < 1):
        raise ValueError("passes must be a positive integer (1 or 3) or None for unlimited")
    if not is_int(passes_used) or passes_used < 1:
        raise ValueError("passes_used must be at least 1 (the first pass counts)")
    if passes is not None and passes_used > passes:
        raise ValueError("passes_used exceeds the pass limit")


def _check_cards(piles: list[list[Card]], stock: tuple[Card, ...], talon: tuple[Card, ...]) -> None:
    for pile in piles:
        if len(pile) > MAX_PILE or not is_chain(pile):
            raise ValueError(f"not a valid pile (rule 3): {' '.join(map(str, pile))}")
    for c in [c for p in piles for c in p] + list(stock) + list(talon):
        if c.rank == 1:
            raise ValueError("Devil's Grip has no aces")


def _no_card_can_enter(grid: Grid, stock: tuple[Card, ...], talon: tuple[Card, ...], may_redeal: bool) -> bool:
    """Rule 10 end detection (see `GripState.is_over` for the argument)."""
    if not stock and not talon:
        return True
    wanted: set[tuple[str, int]] = set()  # (suit, rank) of every card that fits on some top
    for pile in grid:
        if pile:
            top = pile[-1]
            if top.rank <= 10:
                wanted.add((top.suit, top.rank + 3))
    if not wanted:
        return True
    for pile in grid:
        if pile:
            bottom = pile[0]
            if (bottom.suit, bottom.rank) in wanted:
                # A pile's bottom never fits on its own top (bottom rank <= top rank),
                # so this is a move onto another pile.
                return False
    for card in talon_showable(stock, talon, may_redeal):
        if (card.suit, card.rank) in wanted:
            return False
    return True
