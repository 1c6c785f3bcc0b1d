"""The display's FastAPI app: routers, the push hub's lifetime, the guards in front of them, and
refusals as clear 4xx answers (a store that cannot be written: 507 or 503, never a bare 500)."""
from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path
from typing import Any
from collections.abc import AsyncIterator

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from companion.errors import IllegalAction, MalformedAction, NothingToUndo, StaleAction, StoreError, UnknownGame, short_repr
from companion.night import Night
from companion.status import StatusBoard
from companion.web.answers import EVERY_ROUTE, refused
from companion.web.disk import StoreWatch
from companion.web.errors import (CalibrationBusy, DiskFull, NoGame, NotJoined, NotTheHost, NotThePi, TooManyRequests,
                                  UnknownQuestion, WrongJoinCode)
from companion.web.guard import HostGuard, own_names
from companion.web.push import Hub
from companion.web.ratelimit import JoinGuard, RateLimit
from companion.web.routers import game as game_routes
from companion.web.routers import games as games_routes
from companion.web.routers import night as night_routes
from companion.web.routers import session as session_routes
from companion.web.routers import status as status_routes
from companion.web.routers import stream as stream_routes
from companion.web.routers import calibration as calibration_routes
from companion.web.routers import words as words_routes
from companion.web.sessions import Sessions
from companion.web.settings import Settings
from companion.web.table import Table
from companion.words.said import words_of

STATIC = Path(__file__).parent / "static"
PAGES = {"/": "board.html", "/controls": "controls.html", "/night": "night.html", "/status": "status.html",
         "/join": "join.html", "/favicon.ico": "favicon.svg"}

# Each refusal and its HTTP status; the message always names the bad value.
REFUSALS: dict[type[Exception], int] = {
    IllegalAction: 422, MalformedAction: 400, StaleAction: 409, NothingToUndo: 409, UnknownGame: 400,
    NoGame: 404, UnknownQuestion: 404, NotJoined: 401, WrongJoinCode: 403, NotThePi: 403, NotTheHost: 403,
    TooManyRequests: 429, CalibrationBusy: 503, DiskFull: 507, StoreError: 503,
}


def create_app(night: Night, status: StatusBoard, settings: Settings) -> FastAPI:
    table = Table(night, status)
    hub = Hub(table.snapshot, settings.client_queue, settings.send_timeout_s)
    watch = StoreWatch(status, night.store.path)

    def publish(message: dict[str, Any]) -> None:
        watch.saved(message)
        hub.publish(message)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.start(asyncio.get_running_loop())
        table.tell(publish)
        watcher = asyncio.create_task(_watch_current_game(table, hub))
        yield
        watcher.cancel()
        await hub.close_all()

    app = FastAPI(title="Incanto display", lifespan=lifespan, docs_url=None, redoc_url=None)
    # A code given on the command line wins; otherwise the one kept in the store (the first start's).
    given = settings.join_code if "join_code" in settings.model_fields_set else None
    sessions = Sessions(night.store, settings.session_hours, given, first_code=settings.join_code)
    app.state.table, app.state.hub, app.state.store_watch = table, hub, watch
    app.state.settings = settings.model_copy(update={"join_code": sessions.join_code})
    app.state.sessions = sessions
    app.state.action_limit = RateLimit(settings.actions_per_minute)
    app.state.join_guard = JoinGuard(settings.joins_per_minute, settings.join_failures_per_minute)
    app.state.host_guard = JoinGuard(settings.joins_per_minute, settings.join_failures_per_minute)  # the host PIN's
    for routes in (game_routes, games_routes, night_routes, status_routes, session_routes, stream_routes, words_routes):
        app.include_router(routes.router, responses=refused(*EVERY_ROUTE))
    app.include_router(game_routes.pictures, responses=refused(*EVERY_ROUTE))
    _add_refusals(app)
    app.include_router(calibration_routes.router, responses=refused(*EVERY_ROUTE))  # answers 409 without a camera
    _add_pages(app)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(HostGuard, names=own_names(settings.hosts))  # outermost: before anything is read
    return app


async def _watch_current_game(table: Table, hub: Hub) -> None:
    """A game started outside the display (by a script, the demo) still reaches every page."""
    while True:
        await asyncio.sleep(1.0)
        if table.follow_current():
            hub.publish({"type": "snapshot", **table.snapshot()})


def _add_pages(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    for path, page in PAGES.items():
        app.add_api_route(path, _page(STATIC / page), include_in_schema=False)


def _page(file: Path) -> Any:
    async def page() -> FileResponse:
        return FileResponse(file, headers={"Cache-Control": "no-cache"},
                            media_type="image/svg+xml" if file.suffix == ".svg" else None)
    return page


def _add_refusals(app: FastAPI) -> None:
    for error, code in REFUSALS.items():
        app.add_exception_handler(error, _refusal(code))
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(sqlite3.Error, _store_failed)
    app.add_exception_handler(StarletteHTTPException, _http)


def _refusal(code: int) -> Any:
    async def handle(request: Request, exc: Exception) -> JSONResponse:
        body: dict[str, Any] = {"error": str(exc), "kind": type(exc).__name__}
        if isinstance(exc, IllegalAction):
            body["problems"] = [p.as_dict() for p in exc.problems]
        if isinstance(exc, StaleAction):
            body.update(stale=True, version=exc.head)  # the page refreshes and the tap is not applied
        if (said := words_of(exc)) is not None:  # raised with its catalogue words: the tablet's language says it
            body["words"] = said
        wait = getattr(exc, "retry_after_s", None)
        headers = {"Retry-After": str(max(1, round(wait)))} if isinstance(wait, (int, float)) else None
        return JSONResponse(body, status_code=code, headers=headers)
    return handle


async def _store_failed(request: Request, exc: Exception) -> JSONResponse:
    """SQLite refused a write (a full disk, most likely): the status page hears of it too."""
    refusal = request.app.state.store_watch.refusal(exc)
    code = REFUSALS[type(refusal)]
    return JSONResponse({"error": str(refusal), "kind": type(refusal).__name__}, status_code=code)


async def _invalid(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    problems = [f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']} (got {short_repr(e.get('input'))})"
                for e in exc.errors()]
    return JSONResponse({"error": "; ".join(problems), "kind": "InvalidRequest"}, status_code=422)


async def _http(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    message = str(exc.detail)
    if exc.status_code == 404:
        message = f"nothing at {request.url.path!r}: the pages are /, /controls, /night, /status and /join"
    elif exc.__cause__ is not None:  # e.g. a body that is not UTF-8, or JSON nested beyond reason
        message = f"{message}: {type(exc.__cause__).__name__}: {short_repr(str(exc.__cause__))}"
    body: dict[str, Any] = {"error": message, "kind": "HTTP"}
    if (said := words_of(exc.detail)) is not None:  # a route's own refusal, with its catalogue words
        body["words"] = said
    return JSONResponse(body, status_code=exc.status_code)


class BodyLimit:
    """Refuse request bodies over ``max_bytes`` with 413, before anything reads them whole."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if not declared.isdigit() or int(declared) > self.max_bytes:
            return await self._refuse(scope, send, f"request body of {declared.decode(errors='replace')!r} bytes; "
                                            f"at most {self.max_bytes} are accepted")
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.max_bytes:  # a body sent without an honest length
                raise HTTPException(413, f"request body over {self.max_bytes} bytes")
            return message

        await self.app(scope, counted, send)

    async def _refuse(self, scope: Scope, send: Send, message: str) -> None:
        await JSONResponse({"error": message, "kind": "TooLarge"}, status_code=413)(scope, _no_receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}
