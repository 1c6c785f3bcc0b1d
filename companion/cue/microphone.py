"""Where the sound comes from: one seam, three back-ends.

Every source yields ``(block, t_first)``: (n,) float32 16 kHz mono samples and the host monotonic
time of the block's first sample. ``Microphone`` is a real sound card through ``sounddevice``
(imported only when opened, so nothing else needs PortAudio); ``WavSource`` replays a file;
``MemorySource`` replays an array. The detector never knows which one it has.

``PlayedSoundCard`` stands in for ``sounddevice`` under a ``Microphone``: a WAV file heard at real-time
pace through PortAudio's own callback, so the demo's Pi and the tests record through the very code a
real sound card goes through (a device that is not there is refused as PortAudio refuses it).
"""
from __future__ import annotations

import queue
import threading
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

    def __init__(self, device: int | str | None = None, block: int = BLOCK, sound: Any = None) -> None:
        """``sound``: the ``sounddevice`` module or a stand-in (``PlayedSoundCard``); imported when opened."""
        self.device, self.block, self.sound = device, block, sound
        self._queue: queue.Queue[tuple[np.ndarray, float]] = queue.Queue(maxsize=256)
        self._stream: Any = None

    def __enter__(self) -> Microphone:
        sounddevice = self.sound if self.sound is not None else _sounddevice()
        try:
            self._stream = sounddevice.InputStream(
                samplerate=SAMPLE_RATE, channels=1, dtype="float32", blocksize=self.block,
                device=self.device, callback=self._heard,
            )
            self._stream.start()
        except Exception as e:  # PortAudioError and ValueError for a bad device
            which = "the default microphone" if self.device is None else f"microphone {self.device!r}"
            raise MicrophoneError(f"cannot open {which}: {e}") from None
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


class PlayedSoundCard:
    """A stand-in for the ``sounddevice`` module whose one input device plays ``wav`` once at real-time
    pace, then the quiet of an empty room; ``present=False`` is a sound card that is not plugged in."""

    def __init__(self, wav: Path | str, present: bool = True) -> None:
        self.audio = read_wav(wav) if present else np.zeros(0, np.float32)
        self.present = present
        self.streams = 0  # streams opened so far (a test sees each recording open its own)

    def InputStream(self, *, samplerate: int, channels: int, dtype: str, blocksize: int, device: Any,  # noqa: N802
                    callback: Callable[..., None]) -> _PlayedStream:
        if not self.present:
            raise OSError("Error querying device -1")  # what PortAudio says when no input device is there
        if samplerate != SAMPLE_RATE or channels != 1:
            raise ValueError(f"the played sound card gives {SAMPLE_RATE} Hz mono, not {samplerate} Hz x {channels}")
        self.streams += 1
        return _PlayedStream(self.audio, blocksize, callback)


class _PlayedStream:
    """PortAudio's input stream, played: the callback is called from a thread of its own once each
    block's last sample has been heard, as a sound card's is."""

    def __init__(self, audio: np.ndarray, block: int, callback: Callable[..., None]) -> None:
        self.audio, self.block, self.callback = audio, block, callback
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._play, name="played-sound-card", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)

    def close(self) -> None:
        self.stop()

    def _play(self) -> None:
        began, at = time.monotonic(), 0
        while not self._stop.is_set():
            heard = self.audio[at : at + self.block]
            block = np.zeros((self.block, 1), np.float32)  # after the file, the room is quiet
            block[: len(heard), 0] = heard
            at += self.block
            due = began + at / SAMPLE_RATE
            if self._stop.wait(max(0.0, due - time.monotonic())):
                return
            now = time.monotonic()
            self.callback(block, self.block, _Timing(now, now - self.block / SAMPLE_RATE), None)


class _Timing:
    def __init__(self, current: float, adc: float) -> None:
        self.currentTime, self.inputBufferAdcTime = current, adc  # noqa: N815 - PortAudio's names


def _sounddevice() -> Any:
    try:
        import sounddevice
    except (ImportError, OSError) as e:
        raise MicrophoneError(f"no sound support ({e}); on Debian install libportaudio2") from None
    return sounddevice
