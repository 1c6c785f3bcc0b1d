"""Reading and writing the profile for the tool: every refusal a CalibrationError in plain words, and
the last good profile kept beside it.

Each profile the tool writes is also copied to ``NAME.last-good``. When the profile is refused
(damaged, stale, another camera resolution), ``load_kept`` says why and gives the last good one, so a
night can go on with what worked while the reason is shown.

Every profile written is also kept in ``NAME.history/`` (the last ``KEPT``, numbered), with a log of
what changed, when and by whom (``changes.jsonl``), so a calibration that made things worse is rolled
back to any earlier one (``rollback``), whatever the last-good copy holds by then.
"""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

from calibration.model import CalibrationError
from pydantic import ValidationError

from companion.words.said import InEach, Said, words_of
from vision.profile import SCHEMA_VERSION, Profile, ProfileError, load_profile, save_profile

LAST_GOOD = ".last-good"


def last_good_path(path: Path) -> Path:
    return Path(path).with_name(Path(path).name + LAST_GOOD)


def load(path: Path, resolution: tuple[int, int] | None = None) -> Profile:
    try:
        return load_profile(Path(path), resolution)
    except ProfileError as e:
        raise CalibrationError(str(e)) from None


KEPT = 20  # profiles kept in the history
CHANGES_KEPT = 200


def history_path(path: Path) -> Path:
    return Path(path).with_name(Path(path).name + ".history")


def save(profile: Profile, path: Path) -> None:
    """Write the profile, keep it as the last good one and in the history (each atomically)."""
    save_profile(profile, Path(path))
    save_profile(profile, last_good_path(path))
    folder = history_path(path)
    kept = versions(path)
    save_profile(profile, folder / f"{(kept[-1] + 1) if kept else 1:05d}.json")
    for old in kept[:-KEPT + 1]:
        (folder / f"{old:05d}.json").unlink(missing_ok=True)


def versions(path: Path) -> list[int]:
    """The numbers of the profiles kept in the history, oldest first."""
    folder = history_path(path)
    found = (int(p.stem) for p in folder.glob("*.json") if p.stem.isdigit()) if folder.is_dir() else iter(())
    return sorted(found)


def note(path: Path, what: str, by: str) -> None:
    """Log one change of the calibration: what, when and from where (the newest version it made)."""
    folder = history_path(path)
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "changes.jsonl"
    kept = versions(path)
    entry = {"at": round(time.time(), 1), "what": str(what), "by": by, "version": kept[-1] if kept else None}
    if words_of(what) is not None:  # kept with its words, so a tablet in another language says it in its own
        entry["words"] = words_of(what)
    line = json.dumps(entry)
    old = log.read_text().splitlines()[-CHANGES_KEPT + 1:] if log.exists() else []
    tmp = log.with_suffix(".tmp")
    tmp.write_text("\n".join([*old, line]) + "\n")
    tmp.replace(log)


def changes(path: Path, last: int = 10) -> list[dict[str, Any]]:
    """The most recent changes logged, oldest first; lines that cannot be read are skipped."""
    log = history_path(path) / "changes.jsonl"
    if not log.exists():
        return []
    found = []
    for line in log.read_text(errors="replace").splitlines()[-last:]:
        try:
            entry = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(entry, dict):
            found.append(entry)
    return found


def keep_places(path: Path, places: Path) -> None:
    """Keep a copy of a places file the layout step wrote beside the profile (``places-GAME.json``, which
    the table side reads) with the history version that step made, so a rollback puts it back too."""
    beside = Path(places).parent.resolve() == Path(path).parent.resolve() and Path(places).name.startswith("places-")
    kept = versions(path)
    if kept and beside:  # a places file written elsewhere (``--places-out``) is the caller's own to keep
        shutil.copyfile(places, history_path(path) / f"{kept[-1]:05d}.{Path(places).name}")


