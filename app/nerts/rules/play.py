"""What one Nerts action does to a seat's layout and the foundations (N4-N10).

Each function takes the acting seat's layout (and, for a foundation play, the
foundations), checks the action against them and returns the new values, appending the
events it caused; it raises `IllegalAction` (or `RaceLost`) and changes nothing when the
action is not legal. `NertsRound.apply` checks what concerns the whole round.

Draw and recycle (N4, as Demon's rules 5 and 6): a draw moves stock[-1], stock[-2], ...
(three, or one under H2; fewer if fewer remain) onto the waste in that order; a recycle
makes the stock the reversed waste, so the cards come out in the same order again.

Foundation plays (N10, as Demon's rules 11, 12 and 14): `pile=None` plays on the first
pile that accepts the card; an ace always starts a new pile. A play aimed at a pile that
already took a card of that suit and rank raises `RaceLost`, naming the seat that got
there first, exactly as Demon does, so the room answers both games' lost races alike.
"""

from __future__ import annotations

from app.common.cards import Card, opposite_colour
from app.common.errors import IllegalAction, RaceLost
from app.nerts.rules.actions import NERTS, WASTE, Source, ToFoundation, ToWork
from app.nerts.rules.events import Drew, Filled, Moved, NertsEvent, Played, Recycled, TurnedUp
from app.nerts.rules.layout import Foundations, NertsSeat
from app.nerts.rules.options import NertsOptions

__all__ = ["accepting_pile", "draw", "fits_on", "recycle", "stall_seat", "to_foundation", "to_work"]


def draw(seat: int, st: NertsSeat, options: NertsOptions, events: list[NertsEvent]) -> NertsSeat:
    """N4/H2: up to `options.draw` cards from the stock onto the waste."""
    if not st.stock:
        raise IllegalAction(
            "the stock is empty: recycle the waste instead" if st.waste else "there is nothing left to draw"
        )
    n = min(options.draw, len(st.stock))
    new = NertsSeat(st.nerts, st.work, st.stock[:-n], st.waste + tuple(reversed(st.stock[-n:])))
    events.append(Drew(seat, n, new.waste[-options.draw :], len(new.stock), len(new.waste)))
    return new


def recycle(seat: int, st: NertsSeat, events: list[NertsEvent]) -> NertsSeat:
    """N4: an empty stock is refilled from the waste, turned over; unlimited."""
    if st.stock:
        raise IllegalAction("the stock is not empty yet: recycle only an empty stock")
    if not st.waste:
        raise IllegalAction("stock and waste are both empty: there is nothing to recycle")
    new = NertsSeat(st.nerts, st.work, tuple(reversed(st.waste)), ())
    events.append(Recycled(seat, len(new.stock)))
    return new


def stall_seat(st: NertsSeat) -> NertsSeat:
    """N13 for one seat: the waste goes under the stock in the order a recycle gives it
    (its first-drawn card drawn first, after the stock's own cards), then the stock's
    top card goes to the bottom. Why the last step: without it a draw-three cycle would
    show exactly the cards it showed before, and nobody would be any less stuck."""
    stock = tuple(reversed(st.waste)) + st.stock
    if stock:
        stock = (stock[-1],) + stock[:-1]
    return NertsSeat(st.nerts, st.work, stock, ())


def fits_on(card: Card, pile: tuple[Card, ...]) -> bool:
    """N6/N7: a card (heading a run) may go on this work pile: any card on an empty pile,
    else one rank lower than its top and of the opposite colour."""
    if not pile:
        return True
    top = pile[-1]
    return top.rank == card.rank + 1 and opposite_colour(top, card)


def _take(st: NertsSeat, src: Source, count: int) -> tuple[tuple[Card, ...], NertsSeat]:
    """The `count` cards on top of `src`, and the layout without them (N5)."""
    if src == NERTS:
        if not st.nerts:
            raise IllegalAction("the Nerts pile is empty")
        return st.nerts[-1:], NertsSeat(st.nerts[:-1], st.work, st.stock, st.waste)
    if src == WASTE:
        if not st.waste:
            raise IllegalAction("the waste is empty")
        return st.waste[-1:], NertsSeat(st.nerts, st.work, st.stock, st.waste[:-1])
    assert isinstance(src, int)
    pile = st.work[src]
    if count > len(pile):
        raise IllegalAction(f"work pile {src} has {len(pile)} card(s), cannot move {count}")
    work = st.work[:src] + (pile[:-count],) + st.work[src + 1 :]
    return pile[-count:], NertsSeat(st.nerts, work, st.stock, st.waste)


