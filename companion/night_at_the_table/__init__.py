"""A night at the table, put together: the one place that knows every part.

``serve``, ``demo`` and the benches assemble the store, the night, the display and the table side
here, and nowhere else. The arrows below run one way: the display (``companion.web``) knows the engine
and the small interfaces it declares itself (its cue button); the table side (``companion.tableside``)
knows the engine, ``vision``, ``inputs`` and ``cue``, and declares the ``Table`` it needs. Neither
knows the other: this package hands the display's table to the table side, and the table side's cue
button to the display.

    with open_store(path) as store:
        app = display(Night.resume_or_start(store), status, settings)
        side = table_side(app, status, config)
"""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from companion.errors import StoreError
from companion.night import Night
from companion.settings_file import SettingsError
from companion.status import StatusBoard
from companion.store import Store
from companion.tableside import Table, TableSide, TableSideConfig
from companion.tableside.camera import Opener
from companion.web.app import create_app
from companion.web.routers import cue as cue_route
from companion.web.settings import Settings


class CannotStart(SettingsError):
    """What keeps a night from starting (a store that cannot be used, a bad settings file), in one
    line per problem; the command prints them and exits 2."""


def open_store(path: Path) -> Store:
    """The night's store; CannotStart naming the file when it is damaged, not Incanto's, or in a
    folder that is missing or cannot be written."""
    if not path.parent.is_dir():
        raise CannotStart(f"the store {str(path)!r} is in a folder that does not exist ({str(path.parent)!r})")
    try:
        return Store(path)
    except StoreError as e:
        raise CannotStart(str(e)) from None
    except (sqlite3.Error, OSError) as e:  # e.g. a read-only folder: the new file cannot be written
        raise CannotStart(f"cannot use the store {str(path)!r}: {e}") from None


def resume_night(store: Store, name: str | None = None) -> Night:
    try:
        return Night.resume_or_start(store, name) if name else Night.resume_or_start(store)
    except (StoreError, sqlite3.Error) as e:
        raise CannotStart(f"cannot use the store {str(store.path)!r}: {e}") from None


def display(night: Night, status: StatusBoard, settings: Settings) -> FastAPI:
    """The tablets' display of the night; every device reports to ``status``, which its pages read."""
    return create_app(night, status, settings)


def table_side(app: FastAPI, status: StatusBoard, config: TableSideConfig, *, opener: Opener | None = None,
               **devices: Any) -> TableSide:
    """The table side at the display's table: its notices go to the display's push stream, and the
    tablets' cue button to the table side's cue."""
    table: Table = app.state.table
    side = TableSide(table, status, config, publish=app.state.hub.publish, opener=opener, **devices)
    cue_route.attach(app, side)  # the tablet's cue and Not-a-cue buttons
    return side


