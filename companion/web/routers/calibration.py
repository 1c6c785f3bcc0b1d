"""The guided calibration on the tablet: the live camera picture and each step of ``calibration``.

Routes only forward to the desk (a ``CalibrationDesk``: the calibration tool's steps on the live
picture), which the composition root hands in (``attach``) when the display runs with a camera. The live
picture needs a joined tablet; a change to the table (camera, table, layout, wands, cue, tip check, a
rollback) needs a host: the Pi's own screen, or a tablet given the host PIN shown there. Every step runs
in the calibration's workshop (``companion.web.workshop``): one at a time, off the event loop and the
shared thread pool, within a time budget, so a tap or a push never waits for it. A step that cannot be
done answers 422 with its reason in plain words; a busy workshop or a step over its budget, 503.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, Protocol, TypeVar

from fastapi import APIRouter, Depends, FastAPI, HTTPException, Query, Request
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from companion.web.answers import CHANGES, refused
from companion.web.deps import Hosting, Joined, on_the_pi, session_token
from companion.web.errors import CalibrationBusy, NotJoined
from companion.web.sessions import hashed
from companion.web.workshop import Workshop
from companion.words.said import Said

# Route names are looked up by other parts of the display (``url_path_for("cue")``): each name here is its own.
router = APIRouter(tags=["calibration"])
PAGE = Path(__file__).resolve().parents[1] / "static" / "calibration.html"
T = TypeVar("T")


class LivePicture(Protocol):
    def jpeg(self) -> bytes:
        """The camera's newest picture as a JPEG; ``ValueError`` when there is none yet."""


class CalibrationDesk(Protocol):
    """The steps the tablet drives, each refused with a ``ValueError`` in plain words (the calibration
    tool's desk, ``calibration.desk``; the display never imports the tool)."""

    @property
    def feed(self) -> LivePicture: ...

    def acting(self, by: str) -> None:
        """Who asks for the next step, for the change log."""

    def starting(self) -> None:
        """A step begins (in the workshop): it has not been given up."""

    def give_up(self) -> None:
        """The display stopped waiting for the step in hand (over its budget): a step that watches stops."""

    def roll_back(self, version: int) -> str: ...

    def state(self, paths: bool = True) -> dict[str, Any]:
        """What the page shows; ``paths=False`` for a tablet that has not joined: no file's full path."""

    def sheet(self, kind: str) -> bytes: ...

    def photograph_board(self, board: str) -> str: ...

    def measure_camera(self, board: str) -> str: ...

    def find_table(self) -> str: ...

    def lay_out(self, taps: Mapping[str, Any]) -> str: ...

    def from_board(self, taps: Mapping[str, Any]) -> dict[str, list[float]]: ...

    def take_empty_table(self) -> str: ...

    def learn_wands(self, seconds: float) -> dict[str, Any]: ...

    def add_recording(self, offset: int, part: bytes, tablet: str = "") -> int: ...

    def enrol_cue(self, player: str, tablet: str = "") -> str: ...

    def start_chant(self, tablet: str = "") -> dict[str, Any]:
        """Record from the Pi's own microphone for ``tablet``."""

    def chant_now(self, tablet: str = "") -> dict[str, Any]:
        """The recording's ``recording``, ``kept``, ``mine``, ``level`` (0-1), ``seconds``, ``peak_dbfs``, ``problem``."""

    def stop_chant(self, player: str, tablet: str = "") -> str:
        """The recording ended and enrolled for ``player``."""

    def start_validation(self) -> dict[str, Any]: ...

    def validate(self, seconds: float) -> dict[str, Any]: ...

    def start_tip_check(self) -> dict[str, Any]: ...

    def lift_tips(self) -> dict[str, Any]: ...

    def tips_now(self) -> dict[str, Any]:
        """Each wand's tip switch now: ``phase``, ``status``, ``summary``, ``problems`` and ``wands``
        (each ``wand``, ``state`` pressed/lifted/not known, ``clicked``, ``ok``, ``words``)."""


def attach(app: FastAPI, desk: CalibrationDesk) -> None:
    """Give the display the desk on the table's camera; without one, every route answers 409."""
    app.state.calibration = desk
    app.state.workshop = Workshop()


class Words:
    """What the routes say themselves: each its catalogue key and its English (every language in companion/words)."""
    NO_CAMERA = ("calibration.refused.no_camera", "this table runs without a camera, so there is nothing to calibrate: "
                 "plug the camera into the Pi, then restart Incanto")
    RECORD_JOIN = ("calibration.refused.record_join",
                   "recording the chant needs the join code shown on the display: join on this tablet first")
    WATCH_JOIN = ("calibration.refused.watch_join", "the camera's picture is shown only on a joined tablet: join on this tablet first")
    FROM_BOARD = ("calibration.said.from_board", "the rest is placed from the board: check each circle sits on its place, then save")


def told(message: str) -> dict[str, Any]:
    """A step's answer: the desk's English, and its catalogue words when it names them (a ``Said``)."""
    return {"message": message, "words": getattr(message, "words", None)}


