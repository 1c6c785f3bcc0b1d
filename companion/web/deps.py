"""The dependencies every route declares, once, as named types."""
from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from companion.web.errors import NotJoined, NotTheHost, NotThePi
from companion.web.push import Hub
from companion.web.ratelimit import JoinGuard, RateLimit
from companion.web.sessions import COOKIE, Sessions
from companion.web.settings import Settings
from companion.web.table import Table

HEADER = "X-Incanto-Session"  # for scripts and the bench; pages use the cookie
PI_ITSELF = {"127.0.0.1", "::1"}  # the Pi's own screen: a browser on the Pi, behind the Host guard


def get_table(conn: HTTPConnection) -> Table:
    table: Table = conn.app.state.table
    return table


def get_hub(conn: HTTPConnection) -> Hub:
    hub: Hub = conn.app.state.hub
    return hub


def get_settings(conn: HTTPConnection) -> Settings:
    settings: Settings = conn.app.state.settings
    return settings


def get_sessions(conn: HTTPConnection) -> Sessions:
    sessions: Sessions = conn.app.state.sessions
    return sessions


def get_join_guard(conn: HTTPConnection) -> JoinGuard:
    join_guard: JoinGuard = conn.app.state.join_guard
    return join_guard


def session_token(request: Request) -> str | None:
    return request.cookies.get(COOKIE) or request.headers.get(HEADER)


def joined(request: Request) -> str:
    """A valid session, within its rate limit: every change goes through here."""
    token = session_token(request)
    if not request.app.state.sessions.valid(token):
        raise NotJoined("changing the game needs the join code shown on the display: open /join on this tablet")
    limit: RateLimit = request.app.state.action_limit
    limit.take(token or "", who="this tablet")
    return token or ""


def address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def on_the_pi(request: Request) -> bool:
    return address(request) in PI_ITSELF


def the_pi(request: Request) -> None:
    """Only the Pi's own screen: what the host does, such as giving the table a new join code."""
    if not on_the_pi(request):
        raise NotThePi(f"only the Pi's own screen may do this, not {address(request)!r}")


def hosting(request: Request) -> str:
    """Who is changing the table's calibration, if a host: the Pi's own screen, or a joined tablet
    the host made a host (with the host PIN shown on the Pi). Calibration changes the table for
    everyone, so the join code alone is not enough."""
    if on_the_pi(request):
        return "the Pi's own screen"
    token = joined(request)
    if not request.app.state.sessions.is_host(token):
        raise NotTheHost("calibration changes the table for everyone: only the host may do it (on the Pi's own screen, "
                         "or on a tablet given the host PIN shown there)")
    return f"the tablet at {address(request)}"


TableDep = Annotated[Table, Depends(get_table)]
HubDep = Annotated[Hub, Depends(get_hub)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
SessionsDep = Annotated[Sessions, Depends(get_sessions)]
Joined = Annotated[str, Depends(joined)]
Address = Annotated[str, Depends(address)]
JoinGuardDep = Annotated[JoinGuard, Depends(get_join_guard)]
OnThePi = Annotated[bool, Depends(on_the_pi)]
ThePi = Annotated[None, Depends(the_pi)]
Hosting = Annotated[str, Depends(hosting)]
