"""What the table side is asked to start, as one validated value (``serve``'s flags fill it in)."""
from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

HUB_CHOICES = ("auto", "gpio", "none")  # or a serial port path / pyserial URL


class TableSideError(ValueError):
    """A table-side setting that cannot be used; the message names the bad value."""


def default_camera() -> str:
    """The Pi camera when its library is installed, else the first USB camera."""
    return "picamera2" if importlib.util.find_spec("picamera2") is not None else "camera:0"


@dataclass(frozen=True)
class TableSideConfig:
    """hub: "auto" (a plugged-in hub, else none), "gpio", "none", or a serial port / pyserial URL.
    camera: a ``vision.sources.open_source`` spec, or "none". calibration: the calibration file
    (None: where ``python -m calibration`` writes it). places: where each token place and seat lies on
    the table (None: the standard Incantibus layout)."""

    hub: str = "auto"
    camera: str = "none"
    calibration: Path | None = None
    vision_config: Path | None = None
    places: Path | None = None
    mic: bool = False
    hands: bool = False  # MediaPipe hands for a wand whose band is hidden (costs start-up time and CPU)
    cue_templates: Path | None = None
    swap_check_after_s: float = 4.0  # the players need a moment to hand their wands over
    swap_recheck_s: float = 3.0
    swap_give_up_s: float = 40.0

    def __post_init__(self) -> None:
        if not isinstance(self.hub, str) or not self.hub.strip():
            raise TableSideError(f"hub must be one of {HUB_CHOICES!r} or a serial port, not {self.hub!r}")
        if not isinstance(self.camera, str) or not self.camera.strip():
            raise TableSideError(f"camera must be a camera spec or 'none', not {self.camera!r}")
        for name in ("swap_check_after_s", "swap_recheck_s", "swap_give_up_s"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise TableSideError(f"{name} must be a non-negative number of seconds, not {value!r}")

    @property
    def wants_camera(self) -> bool:
        return self.camera != "none"
