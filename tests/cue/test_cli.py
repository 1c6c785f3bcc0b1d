import json
import subprocess
import sys

import numpy as np

from companion.cue import templates
from companion.cue.__main__ import main
from companion.cue.audio import write_wav
from companion.cue.bench.chorus import CHANT, Take, say
from companion.cue.features import SAMPLE_RATE
from companion.cue.bench.table_noise import spoken_span


def recording(parts: list[np.ndarray], seed: int = 0) -> tuple[np.ndarray, list[float]]:
    """Phrases one after another with a second of quiet room between, and where each ends."""
    rng = np.random.default_rng(seed)
    gap = np.zeros(SAMPLE_RATE, np.float32)
    audio, ends, at = [gap], [], len(gap)
    for part in parts:
        audio += [part, gap]
        ends.append((at + spoken_span(part)[1] * SAMPLE_RATE) / SAMPLE_RATE)
        at += len(part) + len(gap)
    mixed = np.concatenate(audio)
    return mixed + 0.002 * rng.standard_normal(len(mixed)).astype(np.float32), ends


def test_enrol_from_wavs_then_listen_to_a_recording(tmp_path, scene, capsys):
    book_dir = tmp_path / "book"
    for player, voice in (("Anna", "en-us"), ("Ben", "en-029+f5")):
        takes, _ = recording([say(Take(CHANT, voice, s, p), scene.cache) for s, p in ((140, 50), (160, 45), (175, 55))])
        write_wav(tmp_path / f"{player}.wav", takes)
        assert main(["enrol", "--player", player, "--wav", str(tmp_path / f"{player}.wav"), "--templates", str(book_dir)]) == 0
    enrolled = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert enrolled["players"] == ["Anna", "Ben"] and enrolled["takes"] == 3
    assert [t.player for t in templates.load(book_dir).templates].count("Ben") == 3

    evening, ends = recording([say(Take(text, "en-029+f5", speed), scene.cache) for text, speed in
                               (("Whose turn is it now?", 165), (CHANT, 125), ("Toronto", 150))])
    write_wav(tmp_path / "evening.wav", evening)
    done = subprocess.run([sys.executable, "-m", "companion.cue", "listen", "--wav", str(tmp_path / "evening.wav"),
                           "--templates", str(book_dir)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    (line,) = done.stdout.splitlines()
    cue = json.loads(line)
    assert cue["source"] == "microphone" and cue["player"] == "Ben"
    # The cue falls in the chant's fading tail: after it fell 30 dB under its peak and before 40 dB
    # (the takes, recorded in the same quiet room, lose their own tails in its noise in between).
    chant = say(Take(CHANT, "en-029+f5", 125), scene.cache)
    fade = spoken_span(chant, -40.0)[1] - spoken_span(chant)[1]
    assert ends[1] - 0.02 <= cue["t_end"] <= ends[1] + fade + 0.02


def test_bad_commands_fail_with_the_bad_value(tmp_path, capsys):
    write_wav(tmp_path / "quiet.wav", np.zeros(SAMPLE_RATE, np.float32))
    assert main(["enrol", "--player", "   ", "--wav", str(tmp_path / "quiet.wav"), "--templates", str(tmp_path)]) == 2
    assert "quiet.wav" in capsys.readouterr().err  # the silent file is found out before the name
    assert main(["listen", "--wav", str(tmp_path / "quiet.wav"), "--templates", str(tmp_path / "empty")]) == 2
    assert "no chant enrolled" in capsys.readouterr().err
    assert main(["enrol", "--player", "Anna", "--wav", str(tmp_path / "missing.wav"), "--templates", str(tmp_path)]) == 2
    assert "missing.wav" in capsys.readouterr().err


def test_a_bad_player_name_is_quoted_and_nothing_is_saved(tmp_path, scene, capsys):
    takes, _ = recording([say(Take(CHANT, "en-us", s), scene.cache) for s in (140, 170)])
    write_wav(tmp_path / "takes.wav", takes)
    name = "Merlin\tthe Great"
    assert main(["enrol", "--player", name, "--wav", str(tmp_path / "takes.wav"), "--templates", str(tmp_path / "book")]) == 2
    assert repr(name) in capsys.readouterr().err
    assert not (tmp_path / "book").exists()


def test_enrol_with_near_misses_from_wavs_and_the_warning_without(tmp_path, scene, capsys):
    chant = [tmp_path / f"chant{k}.wav" for k in range(3)]
    for path, (s, p) in zip(chant, ((150, 50), (125, 38), (178, 64))):
        write_wav(path, recording([say(Take(CHANT, "en-us", s, p), scene.cache)])[0])
    near = [tmp_path / f"near{k}.wav" for k in range(3)]
    for path, text in zip(near, ("Incantibus", "Incantation", "Can't go")):
        write_wav(path, recording([say(Take(text, "en-us"), scene.cache)])[0])
    book = str(tmp_path / "book")
    assert main(["enrol", "--player", "Anna", "--wav", *map(str, chant), "--near-miss-wav", *map(str, near), "--templates", book]) == 0
    said = capsys.readouterr()
    assert json.loads(said.out)["near_misses"] == 3 and "no near misses" not in said.err
    assert main(["enrol", "--player", "Ben", "--wav", *map(str, chant), "--templates", book]) == 0
    assert "warning: no near misses enrolled" in capsys.readouterr().err
    assert len(templates.load(book).near_misses) == 3  # Anna's are kept when Ben enrols
