"""The table's words for the pages: one catalogue per language (``companion.words``), and which one a
tablet gets when it has not chosen (its browser's ``Accept-Language``)."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse

from companion import words
from companion.web.answers import refused

router = APIRouter(prefix="/api/words", tags=["words"])
COOKIE = "incanto_language"  # set by the page's language switch (static/js/words.js)


def tablet_language(request: Request) -> str:
    """The language of the tablet asking: its switch (a cookie), else its browser's languages."""
    return words.language(request.headers.get("accept-language"), request.cookies.get(COOKIE))


@router.get("", responses=refused())
def languages(request: Request) -> dict[str, Any]:
    return {"languages": list(words.LANGUAGES), "language": tablet_language(request)}


@router.get("/{lang}", responses=refused(400))
def catalogue(lang: str) -> JSONResponse:
    if lang not in words.LANGUAGES:
        raise HTTPException(400, f"no words in language {lang!r}; there are {', '.join(words.LANGUAGES)}")
    return JSONResponse(dict(words.catalogue(lang)), headers={"Cache-Control": "no-cache"})
