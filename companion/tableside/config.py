"""What the table side is asked to start, as one validated value (``serve``'s flags, or the ``table``
part of the settings file, fill it in)."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, ValidationError

from companion import settings_file
from companion.settings_file import SettingsError

HUB_CHOICES = ("auto", "gpio", "none")  # or a serial port path / pyserial URL


class TableSideError(SettingsError):
    """A table-side setting that cannot be used; the message names the bad value (a ``ValueError``)."""


def default_camera() -> str:
    """The Pi camera when its library is installed, else the first USB camera."""
    return "picamera2" if importlib.util.find_spec("picamera2") is not None else "camera:0"


def _named(what: str) -> Any:
    def check(value: str) -> str:
        if not value.strip():
            raise ValueError(f"must be {what}")
        return value
    return AfterValidator(check)


Seconds = Annotated[float, Field(ge=0, strict=True)]


class TableSideSettings(BaseModel):
    """hub: "auto" (a plugged-in hub, else none), "gpio", "none", or a serial port / pyserial URL.
    camera: a ``vision.sources.open_source`` spec, or "none". calibration: the calibration file
    (None: where ``python -m calibration`` writes it). places: where each token place and seat lies on
    the table (None: the standard Incantibus layout)."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    hub: Annotated[str, _named(f"one of {', '.join(map(repr, HUB_CHOICES))} or a serial port")] = "auto"
    camera: Annotated[str, _named("a camera spec (picamera2, camera:N, a video or folder) or 'none'")] = "none"
    calibration: Path | None = Field(None, strict=False)
    vision_config: Path | None = Field(None, strict=False)
    places: Path | None = Field(None, strict=False)
    mic: StrictBool = False
    tip_switches: StrictBool = False
    hands: StrictBool = False  # MediaPipe hands for a wand whose band is hidden (costs start-up time and CPU)
    cue_templates: Path | None = Field(None, strict=False)
    # A folder: each casting's frames, cue and the table's answer kept there (``python -m vision read``).
    record: Path | None = Field(None, strict=False)
    swap_check_after_s: Seconds = 4.0  # the players need a moment to hand their wands over
    swap_recheck_s: Seconds = 3.0
    swap_give_up_s: Seconds = 40.0

    @property
    def wants_camera(self) -> bool:
        return self.camera != "none"


class TableSideConfig(TableSideSettings):
    """The settings as the table side takes them: made in code, a bad value raises TableSideError
    naming every bad setting. (Inside a settings file the file's model reads ``TableSideSettings``,
    so its problems are listed with the file's.)"""

    def __init__(self, **settings: Any) -> None:
        try:
            super().__init__(**settings)
        except ValidationError as e:
            raise TableSideError(settings_file.problems(e, type(self))) from None
