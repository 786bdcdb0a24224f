"""The Devil's Grip service of one process: its games, hint engine, par book, winnable
deals and search limits, and the chores that go with them.

Built once in whichever process answers `/api/grip`: the Devil's Grip worker (the
default), or the server itself with `DEMON_GRIP_WORKER=false`. Both then serve the same
routers (`app/server/grip_http.py`), which find these objects on the app's state
(`app/server/deps.py`).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import NamedTuple

from app.config import Settings
from app.grip.service.advisor import GripAdvisor
from app.grip.service.limits import KeyedLimiter
from app.grip.service.par import ParBook
from app.grip.service.sessions import GripSessions
from app.grip.service.winnable import WinnableDeals
from app.storage.store import PRUNE_BATCH, Store


class GripFigures(NamedTuple):
    """What /metrics shows of the service's state (app/ops/census.py)."""

    games: int
    hint_queue: int
    search_queue: int


@dataclass
class GripParts:
    settings: Settings
    store: Store | None
    grips: GripSessions
    advisor: GripAdvisor
    par: ParBook
    winnable: WinnableDeals
    limits: dict[str, KeyedLimiter]
    _warming: list[asyncio.Task[None]] = field(default_factory=list)

    @classmethod
    def build(cls, settings: Settings, store: Store | None) -> GripParts:
        advisor = GripAdvisor.from_settings(settings)
        parts = cls(
            settings,
            store,
            GripSessions(settings.max_rooms, store, shard=settings.shard),
            advisor,
            ParBook(advisor, store, settings.par_budget_s),
            WinnableDeals(advisor, store, settings.winnable_ready),
            {
                "game": KeyedLimiter(settings.grip_search_rate_per_s, settings.grip_search_burst),
                "addr": KeyedLimiter(settings.grip_addr_rate_per_s, settings.grip_addr_burst),
            },
        )
        parts.prune()
        return parts

    def install(self, state: object) -> None:
        """Put the objects where `app/server/deps.py` reads them."""
        for name, value in (
            ("grips", self.grips),
            ("grip_advisor", self.advisor),
            ("grip_par", self.par),
            ("grip_winnable", self.winnable),
            ("grip_limits", self.limits),
        ):
            setattr(state, name, value)

    @property
    def prune_every_s(self) -> float:
        return max(1.0, min(60.0, self.settings.grip_unplayed_ttl_s / 2))

    def prune(self) -> None:
        """Forget Devil's Grip games past their time, in memory and on disk (in batches)."""
        settings = self.settings
        self.grips.forget_unplayed(settings.grip_unplayed_ttl_s)
        if self.store is not None:
            while (
                self.store.expire_grips(
                    settings.grip_expiry_days * 86400, settings.grip_unplayed_ttl_s, settings.grip_max_stored
                )
                >= PRUNE_BATCH
            ):
                pass

    async def start(self) -> None:
        """The search workers start in the background; the daily deal's par and a reserve
        of certified-winnable deals are computed in their pool."""
        self._warming = self.advisor.start()
        self.par.precompute(self.grips.daily_number())
        self.winnable.start()

    async def warmed(self, timeout_s: float) -> None:
        """Until the search pools' first workers run (the engine imported), at most
        `timeout_s`: the worker says "ready" only then, so the first hint after a start
        does not pay the pools' cold start against its deadline (at load 30 it did)."""
        if self._warming:
            await asyncio.wait(self._warming, timeout=timeout_s)

    async def stop(self) -> None:
        await self.winnable.stop()
        self.advisor.stop()

    def figures(self) -> GripFigures:
        return GripFigures(len(self.grips.games), self.advisor.hints.pending, self.advisor.search.pending)
