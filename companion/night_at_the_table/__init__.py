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

import logging
import sqlite3
from pathlib import Path
from collections.abc import Mapping
from typing import Any, Protocol

from fastapi import FastAPI

from companion.announce import Announcer
from companion.errors import StoreError
from companion.night_at_the_table.address import JoinAddress, join_address
from companion.night import Night
from companion.settings_file import SettingsError
from companion.status import StatusBoard
from companion.store import Store
from companion.tableside import Table, TableSide, TableSideConfig
from companion.tableside.camera import Opener
from companion.web.app import create_app
from companion.web.routers import cue as cue_route
from companion.web.settings import Settings

log = logging.getLogger(__name__)


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


def show_join_address(app: FastAPI, host: str, port: int, found: JoinAddress | None = None) -> JoinAddress:
    """Point the join code's QR code at the Pi's address on the table's network (``found``, else looked
    up now); a display listening on one address only is joined at that address."""
    if host in ("0.0.0.0", "::", ""):
        where = found or join_address()
    else:
        where = JoinAddress(host, host)  # chosen on the command line: joined there, as asked
    app.state.join_base, app.state.join_lan = where.url(port), where.lan_url(port)
    return where


def announce_join(app: FastAPI, where: JoinAddress) -> str:
    """One line for the terminal and the system log: where to join and with which code."""
    code = app.state.settings.join_code
    line = f"Incanto display: {app.state.join_base}   join code: {code}"
    if app.state.join_lan != app.state.join_base:
        line += f"   (or {app.state.join_lan})"
    if where.alone:
        line += "\nthe Pi is on no network yet: only this machine can join (connect it to the table's Wi-Fi)"
    print(line, flush=True)
    return line


class Listener(Protocol):
    def heard(self, message: Mapping[str, Any]) -> None: ...


def listen_to_the_table(app: FastAPI, listener: Listener) -> None:
    """Everything the display publishes (each game event with its view, the table side's notices) is
    also heard by ``listener``: the announcer, the backups. Call before ``table_side``, whose notices go
    to the publish it is given. The push hub has one publish and no listeners of its own, so it is
    wrapped here, where the parts are put together."""
    hub = app.state.hub
    to_tablets = hub.publish

    def publish(message: dict[str, Any]) -> None:
        to_tablets(message)
        try:
            listener.heard(message)
        except Exception:  # a listener's failure must never reach the game that published
            log.exception("%r failed on a %r message", listener, message.get("type"))

    setattr(hub, "publish", publish)  # noqa: B010 (mypy: a method is replaced on this one instance)


announce_at_the_table = listen_to_the_table  # the announcer is one such listener


def chime_at_the_cue(side: TableSide, announcer: Announcer) -> None:
    """Every cue, from any source, rings the chime before the casting is read."""
    read = side.cue.on_cue

    def on_cue(cue: Any) -> None:
        announcer.cue()
        read(cue)

    side.cue.on_cue = on_cue
