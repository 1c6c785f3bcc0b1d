"""The chant book: every player's recorded "In-can-to!" takes, and their near misses, kept as files in
one folder.

Each take is an ``.npz`` (16 kHz int16 audio and its features); ``index.json`` lists the takes (each
a ``chant`` or a ``near_miss``: the game's name and words like it, said by the same player), the
feature settings they were made with and the threshold chosen from them. The index is written last
and atomically, so a pulled plug leaves either the old book or the new one, never half of each.
"""
from __future__ import annotations

import json
import os
import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
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
# With near misses enrolled the threshold sits this share of the way from the chant's widest own
# take distance towards the nearest near miss.
NEAR_MISS_SHARE = 0.5
KINDS = ("chant", "near_miss")


@dataclass(frozen=True)
class Template:
    """One enrolled take: (m, d) float32 features and the (n,) int16 audio they came from."""

    player: str
    features: np.ndarray
    audio: np.ndarray
    file: str
    kind: str = "chant"  # or "near_miss": a word a player says that must never be the cue


@dataclass(frozen=True)
class ChantBook:
    templates: tuple[Template, ...]
    feature_config: FeatureConfig
    threshold: float
    take_distances: tuple[float, ...]  # each take to its player's nearest other take
    near_misses: tuple[Template, ...] = ()
    near_miss_distances: tuple[float, ...] = ()  # each near miss to the nearest chant take
    warnings: tuple[str, ...] = ()  # what enrolment found doubtful, for the enrol command to say

    @property
    def players(self) -> list[str]:
        return sorted({t.player for t in self.templates})

    def nearest(self, features: np.ndarray, band: float = 0.35, max_stretch: float = 2.0) -> tuple[str | None, float]:
        """(n, d) features of a phrase -> (player of the nearest chant take, its ``chant_distance``)."""
        return nearest_of(self.templates, features, band, max_stretch)

    def nearest_near_miss(self, features: np.ndarray, band: float = 0.35, max_stretch: float = 2.0) -> tuple[str | None, float]:
        """(n, d) features -> (whose near miss is nearest, its ``chant_distance``); inf with none."""
        return nearest_of(self.near_misses, features, band, max_stretch)


def widened(takes: Sequence[Template], config: FeatureConfig, warps: Sequence[float]) -> tuple[Template, ...]:
    """Each take, then each take again as if said with every formant ``warp`` times higher (a
    voice pitched up or down moves its formants too): a player's four takes then also cover
    the pitches between and beyond them. Computed from the stored audio, so the book keeps one
    copy of each take."""
    warped = [replace(t, features=_warped(t, config, w)) for t in takes for w in warps if w != 1.0]
    return tuple(takes) + tuple(warped)


_WARPED: dict[tuple[str, str, FeatureConfig, float], np.ndarray] = {}


def _warped(take: Template, config: FeatureConfig, warp: float) -> np.ndarray:
    """A take's warped features, kept while the take is (its file name is new at every enrolment),
    so a detector made again for the same book costs nothing."""
    key = (take.player, take.file, config, warp)
    if key not in _WARPED:
        if len(_WARPED) > 4096:
            _WARPED.clear()
        _WARPED[key] = chant_features(take.audio, config, warp)
    return _WARPED[key]


def nearest_of(takes: Sequence[Template], features: np.ndarray, band: float, max_stretch: float) -> tuple[str | None, float]:
    """(n, d) features -> (player of the nearest take, its ``chant_distance``); inf with none."""
    take, distance = closest(takes, features, band, max_stretch)
    return (take.player if take is not None else None), distance


def closest(takes: Sequence[Template], features: np.ndarray, band: float, max_stretch: float) -> tuple[Template | None, float]:
    """The nearest take and its ``chant_distance``. Every take is compared on average first;
    only the few nearest are looked at closely."""
    if not takes:
        return None, float("inf")
    rough = dtw.distances(features, [t.features for t in takes], band, max_stretch)
    candidates = [int(k) for k in np.argsort(rough)[:SHORTLIST] if np.isfinite(rough[k])]
    if not candidates:
        return None, float("inf")
    close = {k: dtw.chant_distance(features, takes[k].features, band) for k in candidates}
    best = min(close, key=close.__getitem__)
    return takes[best], close[best]


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


def choose_threshold(distances: Sequence[float], factor: float, near_miss_distances: Sequence[float] = ()) -> float:
    """A phrase is the chant when nearer than ``factor`` x the median of how far a player's own
    takes are from each other: the spread of a voice, with room for noise. The median, because
    one player's odd take must not loosen the bar for everyone. With near misses enrolled, the bar
    also stays under the nearest of them: between the two, never past a word that is not the cue."""
    if not distances:
        return FALLBACK_THRESHOLD
    spread = float(factor * np.median(distances))
    if not near_miss_distances:
        return spread
    return min(spread, NEAR_MISS_SHARE * float(np.min(near_miss_distances)) + (1 - NEAR_MISS_SHARE) * float(np.max(distances)))