def reason(error: ValueError) -> str:
    """A refusal's sentence as raised (a ``Said`` keeps its catalogue words for the answer's ``words``)."""
    return error.args[0] if len(error.args) == 1 and isinstance(error.args[0], str) else str(error)


def get_desk(conn: HTTPConnection) -> CalibrationDesk:
    desk: CalibrationDesk | None = getattr(conn.app.state, "calibration", None)
    if desk is None:
        raise HTTPException(409, Said(*Words.NO_CAMERA))
    return desk


def get_workshop(conn: HTTPConnection) -> Workshop:
    workshop: Workshop | None = getattr(conn.app.state, "workshop", None)
    if workshop is None:
        workshop = conn.app.state.workshop = Workshop()
    return workshop


def recorder(request: Request) -> str:
    """Whose recording a part belongs to: each joined tablet (or the Pi's own screen) has its own."""
    token = session_token(request)
    if request.app.state.sessions.valid(token):
        return hashed(token or "")[:16]
    if on_the_pi(request):
        return "the Pi"
    raise NotJoined(Said(*Words.RECORD_JOIN))


def watching(request: Request) -> None:
    """A joined tablet, without spending its rate of changes: the picture is asked for a few times a second."""
    if not request.app.state.sessions.valid(session_token(request)):
        raise NotJoined(Said(*Words.WATCH_JOIN))


Desk = Annotated[CalibrationDesk, Depends(get_desk)]
Watching = Annotated[None, Depends(watching)]
Shop = Annotated[Workshop, Depends(get_workshop)]
Recorder = Annotated[str, Depends(recorder)]


def step(call: Callable[..., T], *args: Any) -> T:
    """Run a light step here; its refusal (a ValueError: CalibrationError, NoPicture, ProfileError) becomes a 422."""
    try:
        return call(*args)
    except ValueError as e:
        raise HTTPException(422, reason(e)) from None


async def work(shop: Workshop, call: Callable[..., T], *args: Any, desk: CalibrationDesk | None = None) -> T:
    """Run a heavy step of ``desk`` in the workshop (503 when busy or over budget, and the step given up);
    its refusal becomes a 422."""
    def step_of_desk(*given: Any) -> T:
        if desk is not None:
            desk.starting()
        return call(*given)

    try:
        return await shop.run(step_of_desk, *args)
    except CalibrationBusy as busy:
        if busy.over_budget and desk is not None:
            desk.give_up()
        raise
    except ValueError as e:
        raise HTTPException(422, reason(e)) from None


def by(desk: CalibrationDesk, who: str, call: Callable[..., T]) -> Callable[..., T]:
    """``call`` as done by ``who`` (the desk logs each change with who made it); run in the workshop,
    one step at a time, so the name and the step stay together."""
    def done_by(*args: Any) -> T:
        desk.acting(who)
        return call(*args)
    return done_by


class Taps(BaseModel):
    model_config = ConfigDict(extra="forbid")
    taps: dict[str, Any]


class Board(BaseModel):
    model_config = ConfigDict(extra="forbid")
    board: str = Field("chessboard:9x6:25", max_length=60)


class Watch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seconds: float = Field(3.0, ge=0.5, le=10.0)


