"""The guided calibration on the tablet: the live camera picture and each step of ``calibration``.

Routes only forward to the desk (a ``CalibrationDesk``: the calibration tool's steps on the live
picture), which the composition root hands in (``attach``) when the display runs with a camera; every
change needs a joined tablet, and so does the live picture. A step that cannot be done answers 422
with its reason in plain words.
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
from companion.web.deps import Joined, session_token
from companion.web.errors import NotJoined

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

    def add_recording(self, offset: int, part: bytes) -> int: ...

    def enrol_cue(self, player: str) -> str: ...

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


def get_desk(conn: HTTPConnection) -> CalibrationDesk:
    desk: CalibrationDesk | None = getattr(conn.app.state, "calibration", None)
    if desk is None:
        raise HTTPException(409, "calibration needs the camera: start the display with a camera to calibrate from the tablet")
    return desk


def watching(request: Request) -> None:
    """A joined tablet, without spending its rate of changes: the picture is asked for a few times a second."""
    if not request.app.state.sessions.valid(session_token(request)):
        raise NotJoined("the camera's picture is shown only on a joined tablet: open /join on this tablet")


Desk = Annotated[CalibrationDesk, Depends(get_desk)]
Watching = Annotated[None, Depends(watching)]


def step(call: Callable[..., T], *args: Any) -> T:
    """Run a step; its refusal (a ValueError: CalibrationError, NoPicture, ProfileError) becomes a 422."""
    try:
        return call(*args)
    except ValueError as e:
        raise HTTPException(422, str(e)) from None


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
    return desk.state(paths=request.app.state.sessions.valid(session_token(request)))


@router.get("/api/calibration/frame.jpg", responses=refused(401, 409, 422))
def camera_frame(desk: Desk, _: Watching) -> Response:
    """The live picture: a camera looking into someone's home is shown only to a joined tablet."""
    return Response(step(desk.feed.jpeg), media_type="image/jpeg", headers={"Cache-Control": "no-store"})


@router.get("/api/calibration/markers.{kind}", responses=refused(401, 409, 422))
def marker_sheet(kind: Literal["pdf", "png"], desk: Desk) -> Response:
    """The marker sheet to print at 100 %, true to scale."""
    return Response(step(desk.sheet, kind), media_type="application/pdf" if kind == "pdf" else "image/png",
                    headers={"Content-Disposition": f'attachment; filename="incanto-markers.{kind}"'})


@router.post("/api/calibration/camera/photo", responses=refused(*CHANGES, 409, 422))
def photograph_board(body: Board, desk: Desk, _: Joined) -> dict[str, Any]:
    return {"message": step(desk.photograph_board, body.board)}


@router.post("/api/calibration/camera", responses=refused(*CHANGES, 409, 422))
def measure_camera(body: Board, desk: Desk, _: Joined) -> dict[str, Any]:
    return {"message": step(desk.measure_camera, body.board)}


@router.post("/api/calibration/table", responses=refused(*CHANGES, 409, 422))
def find_table(desk: Desk, _: Joined) -> dict[str, Any]:
    return {"message": step(desk.find_table)}


@router.post("/api/calibration/layout", responses=refused(*CHANGES, 409, 422))
def lay_out(body: Taps, desk: Desk, _: Joined) -> dict[str, Any]:
    return {"message": step(desk.lay_out, body.taps)}


@router.post("/api/calibration/layout/board", responses=refused(*CHANGES, 409, 422))
def place_from_board(body: Taps, desk: Desk, _: Joined) -> dict[str, Any]:
    return {"pixels": step(desk.from_board, body.taps),
            "message": "the rest is placed from the board: check each circle sits on its place, then save"}


@router.post("/api/calibration/wands/empty", responses=refused(*CHANGES, 409, 422))
def note_empty_table(desk: Desk, _: Joined) -> dict[str, Any]:
    return {"message": step(desk.take_empty_table)}


@router.post("/api/calibration/wands", responses=refused(*CHANGES, 409, 422))
def learn_wands(body: Watch, desk: Desk, _: Joined) -> dict[str, Any]:
    return step(desk.learn_wands, body.seconds)


@router.post("/api/calibration/cue/audio", responses=refused(*CHANGES, 409, 422))
async def chant_audio(request: Request, desk: Desk, _: Joined, offset: Annotated[int, Query(ge=0)]) -> dict[str, Any]:
    return {"received": step(desk.add_recording, offset, await request.body())}


@router.post("/api/calibration/cue", responses=refused(*CHANGES, 409, 422))
def enrol_chant(body: Chant, desk: Desk, _: Joined) -> dict[str, Any]:
    return {"message": step(desk.enrol_cue, body.player)}


@router.post("/api/calibration/validation", responses=refused(*CHANGES, 409, 422))
def start_validation(desk: Desk, _: Joined) -> dict[str, Any]:
    return step(desk.start_validation)


@router.post("/api/calibration/validation/read", responses=refused(*CHANGES, 409, 422))
def read_validation(body: Watch, desk: Desk, _: Joined) -> dict[str, Any]:
    return step(desk.validate, body.seconds)


@router.get("/api/calibration/tips", responses=refused(409, 422))
def tips_now(desk: Desk) -> dict[str, Any]:
    """The tip-switch check as it stands, asked a few times a second while the step is open."""
    return step(desk.tips_now)


@router.post("/api/calibration/tips", responses=refused(*CHANGES, 409, 422))
def start_tip_check(desk: Desk, _: Joined) -> dict[str, Any]:
    return step(desk.start_tip_check)


@router.post("/api/calibration/tips/lift", responses=refused(*CHANGES, 409, 422))
def lift_tips(desk: Desk, _: Joined) -> dict[str, Any]:
    return step(desk.lift_tips)