def overlap_warnings(templates: Sequence[Template], distances: Sequence[float], near: Sequence[float],
                     near_misses: Sequence[Template]) -> tuple[str, ...]:
    """Near misses as close to the chant as the chant's own takes are to each other: no threshold
    separates the two for that word, so its near-miss take decides (and the table should know)."""
    if not distances or not near:
        return ()
    worst_take = float(np.max(distances))
    return tuple(f"{t.player!r}'s near miss {t.file} is as close to the chant ({d:.2f}) as the chant's own takes "
                 f"are to each other ({worst_take:.2f}): say the chant more clearly, or the near miss as you say it at the table"
                 for t, d in zip(near_misses, near) if d <= worst_take)


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
    takes = [_read_take(folder, entry) for entry in index["takes"]]
    # A book enrolled before clicks were bridged or rings damped keeps its takes' stored features.
    config = FeatureConfig(**{"declick": False, "damp_rings": False, **index["feature_config"]})
    return ChantBook(tuple(t for t in takes if t.kind == "chant"), config, float(index["threshold"]),
                     tuple(index["take_distances"]), tuple(t for t in takes if t.kind == "near_miss"),
                     tuple(index.get("near_miss_distances", ())), tuple(index.get("warnings", ())))


def _read_take(folder: Path, entry: dict[str, str]) -> Template:
    path = folder / entry["file"]
    kind = entry.get("kind", "chant")
    if kind not in KINDS:
        raise CueError(f"chant book lists {entry['file']!r} as {kind!r}; a take is one of {KINDS!r}")
    try:
        with np.load(path) as data:
            return Template(entry["player"], data["features"], data["audio"], entry["file"], kind)
    except FileNotFoundError:
        raise CueError(f"chant book lists {entry['file']!r} but {str(path)!r} is missing") from None


def enrol(
    folder: Path | str, player: str, takes: Sequence[np.ndarray], factor: float = DEFAULT_THRESHOLD_FACTOR,
    config: FeatureConfig | None = None, near_misses: Sequence[np.ndarray] = (),
) -> ChantBook:
    """Replace ``player``'s takes with new ones ((n,) 16 kHz audio each: the chant, and words
    that must not be it), rechoose the threshold and save. Other players' takes are kept (their
    features are recomputed if the settings changed)."""
    player = check_player(player)
    if len(takes) == 0:
        raise CueError(f"no takes given for player {player!r}")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    old = load(folder)
    config = config or old.feature_config
    kept = [_refresh(t, config, old.feature_config) for t in old.templates + old.near_misses if t.player != player]
    new = [_template(player, a, config, "chant") for a in takes] + [_template(player, a, config, "near_miss") for a in near_misses]
    book = _book(tuple(kept + new), config, factor)
    for template in new + (kept if config != old.feature_config else []):
        _write_take(folder, template)
    _write_index(folder, book)
    _remove_unlisted(folder, book)
    return book


def _template(player: str, audio: np.ndarray, config: FeatureConfig, kind: str) -> Template:
    return Template(player, chant_features(audio, config), to_int16(audio), f"{uuid.uuid4().hex[:12]}.npz", kind)


def _refresh(template: Template, config: FeatureConfig, was: FeatureConfig) -> Template:
    if config == was:
        return template
    return Template(template.player, chant_features(template.audio, config), template.audio, template.file, template.kind)


def _book(takes: tuple[Template, ...], config: FeatureConfig, factor: float) -> ChantBook:
    chants = tuple(t for t in takes if t.kind == "chant")
    misses = tuple(t for t in takes if t.kind == "near_miss")
    distances = take_distances(chants)
    near = near_miss_distances(chants, misses)
    return ChantBook(chants, config, choose_threshold(distances, factor, near), tuple(distances), misses, tuple(near),
                     overlap_warnings(chants, distances, near, misses))


def near_miss_distances(chants: Sequence[Template], misses: Sequence[Template], band: float = 0.35) -> list[float]:
    """For each near miss, how close it comes to the nearest chant take of any player."""
    return [nearest_of(chants, m.features, band, 2.0)[1] for m in misses]


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
        "near_miss_distances": list(book.near_miss_distances),
        "warnings": list(book.warnings),
        "takes": [{"player": t.player, "file": t.file, "kind": t.kind} for t in book.templates + book.near_misses],
    }
    tmp = folder / f".{INDEX}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(index, indent=2))
    tmp.replace(folder / INDEX)


def _remove_unlisted(folder: Path, book: ChantBook) -> None:
    """Old takes go only after the new index no longer names them."""
    listed = {t.file for t in book.templates + book.near_misses}
    for path in folder.glob("*.npz"):
        if path.name not in listed:
            path.unlink()