class Chant(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player: str = Field(min_length=1, max_length=40)


@router.get("/calibration", include_in_schema=False)
async def calibration_page() -> FileResponse:
    return FileResponse(PAGE, headers={"Cache-Control": "no-cache"})


@router.get("/api/calibration", responses=refused(401, 409, 422))
def calibration_state(request: Request, desk: Desk) -> dict[str, Any]:
    """What the page shows, and ``host``: whether this tablet may change the table (else the page asks
    for the host PIN before the first step)."""
    sessions, token = request.app.state.sessions, session_token(request)
    host = on_the_pi(request) or (sessions.valid(token) and sessions.is_host(token or ""))
    return desk.state(paths=sessions.valid(token)) | {"host": bool(host)}


@router.get("/api/calibration/frame.jpg", responses=refused(401, 409, 422))
def camera_frame(desk: Desk, _: Watching) -> Response:
    """The live picture: a camera looking into someone's home is shown only to a joined tablet."""
    return Response(step(desk.feed.jpeg), media_type="image/jpeg", headers={"Cache-Control": "no-store"})


@router.get("/api/calibration/markers.{kind}", responses=refused(401, 409, 422))
async def marker_sheet(kind: Literal["pdf", "png"], desk: Desk, shop: Shop) -> Response:
    """The marker sheet to print at 100 %, true to scale."""
    return Response(await work(shop, desk.sheet, kind), media_type="application/pdf" if kind == "pdf" else "image/png",
                    headers={"Content-Disposition": f'attachment; filename="incanto-markers.{kind}"'})


@router.post("/api/calibration/camera/photo", responses=refused(*CHANGES, 409, 422))
async def photograph_board(body: Board, desk: Desk, who: Hosting, shop: Shop) -> dict[str, Any]:
    return told(await work(shop, by(desk, who, desk.photograph_board), body.board))


@router.post("/api/calibration/camera", responses=refused(*CHANGES, 409, 422))
async def measure_camera(body: Board, desk: Desk, who: Hosting, shop: Shop) -> dict[str, Any]:
    return told(await work(shop, by(desk, who, desk.measure_camera), body.board))


@router.post("/api/calibration/table", responses=refused(*CHANGES, 409, 422))
async def find_table(desk: Desk, who: Hosting, shop: Shop) -> dict[str, Any]:
    return told(await work(shop, by(desk, who, desk.find_table)))


@router.post("/api/calibration/layout", responses=refused(*CHANGES, 409, 422))
async def lay_out(body: Taps, desk: Desk, who: Hosting, shop: Shop) -> dict[str, Any]:
    return told(await work(shop, by(desk, who, desk.lay_out), body.taps))


@router.post("/api/calibration/layout/board", responses=refused(*CHANGES, 409, 422))
async def place_from_board(body: Taps, desk: Desk, _: Joined, shop: Shop) -> dict[str, Any]:
    return {"pixels": await work(shop, desk.from_board, body.taps),
            **told(Said(*Words.FROM_BOARD))}


@router.post("/api/calibration/wands/empty", responses=refused(*CHANGES, 409, 422))
async def note_empty_table(desk: Desk, who: Hosting, shop: Shop) -> dict[str, Any]:
    return told(await work(shop, by(desk, who, desk.take_empty_table)))


@router.post("/api/calibration/wands", responses=refused(*CHANGES, 409, 422))
async def learn_wands(body: Watch, desk: Desk, who: Hosting, shop: Shop) -> dict[str, Any]:
    return await work(shop, by(desk, who, desk.learn_wands), body.seconds, desk=desk)


@router.post("/api/calibration/cue/audio", responses=refused(*CHANGES, 409, 422))
async def chant_audio(request: Request, desk: Desk, tablet: Recorder,
                      offset: Annotated[int, Query(ge=0, le=4_000_000)]) -> dict[str, Any]:
    """A part of this tablet's own recording (small: the body limit holds); its header is checked as it arrives."""
    return {"received": step(desk.add_recording, offset, await request.body(), tablet)}


@router.post("/api/calibration/cue", responses=refused(*CHANGES, 409, 422))
async def enrol_chant(body: Chant, desk: Desk, who: Hosting, tablet: Recorder, shop: Shop) -> dict[str, Any]:
    return told(await work(shop, by(desk, who, desk.enrol_cue), body.player, tablet))


@router.post("/api/calibration/cue/microphone", responses=refused(*CHANGES, 409, 422))
def start_chant(desk: Desk, _: Hosting, tablet: Recorder) -> dict[str, Any]:
    """Record the chant from the Pi's own microphone (the one that hears the cue), for this tablet."""
    return step(desk.start_chant, tablet)


@router.get("/api/calibration/cue/microphone", responses=refused(401, 409))
def chant_level(desk: Desk, tablet: Recorder) -> dict[str, Any]:
    """The recording's level and length, asked for a few times a second by the page's meter."""
    return desk.chant_now(tablet)


@router.post("/api/calibration/cue/microphone/stop", responses=refused(*CHANGES, 409, 422))
async def stop_chant(body: Chant, desk: Desk, who: Hosting, tablet: Recorder, shop: Shop) -> dict[str, Any]:
    """The recording ended and put through the same checks as a WAV take; a refused take says why."""
    return told(await work(shop, by(desk, who, desk.stop_chant), body.player, tablet))


@router.post("/api/calibration/validation", responses=refused(*CHANGES, 409, 422))
async def start_validation(desk: Desk, _: Joined, shop: Shop) -> dict[str, Any]:
    return await work(shop, desk.start_validation)


@router.post("/api/calibration/validation/read", responses=refused(*CHANGES, 409, 422))
async def read_validation(body: Watch, desk: Desk, _: Joined, shop: Shop) -> dict[str, Any]:
    return await work(shop, desk.validate, body.seconds, desk=desk)


@router.get("/api/calibration/tips", responses=refused(409, 422))
def tips_now(desk: Desk) -> dict[str, Any]:
    """The tip-switch check as it stands, asked a few times a second while the step is open."""
    return step(desk.tips_now)


@router.post("/api/calibration/tips", responses=refused(*CHANGES, 409, 422))
def start_tip_check(desk: Desk, _: Hosting) -> dict[str, Any]:
    return step(desk.start_tip_check)


@router.post("/api/calibration/tips/lift", responses=refused(*CHANGES, 409, 422))
def lift_tips(desk: Desk, _: Hosting) -> dict[str, Any]:
    return step(desk.lift_tips)


class Rollback(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    version: int = Field(ge=1)


@router.post("/api/calibration/rollback", responses=refused(*CHANGES, 409, 422))
async def roll_back(body: Rollback, desk: Desk, who: Hosting, shop: Shop) -> dict[str, Any]:
    """An earlier calibration in use again (the history is in ``GET /api/calibration``'s ``versions``)."""
    return told(await work(shop, by(desk, who, desk.roll_back), body.version))
