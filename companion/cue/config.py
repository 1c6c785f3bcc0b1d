"""Every setting of the cue in one validated value, read from JSON that calibration writes.

A settings file is checked whole: every unknown key and every bad value is named in one error, with
what is allowed, and nothing of a bad file is used.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from companion.cue import CueError
from companion.cue.features import FeatureConfig
from companion.cue.templates import DEFAULT_THRESHOLD_FACTOR

# Strict: "0.3" in a settings file is a mistake to point out, not a number to guess at.
NonNegative = Annotated[float, Field(ge=0.0, allow_inf_nan=False, strict=True)]
Positive = Annotated[float, Field(gt=0.0, allow_inf_nan=False, strict=True)]
Hertz = Annotated[float, Field(ge=0.0, le=8000.0, strict=True)]  # 16 kHz sound holds nothing above 8 kHz


def default_templates_dir() -> Path:
    return Path(os.environ.get("INCANTO_CUE_TEMPLATES", "var/cue/templates"))


class _Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=False)


class VoiceActivityConfig(_Settings):
    """When a stretch of sound counts as someone speaking. Levels are in nats of power (1 nat is
    4.34 dB) above the background, which is followed as a low percentile of recent levels."""

    start_nats: NonNegative = 2.0  # this far over the background starts a phrase
    stop_nats: NonNegative = 1.0  # a phrase ends once quieter than this for `hangover_s`
    drop_nats: NonNegative = 3.5  # ...or this far under the phrase's own peak (a shout over chatter)
    end_nats: NonNegative = 2.5  # the last syllable is the last step this near the peak: chatter after a called chant is quieter
    tail_nats: NonNegative = 6.9  # the last syllable has ended once 30 dB under the peak
    max_tail_s: NonNegative = 0.12  # ...or this long after it was last loud, whatever chatter follows
    hangover_s: NonNegative = 0.25
    max_gap_s: NonNegative = 0.2  # a quieter stretch longer than this splits a phrase; only the last part is kept
    background_s: Positive = 3.0
    background_percentile: Annotated[float, Field(ge=0.0, le=100.0, strict=True)] = 20.0
    min_phrase_s: NonNegative = 0.25  # shorter is a dice click or a cough
    max_phrase_s: Positive = 5.0  # longer is talk; only the last stretch is kept (a chant run on into chatter is found in it)
    margin_s: NonNegative = 0.1  # audio kept either side of a phrase for the features
    # Each 10 ms level is the median of this many steps around it (odd; 1: off): a click of a
    # few milliseconds is removed before the cutter, a syllable kept.
    click_median_steps: Annotated[int, Field(ge=1, le=9, strict=True)] = 1
    # The levels above are of the power in this band (Hz), where a voice carries: a fan's rumble or
    # a microphone's hiss outside it does not hide the chant. None: the whole spectrum.
    band_hz: tuple[Hertz, Hertz] | None = (200.0, 4000.0)


class CueConfig(_Settings):
    templates_dir: Path = Field(default_factory=default_templates_dir)
    # None: use the threshold chosen from the enrolled takes (stored beside the templates).
    threshold: Positive | None = None
    threshold_factor: Positive = DEFAULT_THRESHOLD_FACTOR  # threshold = factor x median take-to-take distance
    band: Annotated[float, Field(gt=0.0, le=1.0, strict=True)] = 0.35
    max_stretch: Annotated[float, Field(ge=1.0, strict=True)] = 2.0  # a phrase more than twice as long or short as a take is not it
    # A phrase is the chant only if its chant distance times this is under its nearest near miss's.
    # 1.55 (was 1.4): on the nine dev voices' near-miss talk, "In Cancun", "In Toronto" and
    # "Incantibus" came through 1.41-1.51 times nearer the chant than their near miss.
    near_miss_margin: Annotated[float, Field(ge=1.0, strict=True)] = 1.55
    # A long phrase that is not the chant is also judged at its earlier ends (``companion.cue.run_on``).
    run_on: bool = Field(True, strict=True)
    # Each take is also matched as if said with its formants this many times higher (``templates.widened``).
    warps: tuple[Annotated[float, Field(ge=0.7, le=1.4, strict=True)], ...] = (0.85, 0.92, 1.08, 1.17)
    # The shipped chant model (``companion.cue.model``) hears whether a phrase is the chant at all;
    # the enrolled takes say whose. A phrase is the chant when the model is sure (``model_threshold``)
    # and the caller's takes are within ``model_relax`` times the book's threshold, or when the takes
    # alone are within the threshold and the model does not rule it out (``model_floor``). Off: the
    # takes alone decide, as before the model.
    model: bool = Field(True, strict=True)
    model_threshold: Annotated[float, Field(gt=0.0, lt=1.0, strict=True)] = 0.5
    model_floor: Annotated[float, Field(ge=0.0, lt=1.0, strict=True)] = 0.05
    model_relax: Annotated[float, Field(ge=1.0, le=4.0, strict=True)] = 1.6
    # ...and, when the model is all but certain (``model_sure``), the phrase need be only this much
    # nearer the chant than any enrolled near miss (the model has told the near misses apart
    # already; in noise every distance grows). Under that, ``near_miss_margin``.
    model_sure: Annotated[float, Field(gt=0.0, lt=1.0, strict=True)] = 0.95
    model_near_miss_margin: Annotated[float, Field(ge=1.0, strict=True)] = 1.2  # (was 1.15: an "Incantibus" at 1.17)
    # Within the takes' threshold the margin eases by the model's log-odds, from ``near_miss_margin``
    # at this score to ``model_near_miss_margin`` at ``model_sure`` (``ChantDetector.margin``).
    # None: eased only from ``model_sure`` on, as before.
    ease_margin_from: Annotated[float, Field(gt=0.0, lt=1.0, strict=True)] | None = 0.3
    # The further past the takes' threshold a phrase lies, the surer the model must be: the relief
    # grows with the model's log-odds, from none at ``model_threshold`` to all of ``model_relax`` at
    # ``model_sure``. Off: all of it from ``model_threshold`` on (a near miss the model half-liked,
    # 0.67, came through at 1.46 x the threshold on the dev panel's near-miss talk).
    relax_by_certainty: bool = Field(True, strict=True)
    # A long phrase none of whose cuts is the chant is also searched as wake-word models listen:
    # the model slides over it in windows as long as the takes (``detector.WINDOW_LENGTHS``), and
    # its likeliest windows are judged (babble glued to a chant at a loud table hides it from the
    # model's view of the whole phrase).
    model_windows: bool = Field(True, strict=True)
    # The chant finder (``companion.cue.finder``): a phrase of a chant's length or longer that nothing
    # above heard is read once more (with the model on) by a second network that does not warp the
    # phrase onto a grid but reads it at its own pace through a 1.3 s window slid every 50 ms, and
    # says where the whole chant has just ended. Where its likeliest windows end (``finder_threshold``
    # or surer), the phrase is cut as chants as long as the takes; each cut is judged as a phrase of
    # its own, the finder's score standing for the model's, by the takes and the near misses with
    # the same threshold, relief and margins as any phrase (babble glued to a chant moves the chant's
    # syllables off where the chant model learnt them). Off: on the nine dev voices it heard one more
    # babble chant of 63 at 10 dB and let in no near miss, for a fifth more of the processor (docs/cue.md).
    chant_finder: bool = Field(False, strict=True)
    finder_threshold: Annotated[float, Field(gt=0.0, lt=1.0, strict=True)] = 0.5
    # A phrase of a chant's length as the cutter cut it, ruled out by the model, is still the chant
    # when the caller's takes are within the threshold and its nearest near miss is this many times
    # further (None: the model's veto stands). Babble under a chant can fool the model, not the takes.
    takes_overrule_margin: Annotated[float, Field(ge=1.0, strict=True)] | None = 1.8
    voice: VoiceActivityConfig = VoiceActivityConfig()
    features: FeatureConfig = FeatureConfig()

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


def problems(error: ValidationError) -> list[str]:
    """One line per problem: where it is, what was given and what is allowed."""
    found = []
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"]) or "cue"
        if item["type"] in ("extra_forbidden", "unexpected_keyword_argument"):
            found.append(f"{where}: unknown setting; known here: {', '.join(_known(item['loc'][:-1]))}")
        else:
            found.append(f"{where}: {item['msg'].lower()} (given {item['input']!r})")
    return found


def _known(section: tuple[int | str, ...]) -> list[str]:
    """The keys a section of the settings file may hold."""
    kind: Any = CueConfig
    for part in section:
        kind = {"voice": VoiceActivityConfig, "features": FeatureConfig}.get(str(part), kind)
    fields = getattr(kind, "model_fields", None) or getattr(kind, "__dataclass_fields__", {})
    return sorted(fields)


def from_dict(data: Any) -> CueConfig:
    """Validate a JSON object into a ``CueConfig``; every bad key and value is named in one error."""
    if not isinstance(data, dict):
        raise CueError(f"cue settings must be a JSON object; got {data!r}")
    try:
        return CueConfig.model_validate(data)
    except ValidationError as e:
        listed = problems(e)
        raise CueError(f"{len(listed)} bad cue setting(s): " + "; ".join(listed)) from None


def load(path: Path | str) -> CueConfig:
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise CueError(f"no cue settings at {str(path)!r}") from None
    except json.JSONDecodeError as e:
        raise CueError(f"cue settings {str(path)!r} are not JSON: {e}") from None
    try:
        return from_dict(data)
    except CueError as e:
        raise CueError(f"{str(path)!r}: {e}") from None
