"""The chant book: every player's recorded "In-can-to!" takes, kept as files in one folder.

Each take is an ``.npz`` (16 kHz int16 audio and its features); ``index.json`` lists the takes, the
feature settings they were made with and the threshold chosen from them. The index is written last
and atomically, so a pulled plug leaves either the old book or the new one, never half of each.
"""
from __future__ import annotations

import json
import os
import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from companion.cue import CueError, dtw
from companion.cue.audio import to_int16
from companion.cue.features import FeatureConfig, chant_features

SCHEMA = 1
INDEX = "index.json"
FALLBACK_THRESHOLD = 2.8  # used only when no player has two takes to compare
# A chant is nearer than this many times the median distance between a player's own takes:
# measured on twelve synthetic voices, their chant at unseen speeds and pitches in table noise
# stays under it while "Canto", "Toronto" and the like stay over it.
DEFAULT_THRESHOLD_FACTOR = 2.3
SHORTLIST = 3  # takes looked at syllable by syllable after the quick pass


@dataclass(frozen=True)
class Template:
    """One enrolled take: (m, d) float32 features and the (n,) int16 audio they came from."""

    player: str
    features: np.ndarray
    audio: np.ndarray
    file: str


@dataclass(frozen=True)
class ChantBook:
    templates: tuple[Template, ...]
    feature_config: FeatureConfig
    threshold: float
    take_distances: tuple[float, ...]  # each take to its player's nearest other take

    @property
    def players(self) -> list[str]:
        return sorted({t.player for t in self.templates})

    def nearest(self, features: np.ndarray, band: float = 0.35, max_stretch: float = 2.0) -> tuple[str | None, float]:
        """(n, d) features of a phrase -> (player of the nearest template, its ``chant_distance``).
        Every take is compared on average first; only the few nearest are looked at closely."""
        rough = dtw.distances(features, [t.features for t in self.templates], band, max_stretch)
        candidates = [int(k) for k in np.argsort(rough)[:SHORTLIST] if np.isfinite(rough[k])]
        if not candidates:
            return None, float("inf")
        close = {k: dtw.chant_distance(features, self.templates[k].features, band) for k in candidates}
        best = min(close, key=close.__getitem__)
        return self.templates[best].player, close[best]


def check_player(name: str) -> str:
    """A player's name as typed at the table: 1-32 printable characters, not only spaces."""
    if not isinstance(name, str) or not name.strip() or len(name) > 32 or not name.isprintable():
        raise CueError(f"player name must be 1-32 printable characters; got {name!r}")
    return name.strip()


def take_distances(templates: Sequence[Template], band: float = 0.35) -> list[float]:
    """For each take of a player with two or more, the distance to that player's nearest other take."""
    found = []
    for k, take in enumerate(templates):
        others = [t.features for j, t in enumerate(templates) if j != k and t.player == take.player]
        if others:
            found.append(min(dtw.chant_distance(take.features, other, band) for other in others))
    return found


def choose_threshold(distances: Sequence[float], factor: float) -> float:
    """A phrase is the chant when nearer than ``factor`` x the median of how far a player's own
    takes are from each other: the spread of a voice, with room for noise. The median, because
    one player's odd take must not loosen the bar for everyone."""
    if not distances:
        return FALLBACK_THRESHOLD
    return float(factor * np.median(distances))


def empty(config: FeatureConfig = FeatureConfig()) -> ChantBook:
    return ChantBook((), config, FALLBACK_THRESHOLD, ())


def load(folder: Path | str) -> ChantBook:
    """Read a chant book; a folder without one is an empty book."""
    folder = Path(folder)
    index_path = folder / INDEX
    if not index_path.exists():
        return empty()
    try:
        index = json.loads(index_path.read_text())
    except json.JSONDecodeError as e:
        raise CueError(f"chant book index {str(index_path)!r} is damaged: {e}") from None
    if index.get("schema") != SCHEMA:
        raise CueError(f"chant book {str(index_path)!r} has schema {index.get('schema')!r}, expected {SCHEMA}")
    templates = tuple(_read_take(folder, entry) for entry in index["takes"])
    config = FeatureConfig(**index["feature_config"])
    return ChantBook(templates, config, float(index["threshold"]), tuple(index["take_distances"]))


def _read_take(folder: Path, entry: dict[str, str]) -> Template:
    path = folder / entry["file"]
    try:
        with np.load(path) as data:
            return Template(entry["player"], data["features"], data["audio"], entry["file"])
    except FileNotFoundError:
        raise CueError(f"chant book lists {entry['file']!r} but {str(path)!r} is missing") from None


def enrol(
    folder: Path | str, player: str, takes: Sequence[np.ndarray], factor: float = DEFAULT_THRESHOLD_FACTOR, config: FeatureConfig | None = None
) -> ChantBook:
    """Replace ``player``'s takes with new ones ((n,) 16 kHz audio each), rechoose the threshold
    and save. Other players' takes are kept (their features are recomputed if the settings changed)."""
    player = check_player(player)
    if len(takes) == 0:
        raise CueError(f"no takes given for player {player!r}")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    old = load(folder)
    config = config or old.feature_config
    kept = [_refresh(t, config, old.feature_config) for t in old.templates if t.player != player]
    new = [Template(player, chant_features(a, config), to_int16(a), f"{uuid.uuid4().hex[:12]}.npz") for a in takes]
    book = _book(tuple(kept + new), config, factor)
    for template in new + (kept if config != old.feature_config else []):
        _write_take(folder, template)
    _write_index(folder, book)
    _remove_unlisted(folder, book)
    return book


def _refresh(template: Template, config: FeatureConfig, was: FeatureConfig) -> Template:
    if config == was:
        return template
    return Template(template.player, chant_features(template.audio, config), template.audio, template.file)


def _book(templates: tuple[Template, ...], config: FeatureConfig, factor: float) -> ChantBook:
    distances = take_distances(templates)
    return ChantBook(templates, config, choose_threshold(distances, factor), tuple(distances))


def _write_take(folder: Path, template: Template) -> None:
    tmp = folder / f".{template.file}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        np.savez(f, features=template.features, audio=template.audio)
    tmp.replace(folder / template.file)


def _write_index(folder: Path, book: ChantBook) -> None:
    index = {
        "schema": SCHEMA,
        "feature_config": asdict(book.feature_config),
        "threshold": book.threshold,
        "take_distances": list(book.take_distances),
        "takes": [{"player": t.player, "file": t.file} for t in book.templates],
    }
    tmp = folder / f".{INDEX}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(index, indent=2))
    tmp.replace(folder / INDEX)


def _remove_unlisted(folder: Path, book: ChantBook) -> None:
    """Old takes go only after the new index no longer names them."""
    listed = {t.file for t in book.templates}
    for path in folder.glob("*.npz"):
        if path.name not in listed:
            path.unlink()
