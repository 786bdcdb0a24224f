"""Solo Devil's Grip games played through the server.

Games live in SQLite; memory holds the recently used ones (at most `max_games`), and a
game not in memory is loaded on its next request, so a flood of new games can only push
others out of memory, never delete them.

The browser never learns the rules: each answer carries the state the engine renders
for it (`GripState.view()`, no stock order), the legal actions and, once the deal is
over, the numbers that explain why (`explain_end`). A game is owned by whoever holds its
token (hashed here, as for seats).

Hints are searched in a worker process (`advisor`); this module only records their
answers: a hint used marks the game (`used_hint`, kept apart in statistics like undo,
rule 12) and is saved with it. A certified deal's solution shown marks it the same way
(`solution_shown`).
"""

from __future__ import annotations

import datetime as dt
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.common.errors import IllegalAction
from app.grip.rules import GripGame, daily_deal_number, grip_action_from_json
from app.grip.rules.explain import explain_end
from app.grip.rules.shapes import ActionJson
from app.grip.rules.view import GripView
from app.grip.rules.why import hint_reason
from app.grip.service.legal import LegalActions
from app.grip.service.shapes import GripGameAnswer, GripHintInfo
from app.ops import instruments
from app.support.logfmt import log_event
from app.support.secrets_util import hash_token, new_grip_id, new_token, token_matches


@dataclass
class GripSession:
    id: str
    token_hash: bytes
    game: GripGame
    last_used: float = field(default_factory=time.time)
    hint: GripHintInfo | None = None  # the last hint asked
    used_hint: bool = False
    winnable: bool = False  # dealt as certified winnable (a stored solution exists)
    par: int | None = None  # filled in by the server once known
    changes: int = 0  # operations applied since loaded: tells a stale hint answer apart
    seq: int = 0  # operations the page has sent in batches (moves.py): the next batch's base
    legal: LegalActions = field(default_factory=LegalActions)  # kept while the state is the same

    @property
    def played(self) -> bool:
        """Whether any action was ever made (undone ones count): a game dealt and never
        played is kept only briefly (DEMON_GRIP_UNPLAYED_TTL_S)."""
        game = self.game
        return bool(game.actions or game.can_redo or game.used_undo)


class GripGames(Protocol):
    """What the sessions need of a store (`app.storage.grip_store.GripStore` is one):
    declared here so that storage depends on this layer, never the other way."""

    def load_grip(self, game_id: str) -> GripSession | None: ...

    def save_grip(self, session: GripSession) -> None: ...


class GripError(Exception):
    """A request this layer refuses, with its wire code (as the room errors carry theirs):
    `not_found` (no such game, or not yours), `invalid` (a malformed request), `illegal`
    (the engine refuses the action), `bad_phase` (not now: the deal is over),
    `internal` (the hint engine misbehaved). The HTTP layer maps codes to statuses."""

    CODES = frozenset({"not_found", "invalid", "illegal", "bad_phase", "internal"})

    def __init__(self, code: str, message: str) -> None:
        assert code in self.CODES, code
        super().__init__(message)
        self.code = code
        self.message = message


