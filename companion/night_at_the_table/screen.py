"""Whether the Pi has a screen: a connected HDMI, DSI (the official touch screen) or DPI output, as the
kernel's display driver reports it. Without one the join code is spoken and printed instead."""
from __future__ import annotations

from pathlib import Path

DRM = Path("/sys/class/drm")
OUTPUTS = ("-HDMI-", "-DSI-", "-DPI-", "-eDP-", "-DP-", "-VGA-")


def attached(drm: Path = DRM) -> list[str]:
    """The connected outputs' names (``card1-HDMI-A-1``); [] on a headless Pi or a machine without DRM."""
    found = []
    for status in sorted(drm.glob("card*-*/status")):
        name = status.parent.name
        try:
            connected = status.read_text().strip() == "connected"
        except OSError:
            continue
        if connected and any(kind in f"{name}-" for kind in OUTPUTS):
            found.append(name)
    return found