def _places_back(path: Path, version: int) -> list[Path]:
    """Each game's places file as it was at ``version``: the newest copy kept at or before it."""
    newest: dict[str, tuple[int, Path]] = {}
    for copy in history_path(path).glob("*.places-*.json"):
        number, _, name = copy.name.partition(".")
        if number.isdigit() and int(number) <= version and int(number) >= newest.get(name, (-1, copy))[0]:
            newest[name] = (int(number), copy)
    for name, (_, copy) in newest.items():
        tmp = Path(path).with_name(name + ".tmp")
        shutil.copyfile(copy, tmp)
        tmp.replace(Path(path).with_name(name))
    return [Path(path).with_name(name) for name in newest]


def rollback(path: Path, version: int, by: str) -> Profile:
    """Make history version ``version`` the profile again, with the places files laid out by then
    (itself a change, so it can be undone too)."""
    if version not in versions(path):
        raise CalibrationError(f"no calibration {version!r} is kept; kept: {versions(path)!r}")
    profile = load(history_path(path) / f"{version:05d}.json")
    save(profile, path)
    for places in _places_back(path, version):
        keep_places(path, places)  # kept again with the version the rollback made, as a layout would be
    note(path, Said("calibration.change.rolled_back", "rolled back to calibration {version}", version=version), by)
    return profile


def load_kept(path: Path, resolution: tuple[int, int] | None = None) -> tuple[Profile, Said | None]:
    """The profile, or, when it is refused, the last good one and the reason it was refused."""
    try:
        return load(path, resolution), None
    except CalibrationError as refused:
        kept = last_good_path(path)
        if not kept.exists():
            raise
        return load(kept, resolution), _refusal(path, refused, kept, resolution)


def _refusal(path: Path, refused: CalibrationError, kept: Path, resolution: tuple[int, int] | None) -> Said:
    """Why ``path`` was refused and that ``kept`` is used meanwhile, in the table's words: a profile for
    another camera mode said whole in each language; any other refusal (a damaged file) with its reason."""
    if resolution is not None:
        try:
            made = load(path).resolution()
        except CalibrationError:
            made = None
        if made is not None and tuple(resolution) != made:
            return Said("calibration.refused.profile_size", "profile {profile} was made for {made} images but the camera "
                        "gives {gives}: calibrate again at this resolution; using the last good profile ({kept}) meanwhile",
                        profile=repr(str(path)), made="{}x{}".format(*made), gives="{}x{}".format(*resolution),
                        kept=repr(str(kept)))
    return Said("calibration.refused.profile_bad", "{why}; using the last good profile ({kept}) meanwhile",
                why=_damage(path, refused), kept=repr(str(kept)))


def _damage(path: Path, refused: CalibrationError) -> Said:
    """What is wrong with a damaged profile, by its kind (unreadable JSON, a missing key, a wrong value),
    so a tablet in any language says it; the English keeps the reader's own detail after it."""
    detail = InEach({"en": f": {refused}", "de": ""})  # the parser's English words: for English tablets only
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return Said("calibration.damage.unreadable", "unreadable JSON{detail}", detail=detail)
    if not isinstance(data, dict):
        return Said("calibration.damage.unreadable", "unreadable JSON{detail}", detail=detail)
    if data.get("schema") != SCHEMA_VERSION:
        return Said("calibration.damage.schema", "written by another Incanto version{detail}", detail=detail)
    try:
        Profile.model_validate(data)
    except ValidationError as e:
        missing = [_key(err["loc"]) for err in e.errors() if err["type"] == "missing"]
        if missing:
            return Said("calibration.damage.missing", "missing key {keys}{detail}", keys=", ".join(missing), detail=detail)
        return Said("calibration.damage.value", "wrong value at {keys}{detail}",
                    keys=", ".join(dict.fromkeys(_key(err["loc"]) for err in e.errors())), detail=detail)
    return Said("calibration.damage.other", "damaged{detail}", detail=detail)


def _key(loc: tuple[Any, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".") or "(top)"


def load_if_present(path: Path) -> Profile | None:
    return load(path) if Path(path).exists() else None
