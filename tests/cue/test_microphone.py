import sys
import threading
import time
import types

import numpy as np
import pytest

from companion.cue.audio import write_wav
from companion.cue.microphone import Microphone, MicrophoneError, MemorySource, WavSource


def test_memory_source_covers_the_audio_with_host_times():
    audio = np.arange(1200, dtype=np.float32) / 1200
    blocks = list(MemorySource(audio, t0=10.0, block=500).blocks())
    assert [len(b) for b, _ in blocks] == [500, 500, 200]
    assert [t for _, t in blocks] == pytest.approx([10.0, 10.03125, 10.0625])
    assert np.array_equal(np.concatenate([b for b, _ in blocks]), audio)


def test_a_paced_source_waits_until_each_block_has_been_heard():
    now, waits = [0.0], []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        now[0] += seconds

    source = MemorySource(np.zeros(1600, np.float32), t0=0.0, block=800, paced=True, clock=lambda: now[0], sleep=sleep)
    list(source.blocks())
    assert waits == pytest.approx([0.05, 0.05])


def test_wav_source_replays_a_file(tmp_path):
    write_wav(tmp_path / "take.wav", np.full(1000, 0.25, np.float32))
    blocks = list(WavSource(tmp_path / "take.wav", t0=3.0, block=512).blocks())
    assert blocks[0][1] == 3.0 and sum(len(b) for b, _ in blocks) == 1000
    assert blocks[0][0][0] == pytest.approx(0.25, abs=1e-4)


class FakeStream:
    """A PortAudio input stream: a thread calling back with blocks, as the sound card would."""

    def __init__(self, samplerate, channels, dtype, blocksize, device, callback):
        self.callback, self.blocksize = callback, blocksize
        self.running = False
        FakeStream.called_at = self.called_at = []

    def start(self):
        self.running = True
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        for k in range(3):
            # PortAudio's own clock runs from another origin; the block's first sample was 40 ms ago.
            stream_now = time.monotonic() + 1234.0
            timing = types.SimpleNamespace(inputBufferAdcTime=stream_now - 0.04, currentTime=stream_now)
            self.called_at.append(stream_now - 1234.0)
            self.callback(np.full((self.blocksize, 1), k, np.float32), self.blocksize, timing, None)
            time.sleep(0.01)

    def stop(self):
        self.running = False

    def close(self):
        pass


def test_microphone_stamps_blocks_with_host_time(monkeypatch):
    monkeypatch.setitem(sys.modules, "sounddevice", types.SimpleNamespace(InputStream=FakeStream))
    got = []
    with Microphone(block=512) as mic:
        for block, t in mic.blocks():
            got.append((block, t, time.monotonic()))
            if len(got) == 3:
                break
    assert [b[0] for b, _, _ in got] == [0, 1, 2]
    for (_, t, _), called in zip(got, FakeStream.called_at):
        assert t == pytest.approx(called - 0.04, abs=0.005)


def test_a_missing_sound_library_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "sounddevice", None)  # import then fails like a missing library
    with pytest.raises(MicrophoneError, match="libportaudio2"):
        with Microphone():
            pass
