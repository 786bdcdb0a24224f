"""What one Demon action does to a seat's layout and the foundations (rules 5-14).

Each function takes the acting seat's layout (and, for a foundation play, the
foundations), checks the action against them, and returns the new values, appending the
events the action caused; it raises `IllegalAction` (or `RaceLost`) and changes nothing
when the action is not legal. `DemonRound.apply` checks what concerns the whole round
(started, ended, absent) and puts the new values into a new round.

Draw and recycle (rules 5, 6): a draw moves stock[-1], stock[-2], stock[-3] (fewer if
fewer remain) onto the waste in that order; the last one moved is the new waste top. A
recycle (stock empty, waste not) makes the stock the reversed waste, so the card drawn
first in the pass that just ended is drawn first again.

Foundation plays (rules 11-14): `ToFoundation(pile=None)` plays on the first pile
(lowest index) that accepts the card. An ace always starts a new pile at index
len(foundations); the pile an ace names is only a hint and is not checked (two players
putting down aces at once both "asked for a new pile"). A play aimed at a pile that
*once* accepted a card of that suit and rank raises RaceLost naming that pile and the
seat whose card sits at that height; with pile=None the same applies when no pile
accepts the card but one was taken.
"""

from __future__ import annotations

from app.common.cards import Card, opposite_colour
from app.common.errors import IllegalAction, RaceLost
from app.demon.rules.actions import ToFoundation, ToTableau
from app.demon.rules.events import DemonEvent, Drew, Moved, Played, Recycled, TurnedUp
from app.demon.rules.layout import Foundations, Pile, SeatState

__all__ = ["draw", "recycle", "to_foundation", "to_tableau"]


def draw(seat: int, st: SeatState, events: list[DemonEvent]) -> SeatState:
    """Rule 5: up to three cards from the stock onto the waste."""
    if not st.stock:
        raise IllegalAction(
            "the stock is empty: recycle the waste instead" if st.waste else "there is nothing left to draw"
        )
    n = min(3, len(st.stock))
    moved = tuple(reversed(st.stock[-n:]))
    new = SeatState(st.tableau, st.stock[:-n], st.waste + moved)
    events.append(Drew(seat, n, new.waste[-3:], len(new.stock), len(new.waste)))
    return new


def recycle(seat: int, st: SeatState, events: list[DemonEvent]) -> SeatState:
    """Rule 6: an empty stock is refilled from the waste, turned over."""
    if st.stock:
        raise IllegalAction("the stock is not empty yet: recycle only an empty stock")
    if not st.waste:
        raise IllegalAction("stock and waste are both empty: there is nothing to recycle")
    new = SeatState(st.tableau, tuple(reversed(st.waste)), ())
    events.append(Recycled(seat, len(new.stock)))
    return new


def to_tableau(seat: int, st: SeatState, a: ToTableau, events: list[DemonEvent]) -> SeatState:
    """Rules 7-9: the waste's top card, or a pile's top `count` face-up cards, onto a pile."""
    piles = list(st.tableau)
    dst = piles[a.dst]
    waste = st.waste
    turned: Card | None = None
    cards: tuple[Card, ...]
    if isinstance(a.src, str):  # the waste (the only source that is not a pile index)
        if not waste:
            raise IllegalAction("the waste is empty")
        cards = (waste[-1],)
        _check_builds(dst, cards[0], a.dst)
        waste = waste[:-1]
    else:
        src_pile = a.src
        src = piles[src_pile]
        if a.count > len(src.up):
            raise IllegalAction(f"pile {src_pile} has {len(src.up)} face-up card(s), cannot move {a.count}")
        cards = src.up[-a.count :]
        _check_builds(dst, cards[0], a.dst)
        piles[src_pile], turned = _turn_up(Pile(src.down, src.up[: -a.count]))
    piles[a.dst] = Pile(dst.down, dst.up + cards)
    events.append(Moved(seat, a.src, a.dst, cards))
    if turned is not None and not isinstance(a.src, str):
        events.append(TurnedUp(seat, a.src, turned))
    return SeatState(tuple(piles), st.stock, waste)


