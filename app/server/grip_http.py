"""HTTP side of solo Devil's Grip: new deal, look, act (action/undo/redo/hint/end), par
and the solution of a certified-winnable deal.

Hints, par and solutions are "search requests": each is rate-limited per game and per
client address (429 with Retry-After), and the search itself runs in the advisor's
worker processes, awaited here, so the event loop (and every Demon room on it) never
waits for it. A full worker queue answers 503 at once.

Starting games is budgeted per client address, and so are misses (an id or token that
is not a game): see docs/security.md. The service layer's `GripError` carries a wire code;
`STATUS` here says which HTTP status each code is.

Typed answers, encoded once
---------------------------
Every route declares its answer's type as `response_model` (`GripGameAnswer`,
`GripParAnswer`, `GripSolutionAnswer`, TypedDicts from `app.grip.service.shapes` and
`app.grip.rules.shapes`), so /docs and /openapi.json describe what is sent, and mypy
checks the code that builds it. Yet every route returns a ready `Response` with the
answer encoded once by orjson (`_json`), and FastAPI neither validates nor re-encodes a
`Response` a route returns: the model is documentation and a type, never work on the
event loop. Why: handing FastAPI the dict (or a pydantic model) sends it through
validation and `jsonable_encoder`, which walks every value in Python — about 10 ms for a
game with its ~300 legal actions, on the loop every Demon room shares. TypedDicts rather
than pydantic models because they are plain dicts at run time: nothing is built twice,
and the bytes stay exactly what they were (tests/server/test_grip_wire_golden.py pins
them).
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Header, HTTPException, Request
from fastapi.responses import Response

from app.grip.service.advisor import Busy, GripAdvisor
from app.grip.service.limits import KeyedLimiter
from app.grip.service.moves import RefusedBatch, StaleBatch, apply_batch, sync_answer
from app.grip.service.par import ParBook
from app.grip.service.sessions import GripError, GripSession, GripSessions
from app.grip.service.shapes import GripGameAnswer, GripParAnswer, GripSolutionAnswer, GripSyncAnswer
from app.grip.service.winnable import replay_line
from app.ops import instruments
from app.protocol.messages import GripMoves, GripRequest, NewGrip
from app.protocol.wire import dumps
from app.server.deps import AdvisorDep, BudgetsDep, GripLimitsDep, GripsDep, ParDep, WinnableDep, get_budgets
from app.server.limits import Budgets, request_address
from app.support.logfmt import log_event

router = APIRouter(prefix="/api/grip")

STATUS = {"not_found": 404, "invalid": 422, "illegal": 409, "bad_phase": 409, "internal": 500}

# The refusals each route may answer with (a JSON object with a `detail` message), for /docs.
_REFUSALS: dict[int | str, dict[str, Any]] = {
    404: {"description": "No such game, or not yours (the bearer token does not match)."},
    409: {"description": "Not now: an illegal action, the deal is over, or the game changed meanwhile."},
    422: {"description": "A malformed request."},
    429: {"description": "Too many searches from this game or address (see Retry-After)."},
    503: {"description": "The hint engine is busy, or no deal is certified yet (see Retry-After)."},
}


def _refusals(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: _REFUSALS[code] for code in codes}


def _http(err: GripError) -> HTTPException:
    return HTTPException(STATUS[err.code], err.message)


def _bearer(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


def _session(
    request: Request, grips: GripSessions, budgets: Budgets, game_id: str, authorization: str | None
) -> GripSession:
    address = request_address(request)
    budgets.check_misses(address)
    try:
        return grips.get(game_id, _bearer(authorization))
    except GripError as err:
        if err.code == "not_found":
            budgets.miss(address)
            instruments.GRIP_REFUSED_GUESSING.inc()
        raise _http(err) from err


def _limit(request: Request, limits: dict[str, KeyedLimiter], session: GripSession) -> None:
    """Per game, then per address: a flood is refused before it reaches a worker."""
    address = request_address(request)
    for limiter, key, what in ((limits["game"], session.id, "this game"), (limits["addr"], address, "your address")):
        if not limiter.allow(key):
            get_budgets(request).refusals.note("grip_searches", address)  # a summary per interval
            instruments.GRIP_REFUSED_RATE.inc()
            raise HTTPException(
                429,
                f"Too many hint, par or solution requests from {what}: slow down.",
                headers={"Retry-After": str(limiter.retry_after())},
            )


def _busy(err: Busy) -> HTTPException:
    instruments.GRIP_REFUSED_BUSY.inc()
    return HTTPException(503, "The hint engine is busy: try again in a moment.", headers={"Retry-After": "1"})


def _json(answer: GripGameAnswer | GripParAnswer | GripSolutionAnswer | GripSyncAnswer) -> Response:
    """The answer as JSON text, encoded once by orjson (the module docstring says why)."""
    return Response(content=dumps(answer), media_type="application/json")


def _describe(grips: GripSessions, par_book: ParBook, session: GripSession, token: str | None = None) -> Response:
    _know_par(par_book, session)
    return _json(grips.describe(session, token))


@router.post("", response_model=GripGameAnswer, responses=_refusals(422, 429, 503))
async def new_game(
    body: NewGrip, request: Request, grips: GripsDep, par_book: ParDep, winnable: WinnableDep, budgets: BudgetsDep
) -> Response:
    budgets.spend(budgets.grips, request_address(request), "new games")
    if body.winnable:
        if body.passes is not None or body.number is not None or body.daily:
            raise HTTPException(
                422, "Only deals that can be won: unlimited passes, no deal number, not the daily deal."
            )
        number = winnable.take()
        if number is None:
            raise HTTPException(
                503, "No deal has been certified winnable yet: try again in a minute.", headers={"Retry-After": "30"}
            )
        session, token = grips.new(number, False, None, winnable=True)
    else:
        session, token = grips.new(body.number, body.daily, body.passes)
    return _describe(grips, par_book, session, token)


@router.get("/{game_id}", response_model=GripGameAnswer, responses=_refusals(404))
async def get_game(
    game_id: str,
    request: Request,
    grips: GripsDep,
    par_book: ParDep,
    budgets: BudgetsDep,
    authorization: str | None = Header(None),
) -> Response:
    return _describe(grips, par_book, _session(request, grips, budgets, game_id, authorization))


@router.post("/{game_id}", response_model=GripGameAnswer, responses=_refusals(404, 409, 422, 429, 503))
async def act(
    game_id: str,
    body: GripRequest,
    request: Request,
    grips: GripsDep,
    par_book: ParDep,
    budgets: BudgetsDep,
    limits: GripLimitsDep,
    advisor: AdvisorDep,
    authorization: str | None = Header(None),
) -> Response:
    arrived = time.monotonic()
    session = _session(request, grips, budgets, game_id, authorization)
    if body.op == "hint":
        return await _hint(request, grips, par_book, limits, advisor, session, arrived)
    try:
        return _describe(grips, par_book, grips.operate(session, body.op, body.action))
    except GripError as err:
        raise _http(err) from err


@router.get("/{game_id}/sync", response_model=GripSyncAnswer, responses=_refusals(404))
async def get_sync(
    game_id: str,
    request: Request,
    grips: GripsDep,
    par_book: ParDep,
    budgets: BudgetsDep,
    authorization: str | None = Header(None),
) -> Response:
    """The game as a page that plays with its own rules keeps it: the record and `seq`."""
    session = _session(request, grips, budgets, game_id, authorization)
    _know_par(par_book, session)
    return _json(sync_answer(grips, session))


@router.post("/{game_id}/moves", response_model=GripSyncAnswer, responses=_refusals(404, 409, 422))
async def post_moves(
    game_id: str,
    body: GripMoves,
    request: Request,
    grips: GripsDep,
    par_book: ParDep,
    budgets: BudgetsDep,
    authorization: str | None = Header(None),
) -> Response:
    """The operations the page already played, replayed all or nothing (moves.py). A
    refusal is a 409 whose body carries, besides `detail`, `code` ("illegal" or
    "stale"), the refused operation's `index` and the server's `game` (the sync answer)
    for the page to go back to."""
    session = _session(request, grips, budgets, game_id, authorization)
    try:
        apply_batch(grips, session, body.base, body.ops)
    except (RefusedBatch, StaleBatch) as err:
        refusal = {
            "detail": err.message,
            "code": "illegal" if isinstance(err, RefusedBatch) else "stale",
            "index": err.index if isinstance(err, RefusedBatch) else None,
            "game": sync_answer(grips, session),
        }
        return Response(content=dumps(refusal), status_code=409, media_type="application/json")
    _know_par(par_book, session)
    return _json(sync_answer(grips, session))


def _know_par(par_book: ParBook, session: GripSession) -> None:
    game = session.game
    if session.par is None and game.number is not None:
        session.par = par_book.known(game.number, game.state.passes_allowed)


async def _hint(
    request: Request,
    grips: GripSessions,
    par_book: ParBook,
    limits: dict[str, KeyedLimiter],
    advisor: GripAdvisor,
    session: GripSession,
    arrived: float,
) -> Response:
    try:
        grips.check_hintable(session)
    except GripError as err:
        raise _http(err) from err
    _limit(request, limits, session)
    instruments.GRIP_HINTS.inc()
    changes = session.changes
    try:
        answer = await advisor.hint(grips.hint_view(session), arrived=arrived)
    except Busy as err:
        raise _busy(err) from err
    try:
        kept = grips.record_hint(session, changes, answer.action, answer.expected_score, answer.complete)
    except GripError as err:
        raise _http(err) from err
    if not kept:
        raise HTTPException(409, "The game changed while the hint was searched: ask again.")
    instruments.GRIP_HINT_SECONDS.observe(time.monotonic() - arrived)
    log_event(
        "grip_hint",
        game=session.id,
        budget_ms=round(answer.budget_s * 1000),
        complete=answer.complete,
        ms=round((time.monotonic() - arrived) * 1000),
    )
    return _describe(grips, par_book, session)


@router.get("/{game_id}/par", response_model=GripParAnswer, responses=_refusals(404, 429, 503))
async def get_par(
    game_id: str,
    request: Request,
    grips: GripsDep,
    par_book: ParDep,
    budgets: BudgetsDep,
    limits: GripLimitsDep,
    authorization: str | None = Header(None),
) -> Response:
    """The deal's par (computed on the first request for that deal: may take seconds)."""
    session = _session(request, grips, budgets, game_id, authorization)
    number = _number(session)
    passes = session.game.state.passes_allowed
    par = par_book.known(number, passes)
    if par is None:
        _limit(request, limits, session)
        try:
            par = await par_book.get(number, passes)
        except Busy as err:
            raise _busy(err) from err
    session.par = par
    return _json({"number": number, "passes": passes, "par": par})


