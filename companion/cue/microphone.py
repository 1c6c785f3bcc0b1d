"""Where the sound comes from: one seam, three back-ends.

Every source yields ``(block, t_first)``: (n,) float32 16 kHz mono samples and the host monotonic
time of the block's first sample. ``Microphone`` is a real sound card through ``sounddevice``
(imported only when opened, so nothing else needs PortAudio); ``WavSource`` replays a file;
``MemorySource`` replays an array. The detector never knows which one it has.
"""
from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

import numpy as np

from companion.cue.audio import read_wav
from companion.cue.features import SAMPLE_RATE, as_float

BLOCK = 512  # 32 ms: small enough that a cue is never late by more than a block


class MicrophoneError(OSError):
    """The sound card cannot be opened (no PortAudio, no device, device busy)."""


class Source(Protocol):
    def blocks(self) -> Iterator[tuple[np.ndarray, float]]: ...


class MemorySource:
    """Replays (n,) audio as if it were heard starting at host time ``t0``; with ``paced`` it
    waits for the injected clock like a live microphone would."""

    def __init__(
        self, audio: np.ndarray, t0: float = 0.0, block: int = BLOCK, paced: bool = False,
        clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if block <= 0:
            raise ValueError(f"block size must be positive; got {block!r}")
        self.audio = as_float(audio)
        self.t0, self.block, self.paced, self.clock, self.sleep = t0, block, paced, clock, sleep

    def blocks(self) -> Iterator[tuple[np.ndarray, float]]:
        for start in range(0, len(self.audio), self.block):
            t_first = self.t0 + start / SAMPLE_RATE
            if self.paced:
                # A block is available once its last sample has been heard.
                self.sleep(max(0.0, t_first + self.block / SAMPLE_RATE - self.clock()))
            yield self.audio[start : start + self.block], t_first


class WavSource(MemorySource):
    """A WAV file (any PCM rate or channel count, converted to 16 kHz mono), replayed from ``t0``."""

    def __init__(self, path: Path | str, t0: float | None = None, block: int = BLOCK, paced: bool = False) -> None:
        super().__init__(read_wav(path), time.monotonic() if t0 is None else t0, block, paced)


class Microphone:
    """A live sound card. Use in a ``with`` block; blocks come from PortAudio's callback thread
    through a queue, stamped with host monotonic time from PortAudio's ADC clock."""

    def __init__(self, device: int | str | None = None, block: int = BLOCK) -> None:
        self.device, self.block = device, block
        self._queue: queue.Queue[tuple[np.ndarray, float]] = queue.Queue(maxsize=256)
        self._stream: Any = None

    def __enter__(self) -> Microphone:
        sounddevice = _sounddevice()
        try:
            self._stream = sounddevice.InputStream(
                samplerate=SAMPLE_RATE, channels=1, dtype="float32", blocksize=self.block,
                device=self.device, callback=self._heard,
            )
            self._stream.start()
        except Exception as e:  # PortAudioError and ValueError for a bad device
            raise MicrophoneError(f"cannot open microphone {self.device!r}: {e}") from None
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        if self._stream is not None:
            self._stream.stop()
            self._stream.close()
            self._stream = None

    def _heard(self, data: np.ndarray, frames: int, timing: Any, status: Any) -> None:
        now = time.monotonic()
        adc = getattr(timing, "inputBufferAdcTime", 0.0)
        # PortAudio's stream clock is not the host's: shift it by their current difference.
        t_first = adc + (now - timing.currentTime) if adc > 0 else now - frames / SAMPLE_RATE
        try:
            self._queue.put_nowait((data[:, 0].copy(), t_first))
        except queue.Full:
            pass  # the listener fell behind; dropping sound beats stalling the sound card

    def blocks(self) -> Iterator[tuple[np.ndarray, float]]:
        if self._stream is None:
            raise MicrophoneError("microphone is not open: use it in a `with` block")
        while self._stream is not None:
            try:
                yield self._queue.get(timeout=0.5)
            except queue.Empty:
                continue


def _sounddevice() -> Any:
    try:
        import sounddevice
    except (ImportError, OSError) as e:
        raise MicrophoneError(f"no sound support ({e}); on Debian install libportaudio2") from None
    return sounddevice
