"""A night's recording, so a group can send a problem and it can be read again exactly.

A recording is a folder:

    frames/          JPEG frames, with ``frames/timestamps.csv`` (``file,t``: the image source format)
    cues.jsonl       one line per cue: {"t": seconds in the frames' clock, "wands": [1, 2, 3, 4],
                     "legal": [place ids] or null (every place), "tips": {"1": true, ...} or absent
                     (the wands' tip switches as the casting read them; absent: not known)}
    answers.jsonl    one line per casting the table settled: {"t": the cue's t, "wands": {"1": place or
                     null, ...} (the casting as the table made it, by wand), "answered": [2] (the wands
                     the table answered on the tablet; the rest it took as the camera read them)}
    profile.json     the table's profile as it was that night
    places.json      the places file, when there was one

Frames are kept at a reduced rate (``every_s``) except around a cue: the second before it (the table as
it was) and the few seconds after (the casting) are kept whole.

``read_recording`` plays every cue's frames through the pipeline and returns each casting's reading,
scored against what the table answered (``Score``): each wand right, wrong (read as another place
with no question: a silent error) or unsure (asked).
"""
from __future__ import annotations

import json
import math
import shutil
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import cv2

from vision.config import VisionConfig, load_config
from vision.decide import TARGET, CastingResult, WandReading
from vision.frames import Frame
from vision.pipeline import Pipeline, read_casting
from vision.profile import ProfileError, load_places, load_profile, profile_places
from vision.sources.folder import ImageFolderSource
from vision.targets import Candidate
from vision.touch import FixedTipSwitches

BEFORE_S = 1.0  # kept whole before a cue: the table as it was
AFTER_S = 4.0  # kept whole after a cue: the casting
JPEG_QUALITY = 90


class RecordingError(ValueError):
    """A recording folder that is missing a part or holds a bad one."""


@dataclass(frozen=True)
class Cue:
    t: float
    wands: tuple[int, ...] = (1, 2, 3, 4)
    legal: tuple[str, ...] | None = None
    tips: dict[int, bool] | None = None  # the tip switches the casting read (None: not known)

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"t": self.t, "wands": list(self.wands),
                                  "legal": None if self.legal is None else list(self.legal)}
        if self.tips is not None:
            out["tips"] = {str(k): v for k, v in sorted(self.tips.items())}
        return out


@dataclass(frozen=True)
class Answer:
    """How the table settled the casting cued at ``t``: each wand's place (None: at nothing), and the
    wands it answered on the tablet."""

    t: float
    wands: dict[int, str | None]
    answered: tuple[int, ...] = ()

    def as_dict(self) -> dict[str, object]:
        return {"t": self.t, "wands": {str(k): v for k, v in sorted(self.wands.items())},
                "answered": sorted(self.answered)}


RIGHT, WRONG, ASKED = "right", "wrong", "unsure"


@dataclass(frozen=True)
class Score:
    """Per wand the table answered: right, wrong (read as another place, no question) or unsure."""

    wands: dict[int, str]

    @classmethod
    def of(cls, result: CastingResult | None, answer: Answer) -> Score:
        readings = {} if result is None else result.wands
        return cls({k: _judge(readings.get(k), place) for k, place in sorted(answer.wands.items())})

    def counts(self) -> dict[str, int]:
        return {v: sum(s == v for s in self.wands.values()) for v in (RIGHT, WRONG, ASKED)}

    def as_dict(self) -> dict[str, object]:
        return {"wands": {str(k): v for k, v in self.wands.items()}, **self.counts()}


def _judge(reading: WandReading | None, place: str | None) -> str:
    if reading is None or reading.status != TARGET:
        return ASKED
    return RIGHT if reading.target == place else WRONG


def overall(scores: list[Score]) -> dict[str, object]:
    """Every scored wand of a recording together, with the shares a bench reports."""
    counts = {v: sum(s.counts()[v] for s in scores) for v in (RIGHT, WRONG, ASKED)}
    n = sum(counts.values())
    return {"castings": len(scores), "wands": n, **counts,
            "accuracy": round(counts[RIGHT] / n, 4) if n else None,
            "silent_errors": round(counts[WRONG] / n, 4) if n else None,
            "castings_automatic": round(sum(s.counts()[ASKED] == 0 for s in scores) / len(scores), 4) if scores else None}


