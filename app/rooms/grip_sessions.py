"""Solo Devil's Grip games played through the server.

Games live in SQLite; memory holds the recently used ones (at most `max_games`), and a
game not in memory is loaded on its next request, so a flood of new games can only push
others out of memory, never delete them.

The browser never learns the rules: each answer carries the state the engine renders
for it (`GripState.view()`, no stock order) and the legal actions. A game is owned by
whoever holds its token (hashed here, as for seats).
"""

from __future__ import annotations

import datetime as dt
import secrets
import time
from dataclasses import dataclass, field

from app.engine.devils_grip import (GripGame, daily_deal_number, grip_action_from_json,
                                    grip_action_to_json)
from app.engine.errors import IllegalAction
from app.rooms.logfmt import log_event
from app.rooms.secrets_util import hash_token, new_token, token_matches


@dataclass
class GripSession:
    id: str
    token_hash: bytes
    game: GripGame
    last_used: float = field(default_factory=time.time)
    hint: dict | None = None


class GripError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class GripSessions:
    def __init__(self, max_games: int, store=None) -> None:
        self.max_games = max_games
        self.store = store
        self.games: dict[str, GripSession] = {}

    def new(self, number: int | None, daily: bool, passes: int | None,
            today: dt.date | None = None) -> tuple[GripSession, str]:
        if daily:
            today = today or dt.datetime.now(dt.timezone.utc).date()
            number = daily_deal_number(today.year, today.month, today.day)
        elif number is None:
            number = secrets.randbelow(1_000_000_000) + 1
        if len(self.games) >= self.max_games:
            self._evict_oldest()
        token = new_token()
        session = GripSession(id=secrets.token_urlsafe(9), token_hash=hash_token(token),
                              game=GripGame.new(number, passes))
        self.games[session.id] = session
        self._save(session)
        log_event("grip_started", game=session.id, number=number, passes=passes or "unlimited")
        return session, token

    def _evict_oldest(self) -> None:
        """Make room in memory; the game stays saved (when persistence is on)."""
        oldest = min(self.games.values(), key=lambda s: s.last_used)
        del self.games[oldest.id]

    def get(self, game_id: str, token: str | None) -> GripSession:
        session = self.games.get(game_id)
        if session is None and self.store is not None:
            session = self.store.load_grip(game_id)
            if session is not None:
                if len(self.games) >= self.max_games:
                    self._evict_oldest()
                self.games[session.id] = session
        if session is None or not token or not token_matches(token, session.token_hash):
            raise GripError(404, "No such game (or not yours).")
        session.last_used = time.time()
        return session

    def operate(self, session: GripSession, op: str, action: dict | None) -> GripSession:
        """Apply one request; an illegal one raises GripError(409) and changes nothing."""
        game = session.game
        session.hint = None
        try:
            if op == "action":
                if action is None:
                    raise GripError(422, "An action is required.")
                game.apply(grip_action_from_json(action))
            elif op == "undo":
                game.undo()
            elif op == "redo":
                game.redo()
            elif op == "hint":
                hint = game.hint()
                session.hint = grip_action_to_json(hint) if hint is not None else None
            elif op == "end":
                game.end()
        except IllegalAction as err:
            log_event("grip_rejected", game=session.id, op=op, reason=str(err))
            raise GripError(409, str(err)) from err
        if op != "hint":
            self._save(session)
        return session

    def _save(self, session: GripSession) -> None:
        if self.store is not None:
            self.store.save_grip(session)

    @staticmethod
    def describe(session: GripSession, token: str | None = None) -> dict:
        game = session.game
        state = game.state
        answer = {
            "id": session.id,
            "number": game.number,
            "state": state.view(),
            "legal": [grip_action_to_json(a) for a in state.legal_actions()],
            "can_undo": game.can_undo,
            "can_redo": game.can_redo,
            "used_undo": game.used_undo,
            "hint": session.hint,
        }
        if token is not None:
            answer["token"] = token
        return answer
