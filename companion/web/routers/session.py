"""Joining: the code shown on the display gives a tablet a session (a cookie). The Pi's own screen
sees the code, and may give the table a new one."""
from __future__ import annotations

from typing import Any

import segno
from fastapi import APIRouter, Request, Response
from pydantic import Field
from starlette.routing import NoMatchFound

from companion.web.answers import CHANGES, refused
from companion.web.bodies import Body
from companion.web.deps import (Address, JoinGuardDep, Joined, OnThePi, SessionsDep, SettingsDep, ThePi,
                                session_token)
from companion.web.errors import NotJoined
from companion.web.ratelimit import JoinGuard
from companion.web.sessions import COOKIE

router = APIRouter(prefix="/api/session", tags=["session"])


class Join(Body):
    code: str = Field(min_length=1, max_length=12)


class HostPin(Body):
    pin: str = Field(min_length=1, max_length=12)


class NewCode(Body):
    end_sessions: bool = False  # also sign every tablet out (someone joined who should not have)


@router.post("", responses=refused(403, 429, 503, 507))
def join(body: Join, response: Response, sessions: SessionsDep, guard: JoinGuardDep, settings: SettingsDep,
         who: Address, on_the_pi: OnThePi) -> dict[str, Any]:
    token = guard.admit(who, lambda: sessions.join(body.code.strip()), exempt=on_the_pi)
    response.set_cookie(COOKIE, token, max_age=int(settings.session_hours * 3600), httponly=True, samesite="strict")
    return {"joined": True}


@router.get("")
def whoami(request: Request, sessions: SessionsDep) -> dict[str, Any]:
    """``cue``: whether this display hears the tablet's cue button (a table side gave it ``/api/cue``),
    so the controls show the button only where a tap can do something."""
    return {"joined": sessions.valid(session_token(request)), "cue": _hears_cue(request)}


def _hears_cue(request: Request) -> bool:
    """``routers.cue`` names its route ``cue`` (attached only with a cue button); looked up by name, since included
    routers are resolved lazily and do not list their paths in ``app.routes``."""
    try:
        return bool(request.app.url_path_for("cue") == "/api/cue")
    except NoMatchFound:
        return False


@router.delete("", responses=refused(503, 507))
def leave(request: Request, response: Response, sessions: SessionsDep) -> dict[str, Any]:
    if token := session_token(request):
        sessions.leave(token)
    response.delete_cookie(COOKIE)
    return {"joined": False}


@router.post("/host", responses=refused(*CHANGES))
def become_host(body: HostPin, request: Request, sessions: SessionsDep, who: Address, token: Joined) -> dict[str, Any]:
    """A joined tablet becomes a host with the host PIN shown on the Pi's own screen (guessing it is
    guarded as the join code is)."""
    guard: JoinGuard = request.app.state.host_guard
    def made() -> str:
        sessions.make_host(token, body.pin.strip())
        return token

    guard.admit(who, made)
    return {"host": True}


@router.get("/code", responses=refused(401))
def code(request: Request, sessions: SessionsDep, on_the_pi: OnThePi) -> dict[str, Any]:
    """The join code and its QR code, for the Pi's own screen or a tablet that has joined already:
    watchers on the LAN never see it, or the code would protect nothing."""
    if not on_the_pi and not sessions.valid(session_token(request)):
        raise NotJoined("the join code is shown on the display and on tablets that have joined")
    shown = _shown(request, sessions.join_code)
    return {**shown, "host_pin": sessions.host_pin} if on_the_pi else shown


@router.post("/code", responses=refused(*CHANGES))
def new_code(body: NewCode, request: Request, sessions: SessionsDep, _: ThePi) -> dict[str, Any]:
    """A new join code, from the Pi's own screen: the old one stops working at once."""
    return {**_shown(request, sessions.rotate(body.end_sessions)), "sessions": sessions.count()}


def _shown(request: Request, join_code: str) -> dict[str, Any]:
    """The QR code carries the Pi's address on the table's network (``app.state.join_base``, set by whoever
    serves the display), never the page's own: the Pi's screen shows the board at localhost. ``lan``: the
    numeric address, for a phone that cannot resolve the ``.local`` name."""
    base = getattr(request.app.state, "join_base", None) or str(request.base_url)
    url = f"{base}join?code={join_code}"
    lan = getattr(request.app.state, "join_lan", None)
    qr = segno.make(url, error="m")
    return {"code": join_code, "url": url, "lan_url": f"{lan}join?code={join_code}" if lan and lan != base else None,
            "qr_svg": qr.svg_inline(omitsize=True, dark="#111", light="#fff")}
