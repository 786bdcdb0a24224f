"""Demon computer players: three levels and the decision function.

A bot is a function of one seat's view (`app.demon.rules.view.SeatView`), a level, a
small memory of its own past (what it saw go by in its own waste, where its last pass
through the stock began) and a seeded generator. It never sees the round, so it cannot
read a face-down card or the stock order: the type does not hold them.

How a decision is made
----------------------
1. Every legal action that can help is a *candidate* with a score (`_score`): a
   foundation play, a move that turns a face-down card up, a card off the waste, and, for
   a level that looks ahead, a partial run moved to free a card for the foundations or a
   pile emptied for a king that waits. Moves that only shuffle cards around (a king from
   one empty spot to another, a run to and fro) are never candidates, so a bot cannot loop.
2. Each candidate is *overlooked* with the level's probability (a person misses plays).
3. The best score plus the level's random spread wins. Draw and recycle are the fallbacks;
   recycle only when the memory says another pass can help (something changed in the
   last pass, a play was overlooked, or a card seen in the waste is now wanted).
4. When nothing can help, the bot does nothing and votes to end the round (`vote_end`).
   It also votes whenever the room shows it as stuck (rule 16's public flag). A play it
   overlooked just now is not "nothing": then it waits and looks again, without voting.
   Every decision that plays has `vote_end` False: whoever holds its vote drops it.

The frame of levels, draws, think time and memory checks is shared with Nerts' bots
(`app.common.bots`); what is here is how Demon is played.

The engine stays pure: no clock (the room turns `think_time` into a timer), no global
random (the caller passes a `SplitMix64`, so a seeded bot round replays exactly).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.common.bots import (
    Decision,
    check_knobs,
    choose,
    count_field,
    memory_object,
    named_level,
    pass_fields,
    raced_cards,
    saw_waste_top,
    start_pass,
    think_time_in,
    wanted_cards,
)
from app.common.cards import Card
from app.common.rng import SplitMix64
from app.demon.rules.actions import DemonAction, Draw, Recycle, ToFoundation, ToTableau
from app.demon.rules.view import SeatView

__all__ = ["LEVELS", "BotLevel", "BotMemory", "Decision", "decide", "level", "think_time"]


@dataclass(frozen=True)
class BotLevel:
    """The knobs that make levels feel different (published in docs/bots.md).

    reaction_s: think time range (seconds) before acting on a new chance; `think_time`
        draws from it with a human-like hump in the middle, never 0.
    overlook: probability that each available play is missed at one decision.
    move_overlook: a further chance of missing a move from one pile to another, on top
        of `overlook` (a beginner sees the cards that go home, and the waste, first).
    noise: random spread added to each candidate's score (0 = always the best one);
        the scores are tens apart, so 40 is close to choosing at random.
    uncover: bonus for a play that turns a face-down card up (plus `per_down` for each
        face-down card still under it: the deepest pile first).
    race: bonus for a foundation play another seat could also make now (it is on view in
        that seat's layout), or onto a pile another seat is building.
    waste: bonus for taking the waste top (keeps the stock-and-waste cycle moving).
    lookahead: whether it sees two-step plays: move part of a run to free a card for the
        foundations; empty a pile so a waiting king can go there. (Moving part of a run
        never makes a new place on the tableau: the card it frees wants the same card
        as the pile it went to did.)
    remembers: whether it keeps in mind the cards it saw go by in its waste, so that it
        turns the waste over again when one of them has become playable.
    patience: extra idle passes through the stock (nothing changed, nothing to hope for)
        it makes before it gives up and votes.
    rechecks: whether it knows it may have missed something: a pass in which it
        overlooked a play is then reason enough for another, and with the stock done it
        looks again rather than give up. Without it, what it did not see is not there: a
        pass that changed nothing ends its round, missed plays and all.
    """

    name: str
    reaction_s: tuple[float, float]
    overlook: float
    noise: float = 0.0
    uncover: float = 0.0
    per_down: float = 0.0
    race: float = 0.0
    waste: float = 0.0
    move_overlook: float = 0.0
    lookahead: bool = False
    remembers: bool = False
    patience: int = 0
    rechecks: bool = True

    def __post_init__(self) -> None:
        check_knobs(self.reaction_s, self.overlook, self.move_overlook, self.patience, self.noise)


LEVELS: dict[str, BotLevel] = {
    "easy": BotLevel("easy", reaction_s=(4.0, 8.0), overlook=0.70, move_overlook=0.8, noise=40.0, rechecks=False),
    "medium": BotLevel(
        "medium",
        reaction_s=(0.8, 1.6),
        overlook=0.20,
        noise=12.0,
        uncover=15.0,
        per_down=1.0,
        waste=5.0,
        remembers=True,
    ),
    "hard": BotLevel(
        "hard",
        reaction_s=(0.4, 0.8),
        overlook=0.01,
        noise=1.0,
        uncover=30.0,
        per_down=2.0,
        race=25.0,
        waste=10.0,
        lookahead=True,
        remembers=True,
    ),
}


def level(name: Any) -> BotLevel:
    """The level called `name`; a clear error for anything else."""
    return named_level(LEVELS, name)


# Base scores. A foundation play is worth a point, so it comes first unless a move turns a
# card up (which opens more plays later); a draw is what one does when nothing else helps.
_HOME = 50.0
_UNCOVER = 45.0
_OFF_WASTE = 30.0
_FREE_FOR_HOME = 35.0
_EMPTY_FOR_KING = 25.0


@dataclass
class BotMemory:
    """What a bot keeps between decisions (JSON-serialisable; the room saves it with the seat).

    pass_sig: the seat's visible shape when its current pass through the stock began
        (stock + waste size, cards home, face-down and face-up counts per pile); a pass
        that ends with the same shape changed nothing.
    seen: the waste tops seen in this pass (the cards it could have played), as text.
    missed: it overlooked a play during this pass, so another pass may find it.
    idle_passes: passes in a row that changed nothing.
    decisions: how many decisions it has made (for logs and tests).
    """

    pass_sig: list[object] | None = None
    seen: list[str] = field(default_factory=list)
    missed: bool = False
    idle_passes: int = 0
    decisions: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "pass_sig": self.pass_sig,
            "seen": list(self.seen),
            "missed": self.missed,
            "idle_passes": self.idle_passes,
            "decisions": self.decisions,
        }

    @classmethod
    def from_json(cls, data: Any) -> BotMemory:
        """Inverse of to_json (a dict or its JSON text); ValueError on anything malformed.
        Keys it does not know are passed over (memories saved before a field was dropped)."""
        obj = memory_object(data)
        sig, seen, missed = pass_fields(obj)
        return cls(sig, seen, missed, count_field(obj, "idle_passes"), count_field(obj, "decisions"))


def think_time(level: BotLevel, rng: SplitMix64) -> float:
    """Seconds before the next decision after something changed: a person's pace over
    the level's `reaction_s` (`app.common.bots.think_time_in`), never 0."""
    return think_time_in(level.reaction_s, rng)


def _signature(view: SeatView) -> list[object]:
    return [view.stock + view.waste_count, view.home, [[p.down, len(p.up)] for p in view.tableau]]


def _fits(card: Card, onto: Card | None) -> bool:
    """Rule 8: `card` may go on a pile whose top is `onto` (None: an empty pile)."""
    if onto is None:
        return card.rank == 13
    return onto.rank == card.rank + 1 and onto.is_red != card.is_red


def _contested(view: SeatView) -> set[tuple[str, int]]:
    """Cards other seats could play to the foundations right now (their waste tops and
    pile tops that a foundation takes): a race the bot can still win."""
    wanted = wanted_cards(view.foundations)
    out: set[tuple[str, int]] = set()
    for o in view.others:
        if o.absent:
            continue
        tops = [p.up[-1] for p in o.tableau if p.up]
        if o.waste:
            tops.append(o.waste[-1])
        raced_cards(tops, wanted, out)
    return out


def _score(
    view: SeatView, lv: BotLevel, a: DemonAction, contested: set[tuple[str, int]], wanted: set[tuple[str, int]]
) -> float | None:
    """How good `a` is for this level, or None when it cannot help (never a candidate)."""
    tableau = view.tableau
    if isinstance(a, ToFoundation):
        s = _HOME
        if isinstance(a.src, str):  # the waste
            card = view.waste[-1]
            s += lv.waste
        else:
            pile = tableau[a.src]
            card = pile.up[-1]
            if len(pile.up) == 1 and pile.down:
                s += lv.uncover + lv.per_down * pile.down
        if (card.suit, card.rank) in contested:
            s += lv.race
        elif (
            lv.race
            and card.rank > 1
            and a.pile is not None
            and a.pile < len(view.foundations)
            and view.foundations[a.pile].owner != view.seat
        ):
            s += lv.race / 2  # a pile others are building: keep up with them
        return s - card.rank * 0.1  # low cards first: they open the way for others
    if isinstance(a, ToTableau):
        if isinstance(a.src, str):  # the waste
            return _OFF_WASTE + lv.waste
        pile = tableau[a.src]
        whole = a.count == len(pile.up)
        if whole and pile.down:
            return _UNCOVER + lv.uncover + lv.per_down * pile.down
        if not lv.lookahead:
            return None
        if whole:  # the pile becomes empty: worth it only when a king waits for the spot
            if _king_waiting(view, a.src):
                return _EMPTY_FOR_KING
            return None
        freed = pile.up[-a.count - 1]
        if (freed.suit, freed.rank) in wanted:
            return _FREE_FOR_HOME
        return None
    return None


def _king_waiting(view: SeatView, emptied: int) -> bool:
    """A king that could use an empty pile: on the waste top, or heading a run that lies on
    face-down cards (moving it turns a card up), and no pile is empty already."""
    if any(not p.up and not p.down for p in view.tableau):
        return False
    if view.waste and view.waste[-1].rank == 13:
        return True
    return any(i != emptied and p.down and p.up and p.up[0].rank == 13 for i, p in enumerate(view.tableau))


def _recycle_helps(view: SeatView, memory: BotMemory, lv: BotLevel, wanted: set[tuple[str, int]]) -> bool:
    """Whether another pass through the stock can bring something (what a person thinks
    before turning the waste over): the last pass changed the layout, a play was missed,
    a card seen go by is now wanted by the foundations or fits a pile, or patience."""
    if memory.pass_sig != _signature(view) or (memory.missed and lv.rechecks):
        return True
    tops = [p.up[-1] if p.up else None for p in view.tableau if p.up or not p.down]
    for text in memory.seen if lv.remembers else ():
        c = Card.parse(text)
        if (c.suit, c.rank) in wanted or any(_fits(c, t) for t in tops):
            return True
    return memory.idle_passes < lv.patience


def _between_piles(a: DemonAction) -> bool:
    """A move from one tableau pile to another (the kind a beginner misses more)."""
    return isinstance(a, ToTableau) and not isinstance(a.src, str)


def decide(view: SeatView, level: BotLevel, memory: BotMemory, rng: SplitMix64) -> Decision[DemonAction]:
    """The bot's next step from what its seat sees. Pure apart from updating `memory`
    (and advancing `rng`): the same view, memory and generator state give the same answer."""
    memory.decisions += 1
    if not view.started or view.ended or view.seat in view.absent:
        return Decision(None, False)
    if not view.legal:  # nothing to draw, recycle or move: stuck for good
        return Decision(None, True)
    fresh = memory.pass_sig is None
    if fresh:  # the first pass begins with the first decision
        start_pass(memory, _signature(view), idle=False)
    saw_waste_top(memory, view.waste)
    wanted = wanted_cards(view.foundations)
    contested = _contested(view) if level.race else set()

    def score(a: DemonAction) -> float | None:
        return _score(view, level, a, contested, wanted)

    best_at, fallback_at, overlooked = choose(view.legal, (Draw, Recycle), score, _between_piles, level, memory, rng)
    best = view.legal[best_at] if best_at >= 0 else None
    fallback = view.legal[fallback_at] if fallback_at >= 0 else None
    if best is not None:  # any play it noticed beats drawing: misses come from `overlook`
        # A foundation play names its pile, as a person drops a card on one: a bot that
        # is too late loses the race like anybody (rule 14).
        return Decision(best, False)
    if view.stuck:  # the room says no sequence of own moves can help: stop and vote
        return Decision(None, True)
    if isinstance(fallback, Draw):
        return Decision(fallback, False)
    if isinstance(fallback, Recycle) and (fresh or _recycle_helps(view, memory, level, wanted)):
        idle = not fresh and memory.pass_sig == _signature(view) and not (memory.missed and level.rechecks)
        start_pass(memory, _signature(view), idle)
        return Decision(fallback, False)
    if overlooked and level.rechecks:  # a play is there, it did not see it this time
        return Decision(None, False)
    return Decision(None, True)
