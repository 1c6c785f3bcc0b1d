"""The speaker from a tablet: ``GET /api/speaker`` (its settings and a few voices), ``POST /api/speaker``
(mute, volume, voice, or a test sentence; a session needed, as for every change). A change is in force
for the next sentence and kept in the data directory's ``settings.json`` (its ``speaker`` part), so the
next start speaks the same way. Only a display with a speaker has the route (``attach``)."""
from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, HTTPException, Request
from pydantic import Field, ValidationError

from companion.announce import Announcer, SpeakerSettings
from companion.status import StatusBoard
from companion.web.answers import CHANGES, EVERY_ROUTE, refused
from companion.web.bodies import Body
from companion.web.deps import Joined
from companion.words import say

router = APIRouter(prefix="/api/speaker", tags=["speaker"])
OFFERED = ("en-gb", "en-us", "de")  # the voices a tablet offers; settings.json may name any other
TEST_SENTENCE = "In-can-to! The speaker is working."  # announce.test in English


class SpeakerChange(Body):
    mute: bool | None = None
    volume: int | None = Field(None, ge=0, le=100)
    voice: str | None = Field(None, max_length=40)
    test: bool = False  # say a sentence now, to hear the change


@router.get("")
def shown(request: Request) -> dict[str, Any]:
    announcer: Announcer = request.app.state.speaker
    return {**announcer.settings.model_dump(), "voices": sorted({*OFFERED, announcer.settings.voice})}


@router.post("", responses=refused(*CHANGES, 422))
def change(body: SpeakerChange, request: Request, _: Joined) -> dict[str, Any]:
    announcer: Announcer = request.app.state.speaker
    changes = body.model_dump(exclude_none=True, exclude={"test"})
    try:
        settings = announcer.retune(**changes)
    except ValidationError as e:  # e.g. a voice name that could be no voice
        raise HTTPException(422, "; ".join(f"{'.'.join(map(str, p['loc']))} {p['input']!r}: {p['msg']}" for p in e.errors())) from None
    except ValueError as e:  # a voice espeak-ng does not have
        raise HTTPException(422, str(e)) from None
    request.app.state.keep_speaker(settings)
    report(request.app.state.table.status, settings)
    if body.test:
        announcer.say(say(settings.language, "announce.test"))
    return shown(request)


def keep_in(path: Path) -> Callable[[SpeakerSettings], None]:
    """Writes the ``speaker`` part of the settings file at ``path``, the other parts as they were."""
    def keep(settings: SpeakerSettings) -> None:
        current = json.loads(path.read_text()) if path.exists() else {}
        current["speaker"] = settings.model_dump()
        partial = path.with_suffix(".partial")
        partial.write_text(json.dumps(current, indent=1))
        os.replace(partial, path)
    return keep


def attach(app: FastAPI, announcer: Announcer, keep: Callable[[SpeakerSettings], None]) -> None:
    """The route, and the speaker on the status board: the status page shows its Speaker part only for
    a display whose board lists one."""
    app.state.speaker, app.state.keep_speaker = announcer, keep
    app.include_router(router, responses=refused(*EVERY_ROUTE))
    report(app.state.table.status, announcer.settings)


def report(status: StatusBoard, settings: SpeakerSettings) -> None:
    if settings.mute:
        status.report("speaker", "off", "muted", "unmute it on a joined tablet's status page",
                      words=("status.speaker.muted", {}), fix_words=("status.speaker.unmute", {}))
    else:
        status.report("speaker", "ok", f"announcing in voice {settings.voice!r} at volume {settings.volume}",
                      "change the voice or volume, or mute it, on a joined tablet's status page",
                      words=("status.speaker.ok", {"voice": settings.voice, "volume": settings.volume}),
                      fix_words=("status.speaker.change", {}))
