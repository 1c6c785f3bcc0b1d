"""Recording a player's own chant: a few takes, cut from the microphone or read from WAV files,
become that player's templates in the chant book."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

from companion.cue import CueError
from companion.cue.config import CueConfig, VoiceActivityConfig
from companion.cue.microphone import Source, WavSource
from companion.cue.phrases import PhraseCutter
from companion.cue.templates import ChantBook, enrol


def cut_takes(source: Source, wanted: int | None = None, voice: VoiceActivityConfig = VoiceActivityConfig(),
              on_take: Callable[[int], None] | None = None) -> list[np.ndarray]:
    """The phrases heard from ``source``, each as (n,) float32 audio; stops after ``wanted``."""
    cutter, takes = PhraseCutter(voice), []
    for block, t_first in source.blocks():
        for phrase in cutter.feed(block, t_first):
            takes.append(phrase.audio)
            if on_take is not None:
                on_take(len(takes))
        if wanted is not None and len(takes) >= wanted:
            return takes[:wanted]
    return takes + [p.audio for p in cutter.flush()]


def takes_from_wavs(paths: Iterable[Path | str], voice: VoiceActivityConfig = VoiceActivityConfig()) -> list[np.ndarray]:
    """Every chant in the given WAV files (a file may hold several takes separated by silence)."""
    takes = []
    for path in paths:
        found = cut_takes(WavSource(path, t0=0.0), voice=voice)
        if not found:
            raise CueError(f"no chant heard in {str(path)!r}: is it silent or too quiet?")
        takes += found
    return takes


def enrol_player(player: str, takes: Sequence[np.ndarray], config: CueConfig = CueConfig()) -> ChantBook:
    """Save ``player``'s takes into the chant book at ``config.templates_dir``."""
    if len(takes) < 2:
        raise CueError(f"player {player!r} needs at least 2 takes to choose a threshold; got {len(takes)!r}")
    return enrol(config.templates_dir, player, takes, config.threshold_factor, config.features)
