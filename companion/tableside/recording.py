"""The live table's recording: each casting's frames, its cue and how the table settled it, in
``python -m vision record``'s format, so ``python -m vision read --recording DIR`` reads every casting
of the night again and scores the reading against what the table answered.

A casting the camera read is settled at once (the table took it as read); one it asked about is
settled when the game moves on: the cast made at the next version is the table's answer.
"""
from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.engine.game import Game
from companion.tableside.camera import TableCamera
from companion.tableside.places import TablePlaces
from vision.frames import Frame, FrameSource, Passing
from vision.paints import documented_paints
from vision.profile import load_profile, save_places, save_profile
from vision.recording import BEFORE_S, Answer, Cue, Recorder


@dataclass(frozen=True)
class _Awaited:
    """A casting asked about: cued at ``t``, read at game version ``base``, the wands' ``holders``."""

    t: float
    base: int
    holders: Mapping[str, int]
    asked: tuple[int, ...]


class TableRecording:
    """Keeps the night in ``folder``; the reader hands it each casting (``casting``), and how each was
    settled (``read_as_seen``, ``asked``)."""

    def __init__(self, folder: Path, camera: TableCamera, places: TablePlaces, calibration: Path) -> None:
        self.folder, self.camera = Path(folder), camera
        self.folder.mkdir(parents=True, exist_ok=True)
        profile = load_profile(calibration)
        if not profile.wands:  # as the live pipeline reads them: the documented paints until the wand step ran
            profile = profile.model_copy(update={"wands": documented_paints()})
        save_profile(profile, self.folder / "profile.json")
        save_places(places, self.folder / "places.json")
        self.recorder = Recorder(self.folder)
        self._lock = threading.Lock()  # the reader's thread writes; stopping the table side settles the last
        self._awaited: _Awaited | None = None

    def casting(self, t: float, wands: Sequence[int], legal: Iterable[str], source: FrameSource) -> FrameSource:
        """The casting cued at ``t``: the second before it and every frame the reading reads are kept."""
        with self._lock:
            self.recorder.cue(Cue(t, tuple(wands), tuple(sorted(set(legal)))))
            before = self.camera.frames_since(t - BEFORE_S, 0.0)
            while (frame := before.read()) is not None and frame.t < t:
                self.recorder.add(frame)
        return Passing(source, self.add)

    def read_as_seen(self, t: float, targets: Mapping[int, str | None]) -> None:
        """The camera read every wand and the game took the casting."""
        with self._lock:
            self.recorder.answer(Answer(t, dict(targets)))

    def asked(self, t: float, base: int, holders: Mapping[str, int], asked: Iterable[int]) -> None:
        """The table was asked; its answer is the cast the game makes next (``settle``)."""
        with self._lock:
            self._awaited = _Awaited(t, base, dict(holders), tuple(sorted(asked)))

    def settle(self, game: Game) -> None:
        """Write the answer to the casting asked about, once the game has moved on from it."""
        with self._lock:
            awaited = self._awaited
            if awaited is None or game.version <= awaited.base:
                return
            self._awaited = None
            made = next((e for e in game.history() if e["seq"] == awaited.base + 1), None)
            cast = _cast_targets(made)
            if cast is not None and set(awaited.holders) <= set(cast):
                by_wand = {awaited.holders[p]: t for p, t in cast.items() if p in awaited.holders}
                self.recorder.answer(Answer(awaited.t, by_wand, awaited.asked))

    def add(self, frame: Frame) -> None:
        with self._lock:
            self.recorder.add(frame)

    def close(self) -> None:
        with self._lock:
            self.recorder.close()


def _cast_targets(entry: Mapping[str, Any] | None) -> dict[str, str | None] | None:
    """The players' targets of a cast entry; None for any other entry (an undo, another prompt)."""
    payload = (entry or {}).get("payload") or {}
    targets = payload.get("targets") if isinstance(payload, dict) else None
    return dict(targets) if isinstance(targets, dict) else None


