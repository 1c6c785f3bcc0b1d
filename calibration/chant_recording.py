"""The group's "In-can-to!" recorded from the Pi's own microphone, started and stopped from a tablet.

The cue is heard by the Pi's microphone, so that is where the chant is recorded (a tablet's browser
would also be refused its microphone over the table's Wi-Fi: the page is not a secure context). The
Pi has one microphone, so one recording at a time: the tablet that started it stops it; any joined
tablet may watch its level. The sound comes through the cue's own seam (``companion.cue.microphone``:
the real sound card, or a stand-in that behaves like one), a block at a time on a thread of its own.
"""
from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from calibration.model import CalibrationError
from companion.cue.audio import wav_bytes
from companion.words.said import Said, words_of
from companion.cue.features import SAMPLE_RATE

Opener = Callable[[], Any]  # a ``companion.cue.microphone`` source, opened with or without a ``with`` block
MAX_S = 60.0  # three chants take ten seconds; a recording left running stops here
LEVEL_GAIN = 4.0  # a chant at arm's length (about -12 dBFS RMS) fills the meter


class Words:
    """What the recording says: each its catalogue key and its English (every language in companion/words)."""
    BUSY = ("calibration.refused.chant_busy", "another tablet is recording the chant ({seconds} s so far): wait until it stops")
    NOT_STARTED = ("calibration.refused.chant_not_started", "no recording is running: press Record first")
    NOT_YOURS = ("calibration.refused.chant_not_yours", "another tablet started this recording: only that tablet can stop it")
    NO_MICROPHONE = ("calibration.refused.no_microphone",
                     "the Pi's microphone cannot be opened ({error}): plug the USB microphone into the Pi, then try again")
    FAILED = ("calibration.cue.microphone_failed", "the Pi's microphone stopped ({error}): check its cable, then record again")
    FULL = ("calibration.cue.full", "the recording stopped at {seconds} s: press Stop to use it")


@dataclass
class Take:
    tablet: str
    started: float
    blocks: list[np.ndarray] = field(default_factory=list)
    level: float = 0.0  # the newest block's loudness, 0 to 1, for the meter
    peak: float = 0.0  # the loudest sample so far
    seconds: float = 0.0
    running: bool = True
    problem: Said | None = None  # why it stopped on its own, in words
    done: threading.Event = field(default_factory=threading.Event)
    stop: threading.Event = field(default_factory=threading.Event)


class ChantRecorder:
    def __init__(self, microphone: Opener, clock: Callable[[], float] = time.monotonic, max_s: float = MAX_S) -> None:
        self.microphone, self.clock, self.max_s = microphone, clock, max_s
        self._lock = threading.Lock()
        self._take: Take | None = None

    def start(self, tablet: str) -> dict[str, Any]:
        """Open the Pi's microphone and record for ``tablet``; refused while another tablet records."""
        with self._lock:
            take = self._take
            if take is not None and take.running:
                if take.tablet != tablet:
                    raise CalibrationError(Said(*Words.BUSY, seconds=f"{take.seconds:.0f}"))
                take.stop.set()  # the same tablet pressed Record again: start afresh
                take.done.wait(2.0)
            source, opened = self._open()
            self._take = take = Take(tablet, self.clock())
        threading.Thread(target=self._record, args=(take, source, opened), name="chant-recording", daemon=True).start()
        return self.now(tablet)

    def _open(self) -> tuple[Any, contextlib.AbstractContextManager[Any]]:
        try:
            source = self.microphone()
            opened = source if hasattr(source, "__enter__") else contextlib.nullcontext(source)
            sound = opened.__enter__()
        except (OSError, ValueError) as e:  # MicrophoneError, PortAudio's refusal of a missing device
            raise CalibrationError(Said(*Words.NO_MICROPHONE, error=_one_line(e))) from None
        return sound, opened

    def _record(self, take: Take, sound: Any, opened: contextlib.AbstractContextManager[Any]) -> None:
        try:
            for block, _ in sound.blocks():
                samples = np.asarray(block, np.float32)
                take.blocks.append(samples)
                take.seconds += len(samples) / SAMPLE_RATE
                if len(samples):
                    take.level = min(1.0, float(np.sqrt(np.mean(samples.astype(np.float64) ** 2))) * LEVEL_GAIN)
                    take.peak = max(take.peak, float(np.max(np.abs(samples))))
                if take.stop.is_set():
                    break
                if take.seconds >= self.max_s:
                    take.problem = Said(*Words.FULL, seconds=f"{take.seconds:.0f}")
                    break
        except Exception as e:  # noqa: BLE001 - an unplugged microphone is said on the page, not raised on a thread
            take.problem = Said(*Words.FAILED, error=_one_line(e))
        finally:
            take.running, take.level = False, 0.0
            with contextlib.suppress(Exception):
                opened.__exit__(None, None, None)
            take.done.set()

    def now(self, tablet: str = "") -> dict[str, Any]:
        """The recording as the meter shows it: whether it runs (or is kept for its Stop), whose it is, its
        level and length, and why it stopped on its own."""
        take = self._take
        if take is None:
            return {"recording": False, "kept": False, "mine": False, "level": 0.0, "seconds": 0.0, "peak_dbfs": None,
                    "problem": None, "problem_words": None}
        # ``kept``: a recording that stopped on its own (at its longest) still waits for its tablet's Stop.
        return {"recording": take.running, "kept": True, "mine": take.tablet == tablet, "level": round(take.level, 3),
                "seconds": round(take.seconds, 1), "peak_dbfs": round(20 * np.log10(take.peak + 1e-9), 1),
                "problem": take.problem, "problem_words": words_of(take.problem)}

    def stop(self, tablet: str) -> np.ndarray:
        """``tablet``'s recording, ended: (n,) float32 16 kHz audio."""
        with self._lock:
            take = self._take
            if take is None:
                raise CalibrationError(Said(*Words.NOT_STARTED))
            if take.tablet != tablet:
                raise CalibrationError(Said(*Words.NOT_YOURS))
            take.stop.set()
            take.done.wait(2.0)
            self._take = None
        if take.problem is not None and take.problem.words["key"] == Words.FAILED[0]:
            raise CalibrationError(take.problem)
        return np.concatenate(take.blocks) if take.blocks else np.zeros(0, np.float32)

    def close(self) -> None:
        """Stop whatever is being recorded (the night ends)."""
        take = self._take
        if take is not None:
            take.stop.set()
            take.done.wait(2.0)


def as_wav(audio: np.ndarray) -> bytes:
    """(n,) 16 kHz audio as a 16-bit mono WAV file's bytes: the take goes through the WAV enrolment."""
    return wav_bytes(audio, SAMPLE_RATE)


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__
