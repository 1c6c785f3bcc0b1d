"""The settings of a night at the table, as one file: the display's and the table side's.

    {"display": {"port": 8080, "join_code": "246810"},
     "table": {"hub": "/dev/incanto-hub", "camera": "picamera2", "places": "/var/lib/incanto/places.json"},
     "speaker": {"volume": 60, "voice": "de", "mute": false}}

``serve`` reads ``settings.json`` from its data directory when there is one (or ``--settings FILE``);
a flag given on the command line wins over the file. A bad file is refused whole, every bad key named.
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from companion import settings_file
from companion.announce.announcer import SpeakerSettings
from companion.night_at_the_table import CannotStart
from companion.tableside.config import TableSideConfig, TableSideSettings
from companion.web.settings import Settings


class NightSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    display: Settings = Field(default_factory=Settings)
    table: TableSideSettings = Field(default_factory=TableSideSettings)
    speaker: SpeakerSettings = Field(default_factory=SpeakerSettings)

    def table_side(self) -> TableSideConfig:
        return TableSideConfig(**self.table.model_dump())


def read(path: Path | None) -> dict[str, Any]:
    """The file's own settings, checked whole (CannotStart naming every bad key); {} without a file."""
    if path is None:
        return {}
    raw = settings_file.read_json(path, CannotStart)
    settings_file.validate(NightSettings, raw, repr(str(path)), CannotStart)
    return dict(raw)


def merged(defaults: Mapping[str, Mapping[str, Any]], from_file: Mapping[str, Any],
           flags: Mapping[str, Mapping[str, Any]], where: str, names: Mapping[str, str] | None = None) -> NightSettings:
    """Defaults, then the file, then the flags given, validated together: every problem at once
    (``names``: what to call a key in the problems, e.g. the flag that set it)."""
    parts = {part: {**defaults.get(part, {}), **from_file.get(part, {}), **flags.get(part, {})}
             for part in ("display", "table", "speaker")}
    return settings_file.validate(NightSettings, parts, where, CannotStart, names)