def to_foundation(
    seat: int, st: SeatState, a: ToFoundation, foundations: Foundations, events: list[DemonEvent]
) -> tuple[SeatState, Foundations]:
    """Rules 11-14: the top card of the waste or of a pile onto a foundation pile."""
    piles = list(st.tableau)
    waste = st.waste
    turned: Card | None = None
    if isinstance(a.src, str):  # the waste (the only source that is not a pile index)
        if not waste:
            raise IllegalAction("the waste is empty")
        card = waste[-1]
        target = _resolve_foundation(foundations, card, a.pile)
        waste = waste[:-1]
    else:
        src = piles[a.src]
        if not src.up:
            raise IllegalAction(f"pile {a.src} is empty")
        card = src.up[-1]
        target = _resolve_foundation(foundations, card, a.pile)
        piles[a.src], turned = _turn_up(Pile(src.down, src.up[:-1]))
    fnd = list(foundations)
    new_pile = target == len(fnd)
    if new_pile:
        fnd.append(((card, seat),))
    else:
        fnd[target] = fnd[target] + ((card, seat),)
    events.append(Played(seat, a.src, card, target, new_pile))
    if turned is not None and not isinstance(a.src, str):
        events.append(TurnedUp(seat, a.src, turned))
    return SeatState(tuple(piles), st.stock, waste), tuple(fnd)


def _turn_up(pile: Pile) -> tuple[Pile, Card | None]:
    """Rule 9: a face-down card that became the top is turned face up."""
    if not pile.up and pile.down:
        return Pile(pile.down[:-1], (pile.down[-1],)), pile.down[-1]
    return pile, None


def _check_builds(dst: Pile, card: Card, dst_index: int) -> None:
    """Rule 8: raise unless `card` may go on `dst` (an empty pile takes only a king)."""
    top = dst.top
    if top is None:
        if card.rank != 13:
            raise IllegalAction(f"an empty pile takes only a king (pile {dst_index} is empty, {card} is not a king)")
        return
    if top.rank != card.rank + 1 or not opposite_colour(top, card):
        raise IllegalAction(f"{card} cannot go on {top}: it needs one rank lower and the opposite colour")


def _accepting_pile(foundations: Foundations, card: Card) -> int | None:
    for i, fpile in enumerate(foundations):
        top = fpile[-1][0]
        if top.suit == card.suit and top.rank == card.rank - 1:
            return i
    return None


def _resolve_foundation(foundations: Foundations, card: Card, pile: int | None) -> int:
    """The index the card lands on (len(foundations) = a new pile), or raise."""
    nf = len(foundations)
    if card.rank == 1:
        return nf  # an ace always starts a new pile (rule 11)
    if pile is None:
        found = _accepting_pile(foundations, card)
        if found is not None:
            return found
        _raise_if_race_lost(foundations, card, None)
        raise IllegalAction(f"no foundation pile accepts {card} (it needs {Card(card.rank - 1, card.suit)} on top)")
    if pile >= nf:
        raise IllegalAction(f"there is no foundation pile {pile} (there are {nf}); only an ace starts a new pile")
    top = foundations[pile][-1][0]
    if top.suit == card.suit and top.rank == card.rank - 1:
        return pile
    _raise_if_race_lost(foundations, card, pile)
    raise IllegalAction(f"foundation pile {pile} (top {top}) does not accept {card}")


def _raise_if_race_lost(foundations: Foundations, card: Card, pile: int | None) -> None:
    """Rule 14: the pile once accepted a card like this one, and someone's got there
    first: raise `RaceLost`, naming the owner of the card now at that height.

    It raises rather than returning the exception for the caller to raise: an
    exception held in a local of a frame on its own traceback is a reference cycle
    (frames, layouts, traceback) that only the cyclic garbage collector frees, and
    lost races are frequent enough for those collections to stall the server."""
    candidates = range(len(foundations)) if pile is None else (pile,)
    for i in candidates:
        fpile = foundations[i]
        if fpile[0][0].suit == card.suit and len(fpile) >= card.rank:
            by = fpile[card.rank - 1][1]
            raise RaceLost(
                f"too late: seat {by} put {fpile[card.rank - 1][0]} on foundation pile {i} first", pile=i, by_seat=by
            )