def _after(seat: int, src: Source, st: NertsSeat, options: NertsOptions, events: list[NertsEvent]) -> NertsSeat:
    """What happens by itself once cards left `src`: H3 fills an emptied work pile from
    the Nerts pile, and N8 turns the Nerts pile's next card up (which costs no change of
    state: its top is face up by definition, so only the event is new)."""
    if isinstance(src, int) and not st.work[src] and options.racing_spaces and st.nerts:
        card = st.nerts[-1]
        work = st.work[:src] + ((card,),) + st.work[src + 1 :]
        st = NertsSeat(st.nerts[:-1], work, st.stock, st.waste)
        events.append(Filled(seat, src, card))
        src = NERTS
    if src == NERTS and st.nerts:
        events.append(TurnedUp(seat, st.nerts[-1], len(st.nerts)))
    return st


def to_work(seat: int, st: NertsSeat, a: ToWork, options: NertsOptions, events: list[NertsEvent]) -> NertsSeat:
    """N6/N7: a card or run onto a work pile (any card or run onto an empty one)."""
    cards, rest = _take(st, a.src, a.count)
    dst = rest.work[a.dst]
    if not fits_on(cards[0], dst):
        raise IllegalAction(f"{cards[0]} cannot go on {dst[-1]}: it needs one rank lower and the opposite colour")
    work = rest.work[: a.dst] + (dst + cards,) + rest.work[a.dst + 1 :]
    events.append(Moved(seat, a.src, a.dst, cards))
    return _after(seat, a.src, NertsSeat(rest.nerts, work, rest.stock, rest.waste), options, events)


def to_foundation(
    seat: int,
    st: NertsSeat,
    a: ToFoundation,
    foundations: Foundations,
    options: NertsOptions,
    events: list[NertsEvent],
) -> tuple[NertsSeat, Foundations]:
    """N10: the top card of the Nerts pile, the waste or a work pile onto a foundation."""
    (card,), rest = _take(st, a.src, 1)
    target = _resolve(foundations, card, a.pile)
    fnd = list(foundations)
    new_pile = target == len(fnd)
    if new_pile:
        fnd.append(((card, seat),))
    else:
        fnd[target] = fnd[target] + ((card, seat),)
    events.append(Played(seat, a.src, card, target, new_pile))
    return _after(seat, a.src, rest, options, events), tuple(fnd)


def accepting_pile(foundations: Foundations, card: Card) -> int | None:
    """The first foundation pile whose top is the card's predecessor in suit."""
    for i, fpile in enumerate(foundations):
        top = fpile[-1][0]
        if top.suit == card.suit and top.rank == card.rank - 1:
            return i
    return None


def _resolve(foundations: Foundations, card: Card, pile: int | None) -> int:
    """The index the card lands on (len(foundations) = a new pile), or raise."""
    nf = len(foundations)
    if card.rank == 1:
        return nf  # any ace starts a new pile; the pile it names is only a hint
    if pile is None:
        found = accepting_pile(foundations, card)
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
    """N10 (first come, first served): the pile once accepted a card like this one and
    someone got there first: raise `RaceLost` naming the owner of the card at that
    height. Raised here, not returned, for the reason Demon's play module gives (an
    exception held in a local of its own traceback's frame is a reference cycle)."""
    for i in range(len(foundations)) if pile is None else (pile,):
        fpile = foundations[i]
        if fpile[0][0].suit == card.suit and len(fpile) >= card.rank:
            by = fpile[card.rank - 1][1]
            raise RaceLost(
                f"too late: seat {by} put {fpile[card.rank - 1][0]} on foundation pile {i} first", pile=i, by_seat=by
            )
