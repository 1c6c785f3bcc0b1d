"""A full disk: the tap is refused saying so, the status page says what to do, and the stored game is
exactly what the tablets were told. The store lives on a real, tiny filesystem that is filled up."""
from __future__ import annotations

import errno
import os
import shutil
import subprocess
import uuid
from pathlib import Path
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from companion.night import Night
from companion.status import StatusBoard
from companion.store import Store
from companion.web.app import create_app
from companion.web.settings import Settings

PLAYERS = ["Lera", "Kirill", "Katya", "Rosa"]
CODE = "424242"


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MB tmpfs mounted for this test (root only; skipped, saying why, where it cannot be)."""
    if shutil.which("mount") is None:
        pytest.skip("no mount command to make a small filesystem")
    where = tmp_path / "disk"
    where.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", f"incanto-{uuid.uuid4().hex[:8]}", str(where)],
                          capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs root): {made.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(folder: Path) -> Path:
    """Fill the filesystem of ``folder`` to the last byte."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        for size in (1 << 16, 4096, 512, 1):
            try:
                while os.write(fd, b"\0" * size):
                    pass
            except OSError as e:
                assert e.errno == errno.ENOSPC
    finally:
        os.close(fd)
    return filler


def cast() -> dict[str, object]:
    return {"type": "cast", "targets": {p: None for p in PLAYERS}}


def test_a_full_disk_refuses_the_tap_says_so_and_keeps_the_game(small_disk: Path) -> None:
    path = small_disk / "night.sqlite"
    status = StatusBoard()
    with Store(path) as store:
        night = Night.resume_or_start(store)
        night.start_game("counting", PLAYERS, seed=1)
        app = create_app(night, status, Settings(join_code=CODE, actions_per_minute=600))
        with TestClient(app, raise_server_exceptions=False) as tablet:
            tablet.post("/api/session", json={"code": CODE})
            told = [tablet.post("/api/game/actions", json={"action": cast(), "action_id": f"t{n}"}).json()["event"]
                    for n in range(2)]
            history = tablet.get("/api/game/history").json()

            filler = fill(small_disk)
            refused = tablet.post("/api/game/actions", json={"action": cast(), "action_id": "t2"})
            assert refused.status_code == 507, refused.text
            assert "disk is full" in refused.json()["error"] and refused.json()["kind"] == "DiskFull"
            shown = {d["device"]: d for d in tablet.get("/api/status").json()["devices"]}["store"]
            assert shown["level"] == "error" and "disk is full" in shown["message"] and "free" in shown["fix"]
            assert tablet.get("/api/game/history").json() == history  # nothing half-applied
            assert tablet.post("/api/session", json={"code": CODE}).status_code == 507  # a join is refused too

            filler.unlink()  # the host frees some space; the same tap again is taken
            again = tablet.post("/api/game/actions", json={"action": cast(), "action_id": "t2"})
            assert again.status_code == 200, again.text
            told.append(again.json()["event"])
            shown = {d["device"]: d for d in tablet.get("/api/status").json()["devices"]}["store"]
            assert shown["level"] == "ok"

    with Store(path) as store:  # what is on disk is exactly what the tablets were told
        kept = [e for e in Night.resume_or_start(store).current.history() if e["kind"] == "action"]  # type: ignore[union-attr]
        assert [(e["seq"], e["payload"]) for e in kept] == [(e["seq"], e["payload"]) for e in told]
