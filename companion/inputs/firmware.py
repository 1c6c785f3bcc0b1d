"""The hub firmware's logic (firmware/hub.py), loaded into CPython.

The simulated hub and the GPIO races run the very code the Pico runs, so there is one debouncer,
one race rule and one protocol encoder, not a Python copy of each.
"""
from __future__ import annotations

import importlib.util
import os
from functools import cache
from pathlib import Path
from types import ModuleType

FIRMWARE_ENV = "INCANTO_FIRMWARE"


def firmware_dir() -> Path:
    override = os.environ.get(FIRMWARE_ENV)
    return Path(override) if override else Path(__file__).resolve().parents[2] / "firmware"


@cache
def hub_module() -> ModuleType:
    """firmware/hub.py as a module (named `incanto_hub_firmware`, so it cannot shadow anything)."""
    path = firmware_dir() / "hub.py"
    if not path.is_file():
        raise FileNotFoundError(f"hub firmware not found at {str(path)!r}; set ${FIRMWARE_ENV} to the firmware folder")
    spec = importlib.util.spec_from_file_location("incanto_hub_firmware", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
