"""Joining: the code shown on the display gives a tablet a session (a cookie)."""
from __future__ import annotations

from typing import Any

import segno
from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.routing import NoMatchFound

from companion.web.deps import Address, SessionsDep, SettingsDep, session_token
from companion.web.errors import NotJoined
from companion.web.sessions import COOKIE

router = APIRouter(prefix="/api/session", tags=["session"])

LOCAL = {"127.0.0.1", "::1", "localhost"}


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str = Field(min_length=1, max_length=12)


@router.post("")
def join(body: Join, request: Request, response: Response, sessions: SessionsDep, who: Address) -> dict[str, Any]:
    request.app.state.join_limit.take(who, who=who)
    token = sessions.join(body.code.strip())
    settings = request.app.state.settings
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


@router.delete("")
def leave(request: Request, response: Response, sessions: SessionsDep) -> dict[str, Any]:
    if token := session_token(request):
        sessions.leave(token)
    response.delete_cookie(COOKIE)
    return {"joined": False}


@router.get("/code")
def code(request: Request, sessions: SessionsDep, settings: SettingsDep, who: Address) -> dict[str, Any]:
    """The join code and its QR code, for the Pi's own screen or a tablet that has joined already:
    watchers on the LAN never see it, or the code would protect nothing."""
    if who not in LOCAL and not sessions.valid(session_token(request)):
        raise NotJoined("the join code is shown on the display and on tablets that have joined")
    url = f"{request.base_url}join?code={settings.join_code}"
    qr = segno.make(url, error="m")
    return {"code": settings.join_code, "url": url, "qr_svg": qr.svg_inline(omitsize=True, dark="#111", light="#fff")}