class GripSessions:
    def __init__(self, max_games: int, store: GripGames | None = None, shard: str = "") -> None:
        self.max_games = max_games
        self.store = store
        self.shard = shard  # the first letters of this process's game ids (DEMON_SHARD)
        self.games: dict[str, GripSession] = {}

    @staticmethod
    def daily_number(today: dt.date | None = None) -> int:
        """The number of today's daily deal (UTC), or of the date given."""
        today = today or dt.datetime.now(dt.UTC).date()
        return daily_deal_number(today.year, today.month, today.day)

    def new(
        self,
        number: int | None,
        daily: bool,
        passes: int | None,
        today: dt.date | None = None,
        *,
        winnable: bool = False,
    ) -> tuple[GripSession, str]:
        if daily:
            number = self.daily_number(today)
        elif number is None:
            number = secrets.randbelow(1_000_000_000) + 1
        if len(self.games) >= self.max_games:
            self._evict_oldest()
        token = new_token()
        session = GripSession(
            id=new_grip_id(self.shard),
            token_hash=hash_token(token),
            game=GripGame.new(number, passes),
            winnable=winnable,
        )
        self.games[session.id] = session
        self._save(session)
        instruments.GRIP_GAMES.inc()
        log_event("grip_started", game=session.id, number=number, passes=passes or "unlimited")
        return session, token

    def _evict_oldest(self) -> None:
        """Make room in memory; the game stays saved (when persistence is on)."""
        oldest = min(self.games.values(), key=lambda s: s.last_used)
        del self.games[oldest.id]

    def forget_unplayed(self, older_than_s: float, now: float | None = None) -> int:
        """Drop from memory the games nobody played that were last used longer ago than
        `older_than_s` (the database forgets them by the same rule); returns how many."""
        now = time.time() if now is None else now
        gone = [
            gid for gid, session in self.games.items() if not session.played and now - session.last_used > older_than_s
        ]
        for gid in gone:
            del self.games[gid]
        return len(gone)

    def get(self, game_id: str, token: str | None) -> GripSession:
        session = self.games.get(game_id)
        if session is None and self.store is not None:
            session = self.store.load_grip(game_id)
            if session is not None:
                if len(self.games) >= self.max_games:
                    self._evict_oldest()
                self.games[session.id] = session
        if session is None or not token or not token_matches(token, session.token_hash):
            raise GripError("not_found", "No such game (or not yours).")
        session.last_used = time.time()
        return session

    def operate(self, session: GripSession, op: str, action: dict[str, Any] | None) -> GripSession:
        """Apply one request; an illegal one raises GripError("illegal") and changes nothing."""
        game = session.game
        session.hint = None
        session.changes += 1
        try:
            if op == "action":
                if action is None:
                    raise GripError("invalid", "An action is required.")
                game.apply(grip_action_from_json(action))
            elif op == "undo":
                game.undo()
            elif op == "redo":
                game.redo()
            elif op == "end":
                game.end()
            else:
                raise GripError("invalid", f"unknown operation {op!r}")
        except IllegalAction as err:
            log_event("grip_rejected", game=session.id, op=op, reason=str(err))
            raise GripError("illegal", str(err)) from err
        session.seq += 1
        self._save(session)
        return session

    @staticmethod
    def check_hintable(session: GripSession) -> None:
        """A hint is for a deal still being played (`bad_phase` otherwise)."""
        if session.game.state.is_over():
            raise GripError("bad_phase", "The deal is over: there is nothing to hint.")

    @staticmethod
    def hint_view(session: GripSession) -> GripView:
        """What the hint engine may see: the player's view, never the stock order."""
        return GripView.of(session.game.state)

    def record_hint(
        self, session: GripSession, changes: int, action: ActionJson | None, expected_score: float, complete: bool
    ) -> bool:
        """Keep a hint's answer if the game is still where it was asked (`changes` as
        it was then); marks the game as played with a hint. Returns whether it was kept
        (an operation made meanwhile makes the answer stale)."""
        if self.games.get(session.id) is not session or session.changes != changes or session.game.state.is_over():
            return False
        why = None
        if action is not None:  # the page only ever shows a legal hint: check the engine's
            state = session.game.state
            try:
                move = grip_action_from_json(action)
                state.apply(move)
            except IllegalAction as err:
                log_event("grip_bad_hint", game=session.id, action=action, reason=str(err))
                raise GripError("internal", "The hint engine suggested an illegal move.") from err
            why = hint_reason(GripView.of(state), move)  # the guide's sentence (rules/why.py)
        session.hint = {"action": action, "expected_score": round(expected_score, 2), "complete": complete, "why": why}
        if action is not None and not session.used_hint:
            session.used_hint = True
            self._save(session)
        return True

    def solution_shown(self, session: GripSession) -> None:
        """The deal's winning line was shown for this game: from now on it is an aided
        game, marked like a hinted one (`used_hint`), even if undone back to any point
        and replayed (ending, reading the solution, undoing and replaying once counted as an unaided win)."""
        if not session.used_hint:
            session.used_hint = True
            self._save(session)
        log_event("grip_solution_shown", game=session.id)

    def save(self, session: GripSession) -> None:
        """Keep the session in the store (when persistence is on)."""
        self._save(session)

    def _save(self, session: GripSession) -> None:
        if self.store is not None:
            self.store.save_grip(session)

    @staticmethod
    def describe(session: GripSession, token: str | None = None) -> GripGameAnswer:
        game = session.game
        state = game.state
        answer: GripGameAnswer = {
            "id": session.id,
            "number": game.number,
            "state": state.view(),
            "legal": session.legal.of(state),
            "can_undo": game.can_undo,
            "can_redo": game.can_redo,
            "used_undo": game.used_undo,
            "used_hint": session.used_hint,
            "winnable": session.winnable,
            "par": session.par,
            "hint": session.hint["action"] if session.hint else None,
            "hint_info": session.hint,
            "explain": explain_end(state),
        }
        if token is not None:
            answer["token"] = token
        return answer
