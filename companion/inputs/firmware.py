"""The hub firmware's logic (firmware/hub.py), loaded into CPython.

The simulated hub and the GPIO races run the very code the Pico runs, so there is one debouncer,
one race rule and one protocol encoder, not a Python copy of each. The firmware ships inside the
installed package (the ``firmware`` package's data), so this works from a checkout and from a wheel
alike; ``$INCANTO_FIRMWARE`` points at another firmware folder (a hub's firmware under development).
"""
from __future__ import annotations

import os
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from types import ModuleType

FIRMWARE_ENV = "INCANTO_FIRMWARE"
MODULE = "incanto_hub_firmware"  # its name in CPython, so it cannot shadow anything


def hub_source() -> Traversable:
    """firmware/hub.py: from ``$INCANTO_FIRMWARE`` when set, else the installed ``firmware`` package."""
    override = os.environ.get(FIRMWARE_ENV)
    return Path(override) / "hub.py" if override else resources.files("firmware") / "hub.py"


@cache
def hub_module() -> ModuleType:
    """firmware/hub.py as a module."""
    source = hub_source()
    if not source.is_file():
        raise FileNotFoundError(f"hub firmware not found at {str(source)!r}; set ${FIRMWARE_ENV} to the firmware folder")
    module = ModuleType(MODULE)
    module.__file__ = str(source)
    exec(compile(source.read_text(encoding="utf-8"), str(source), "exec"), module.__dict__)
    return module