@router.get("/{game_id}/solution", response_model=GripSolutionAnswer, responses=_refusals(404, 409, 429))
async def get_solution(
    game_id: str,
    request: Request,
    grips: GripsDep,
    winnable: WinnableDep,
    budgets: BudgetsDep,
    limits: GripLimitsDep,
    authorization: str | None = Header(None),
) -> Response:
    """The certified winning line of a finished certified-winnable deal, with the view
    after every step, so the page can replay it without knowing the rules. The game is
    marked `used_hint` from then on (docs/rules.md: what counts as unaided)."""
    session = _session(request, grips, budgets, game_id, authorization)
    _limit(request, limits, session)
    if not session.game.state.is_over():
        raise HTTPException(409, "The solution is shown once the deal is over.")
    number = _number(session)
    line = winnable.solution(number) if session.winnable else None
    if line is None:
        raise HTTPException(404, "This deal has no stored solution (only deals dealt as winnable have one).")
    initial, steps = replay_line(number, line)
    grips.solution_shown(session)  # an aided game from now on, like a hinted one
    return _json({"number": number, "initial": initial, "steps": steps})


def _number(session: GripSession) -> int:
    """The game's deal number; every game the server deals has one (a game made from a
    bare layout, as tests build, has none, and so no par and no solution)."""
    if session.game.number is None:
        raise HTTPException(404, "This game has no deal number.")
    return session.game.number