class Recorder:
    """Writes a recording into ``folder``: ``add`` every frame, ``cue`` at every "In-can-to!"."""

    def __init__(self, folder: Path, profile: Path | None = None, places: Path | None = None,
                 every_s: float = 0.5) -> None:
        self.folder = Path(folder)
        (self.folder / "frames").mkdir(parents=True, exist_ok=True)
        for src, name in ((profile, "profile.json"), (places, "places.json")):
            if src is not None:
                shutil.copyfile(src, self.folder / name)
        self.every_s = every_s
        self._recent: deque[Frame] = deque()
        self._last_kept: float | None = None
        self._whole_until = float("-inf")
        self._stamps = open(self.folder / "frames" / "timestamps.csv", "a")
        if self._stamps.tell() == 0:
            self._stamps.write("file,t\n")
        self._written: set[int] = set()
        self.frames = 0

    def add(self, frame: Frame) -> None:
        """Keep ``frame`` if it is due at the reduced rate or a cue is near; remember it a second in
        case a cue comes."""
        self._recent.append(frame)
        while self._recent and frame.t - self._recent[0].t > BEFORE_S:
            self._recent.popleft()
        if frame.t <= self._whole_until or self._last_kept is None or frame.t - self._last_kept >= self.every_s:
            self._write(frame)

    def cue(self, cue: Cue) -> None:
        """A cue at ``cue.t``: the second before it is written whole, and the seconds after it."""
        with open(self.folder / "cues.jsonl", "a") as f:
            f.write(json.dumps(cue.as_dict()) + "\n")
        for frame in self._recent:
            self._write(frame)
        self._whole_until = cue.t + AFTER_S

    def answer(self, answer: Answer) -> None:
        """How the table settled a casting (after its cue): kept beside that casting's frames."""
        with open(self.folder / "answers.jsonl", "a") as f:
            f.write(json.dumps(answer.as_dict()) + "\n")

    def _write(self, frame: Frame) -> None:
        key = round(frame.t * 1e6)
        if key in self._written:
            return
        self._written.add(key)
        name = f"{self.frames:07d}.jpg"
        cv2.imwrite(str(self.folder / "frames" / name), frame.image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        self._stamps.write(f"{name},{frame.t:.6f}\n")
        self._stamps.flush()
        self._last_kept = frame.t
        self.frames += 1

    def close(self) -> None:
        self._stamps.close()

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_cues(folder: Path) -> list[Cue]:
    path = Path(folder) / "cues.jsonl"
    if not path.is_file():
        raise RecordingError(f"recording {str(folder)!r} has no cues.jsonl")
    cues = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        try:
            d = json.loads(line)
            cues.append(Cue(_time(d["t"]), tuple(int(w) for w in d.get("wands", (1, 2, 3, 4))),
                            None if d.get("legal") is None else tuple(str(p) for p in d["legal"]),
                            _tips(d.get("tips"))))
        except (ValueError, KeyError, TypeError) as e:
            raise RecordingError(f"cues.jsonl line {n} of {str(folder)!r} is bad ({e}): {line[:80]!r}") from None
        except RecursionError:
            raise RecordingError(f"cues.jsonl line {n} of {str(folder)!r} is nested too deeply to be a cue") from None
    return cues


def read_answers(folder: Path) -> list[Answer]:
    """The table's answers (none for a recording made without them); a bad line is refused by number."""
    path = Path(folder) / "answers.jsonl"
    if not path.is_file():
        return []
    answers = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        try:
            d = json.loads(line)
            wands = d["wands"]
            if not isinstance(wands, dict) or not all(v is None or isinstance(v, str) for v in wands.values()):
                raise ValueError(f"wands must map wands to a place or null, not {wands!r}")
            answers.append(Answer(_time(d["t"]), {int(k): v for k, v in wands.items()},
                                  tuple(int(w) for w in d.get("answered", ()))))
        except (ValueError, KeyError, TypeError) as e:
            raise RecordingError(f"answers.jsonl line {n} of {str(folder)!r} is bad ({e}): {line!r}") from None
    return answers


def _answer_for(cue: Cue, answers: list[Answer]) -> Answer | None:
    """The answer written for this cue (the same instant, to the microsecond the file keeps)."""
    return next((a for a in answers if abs(a.t - cue.t) < 1e-3), None)


def _time(raw: object) -> float:
    """A cue's time: a finite number of seconds (NaN would read no frame at all, and say nothing)."""
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or not math.isfinite(raw):
        raise ValueError(f"the cue time must be a finite number of seconds, not {raw!r}")
    return float(raw)


def _tips(raw: object) -> dict[int, bool] | None:
    """A cue's tip switches: {"wand": true/false}; anything else is refused by its value."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or not all(isinstance(v, bool) for v in raw.values()):
        raise ValueError(f"tips must map wands to true or false, not {raw!r}")
    return {int(k): v for k, v in raw.items()}


def recording_places(folder: Path, places: Path | None, profile_path: Path) -> dict[str, Candidate]:
    """The places as candidates: ``--places``, else the recording's own places.json, else the profile's."""
    path = places or (Path(folder) / "places.json")
    if places is not None or path.is_file():
        found = load_places(path).places
    else:
        found = profile_places(load_profile(profile_path), profile_path)
    if not found:
        raise RecordingError(f"no places for recording {str(folder)!r}: give --places FILE")
    return {name: Candidate(name, p.x_mm, p.y_mm, p.radius_mm) for name, p in found.items()}


@dataclass(frozen=True)
class ReadCasting:
    cue: Cue
    result: CastingResult | None
    answer: Answer | None = None  # how the table settled it, when the recording says

    @property
    def score(self) -> Score | None:
        return None if self.answer is None else Score.of(self.result, self.answer)

    def as_dict(self) -> dict[str, object]:
        return {**self._reading(), "answer": None if self.answer is None else self.answer.as_dict(),
                "score": None if self.score is None else self.score.as_dict()}

    def _reading(self) -> dict[str, object]:
        if self.result is None:
            return {"cue": self.cue.as_dict(), "decided": False, "wands": [], "targets": None, "unsure": None}
        wands = self.result.wands
        return {"cue": self.cue.as_dict(), "decided": True, "decided_at": round(self.result.decided_at, 4),
                "wands": self.result.as_dicts(),
                "targets": {str(k): (w.target if w.status == TARGET else None) for k, w in sorted(wands.items())},
                "unsure": [k for k, w in sorted(wands.items()) if w.status != TARGET]}


def read_recording(folder: Path, places: Path | None = None, profile: Path | None = None,
                   config: VisionConfig | None = None) -> list[ReadCasting]:
    """Every casting of a recording, read as the table read it (or with another profile or places)."""
    folder = Path(folder)
    profile_path = profile or folder / "profile.json"
    try:
        known = load_profile(profile_path, _resolution(folder / "frames"))
    except ProfileError as e:
        raise RecordingError(str(e)) from None
    candidates = recording_places(folder, places, profile_path)
    answers = read_answers(folder)
    out = []
    for cue in read_cues(folder):
        chosen = [candidates[p] for p in (cue.legal or candidates) if p in candidates]
        source = _from(folder / "frames", cue.t - BEFORE_S)
        tips = None if cue.tips is None else FixedTipSwitches(cue.tips)
        out.append(ReadCasting(cue, read_casting(Pipeline(known, config or load_config()), source, cue.t,
                                                 cue.wands, chosen, tips=tips), _answer_for(cue, answers)))
    return out


def _resolution(frames: Path) -> tuple[int, int] | None:
    """(width, height) of the recording's first frame, so a profile made for another size is refused."""
    if not frames.is_dir():
        return None
    first = ImageFolderSource(frames).read()
    return None if first is None else (first.image.shape[1], first.image.shape[0])


class _From:
    """The recording's frames from time ``start`` on."""

    def __init__(self, frames: Path, start: float) -> None:
        self.source, self.start = ImageFolderSource(frames), start

    def read(self) -> Frame | None:
        while (frame := self.source.read()) is not None and frame.t < self.start:
            pass
        return frame

    def close(self) -> None:
        self.source.close()


def _from(frames: Path, start: float) -> _From:
    if not frames.is_dir():
        raise RecordingError(f"recording has no frames folder at {str(frames)!r}")
    return _From(frames, start)


__all__ = ["Answer", "Cue", "Recorder", "RecordingError", "ReadCasting", "Score", "overall", "read_answers",
           "read_recording", "read_cues"]
