"""The practice-round coach: the next useful play for a person in a room of bots, and why.

The first-round guide (static/guide/guide.js) points at a play and says why in a sentence. It
asks the server (`{"type": "coach"}`), because the browser knows no rules; the server
answers with a play and a reason kind that the page words in the player's language.

Demon's only: its reasons are Demon's (a tableau, a king for an empty pile); a Nerts
practice room is answered `not_practice` with a message saying so.

Why only in practice rooms: advice in a race between people would help one of them
against the others. A room qualifies when every other seat is a bot (`is_practice`);
anywhere else the request is refused (`not_practice`) and nothing changes.

Never in the daily race (`daily_race`): its racers compare scores, so advice would be
help that only some of them asked for (docs/daily.md).

Fair by construction: the advice is the bots' own decision (`demon_bot.decide`) over the
asking seat's `SeatView`, which holds no face-down card and no stock order, so it cannot
tell the player anything they could not see. The level is Hard without its human flaws
(nothing overlooked, no random spread) and with a fresh memory, so the same view always
gets the same advice.
"""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from app.common.rng import SplitMix64
from app.demon.room.errors import NotPractice, SpectatorCannotPlay
from app.demon.room.phases import Op, require
from app.demon.room.room import Player, Room
from app.demon.rules.actions import DemonAction, Draw, Recycle, ToFoundation, ToTableau, action_to_json
from app.demon.rules.bot import LEVELS, BotMemory, decide
from app.demon.rules.round import DemonRound
from app.demon.rules.view import SeatView, seat_view
from app.protocol import server as out
from app.protocol.actions import public_action

COACH = replace(LEVELS["hard"], name="coach", overlook=0.0, noise=0.0)


def is_practice(room: Room, player: Player) -> bool:
    """Every seat at the table but `player`'s is a computer player: no person races them."""
    return player.bot is None and all(p.bot is not None for p in room.players if p is not player)


def advice(room: Room, player: Player) -> out.Coach:
    """The coach's answer for `player` now; RoomError when it may not be given."""
    if player.bot is not None or not room.seating.is_seated(player):
        raise SpectatorCannotPlay("Only a seated player can be coached.")
    room.refuse_in_daily("The coach does not help in the daily race: everyone races the day's deal alone.")
    if not is_practice(room, player):
        raise NotPractice("The coach helps only in a practice round against bots.")
    if room.options.game != "demon":
        raise NotPractice("The coach helps in Demon practice rounds.")
    require(room.phase, Op.COACH)
    seat = player.seat
    assert seat is not None and room.round is not None  # seated, and the round is in play
    view = seat_view(cast(DemonRound, room.round), seat, stuck=seat in room.public_stuck())
    decision = decide(view, COACH, BotMemory(), SplitMix64(0))
    action = public_action(action_to_json(decision.action)) if decision.action is not None else None
    return out.coach(room.v, action, reason(view, decision.action, decision.vote_end))


def _card(view: SeatView, src: int | str, count: int = 1) -> str:
    if isinstance(src, str):  # the waste
        return str(view.waste[-1])
    return str(view.tableau[src].up[-count])


def reason(view: SeatView, action: DemonAction | None, vote_end: bool) -> out.CoachWhy:
    """Why the play helps, as a kind and the cards to name (all of them on view):

    * ``ace``: an ace to the foundations (anyone can build on it);
    * ``home``: a card to the foundations (a point); ``uncover`` when it turns a card up;
    * ``uncover``: a run (or a king into an empty pile) that turns a face-down card up;
    * ``waste``: the waste's top onto a pile, freeing the next waste card;
    * ``free``: part of a run moved so that ``under`` can go to the foundations;
    * ``empty``: a pile emptied for a king that is waiting for the space;
    * ``draw`` / ``recycle``: nothing to play, go through the stock;
    * ``stuck``: nothing can help any more, vote to end the round;
    * ``wait``: nothing to do now (before the start, or out of the round).
    """
    if action is None:
        return out.CoachWhy(kind="stuck" if vote_end else "wait")
    if isinstance(action, Draw):
        return out.CoachWhy(kind="draw")
    if isinstance(action, Recycle):
        return out.CoachWhy(kind="recycle")
    if isinstance(action, ToFoundation):
        card = _card(view, action.src)
        if card[0] == "A":
            return out.CoachWhy(kind="ace", card=card)
        why = out.CoachWhy(kind="home", card=card)
        to = action.pile
        home = view.foundations[to] if to is not None and to < len(view.foundations) else None
        if home is not None:
            why["onto"] = str(home.top)
        src = action.src
        if not isinstance(src, str) and len(view.tableau[src].up) == 1 and view.tableau[src].down:
            why["uncover"] = True
        return why
    assert isinstance(action, ToTableau)
    card = _card(view, action.src, action.count)
    onto = view.tableau[action.dst].top
    why = out.CoachWhy(kind="waste", card=card)
    if onto is not None:
        why["onto"] = str(onto)
    if isinstance(action.src, str):  # the waste
        return why
    pile = view.tableau[action.src]
    if action.count == len(pile.up):
        why["kind"] = "uncover" if pile.down else "empty"
    else:
        why["kind"] = "free"
        why["under"] = str(pile.up[-action.count - 1])
    return why
