"""What the HTTP routers are given, as typed FastAPI dependencies.

A handler names what it needs (`hub: HubDep`, `grips: GripsDep`…) instead of reaching
into `request.app.state`; `create_app` puts each object on the app's state once, and
these functions read it back (Starlette's state is untyped: each function names the type
`create_app` stored). A test, or another app, can swap one through
`app.dependency_overrides[get_hub]`.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.config import Settings
from app.demon.hub.hub import Hub
from app.grip.service.advisor import GripAdvisor
from app.grip.service.limits import KeyedLimiter
from app.grip.service.par import ParBook
from app.grip.service.sessions import GripSessions
from app.grip.service.winnable import WinnableDeals
from app.server.limits import Budgets, RoomWatch


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def get_grips(request: Request) -> GripSessions:
    grips: GripSessions = request.app.state.grips
    return grips


def get_grip_advisor(request: Request) -> GripAdvisor:
    grip_advisor: GripAdvisor = request.app.state.grip_advisor
    return grip_advisor


def get_grip_par(request: Request) -> ParBook:
    grip_par: ParBook = request.app.state.grip_par
    return grip_par


def get_grip_winnable(request: Request) -> WinnableDeals:
    grip_winnable: WinnableDeals = request.app.state.grip_winnable
    return grip_winnable


def get_grip_limits(request: Request) -> dict[str, KeyedLimiter]:
    grip_limits: dict[str, KeyedLimiter] = request.app.state.grip_limits
    return grip_limits


def get_budgets(request: Request) -> Budgets:
    budgets: Budgets = request.app.state.budgets
    return budgets


def get_room_watch(request: Request) -> RoomWatch:
    room_watch: RoomWatch = request.app.state.room_watch
    return room_watch


SettingsDep = Annotated[Settings, Depends(get_settings)]
HubDep = Annotated[Hub, Depends(get_hub)]
GripsDep = Annotated[GripSessions, Depends(get_grips)]
AdvisorDep = Annotated[GripAdvisor, Depends(get_grip_advisor)]
ParDep = Annotated[ParBook, Depends(get_grip_par)]
WinnableDep = Annotated[WinnableDeals, Depends(get_grip_winnable)]
GripLimitsDep = Annotated[dict[str, KeyedLimiter], Depends(get_grip_limits)]
BudgetsDep = Annotated[Budgets, Depends(get_budgets)]
RoomWatchDep = Annotated[RoomWatch, Depends(get_room_watch)]
