"""What the HTTP routers are given, as typed FastAPI dependencies.

A handler names what it needs (`hub: HubDep`, `grips: GripsDep`…) instead of reaching
into `request.app.state`; `create_app` puts each object on the app's state once, and
these functions read it back. A test, or another app, can swap one through
`app.dependency_overrides[get_hub]`.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.server.limits import Budgets, RoomWatch
from app.config import Settings
from app.grip.service.advisor import GripAdvisor
from app.grip.service.limits import KeyedLimiter
from app.grip.service.par import ParBook
from app.grip.service.sessions import GripSessions
from app.grip.service.winnable import WinnableDeals
from app.demon.hub.hub import Hub


def get_settings(request: Request) -> Settings:
    return request.app.state.settings


def get_hub(request: Request) -> Hub:
    return request.app.state.hub


def get_grips(request: Request) -> GripSessions:
    return request.app.state.grips


def get_grip_advisor(request: Request) -> GripAdvisor:
    return request.app.state.grip_advisor


def get_grip_par(request: Request) -> ParBook:
    return request.app.state.grip_par


def get_grip_winnable(request: Request) -> WinnableDeals:
    return request.app.state.grip_winnable


def get_grip_limits(request: Request) -> dict[str, KeyedLimiter]:
    return request.app.state.grip_limits


def get_budgets(request: Request) -> Budgets:
    return request.app.state.budgets


def get_room_watch(request: Request) -> RoomWatch:
    return request.app.state.room_watch


SettingsDep = Annotated[Settings, Depends(get_settings)]
HubDep = Annotated[Hub, Depends(get_hub)]
GripsDep = Annotated[GripSessions, Depends(get_grips)]
AdvisorDep = Annotated[GripAdvisor, Depends(get_grip_advisor)]
ParDep = Annotated[ParBook, Depends(get_grip_par)]
WinnableDep = Annotated[WinnableDeals, Depends(get_grip_winnable)]
GripLimitsDep = Annotated[dict[str, KeyedLimiter], Depends(get_grip_limits)]
BudgetsDep = Annotated[Budgets, Depends(get_budgets)]
RoomWatchDep = Annotated[RoomWatch, Depends(get_room_watch)]
