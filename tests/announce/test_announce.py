"""Spoken announcements, rendered by the real espeak-ng into WAV files: the right sentence for each
casting, race, escape, ritual marker and ending, and sound (not silence) in every file."""
from __future__ import annotations

import random
import shutil
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.announce import Announcer, Espeak, SpeakerSettings, WavFolder, Words, chime_wav, join_code_words
from companion.announce.speaker import RATE, samples
from companion.announce.words import token_words
from companion.engine.game import Game
from companion.night import Night
from companion.night_at_the_table import announce_at_the_table, display
from companion.status import StatusBoard
from companion.store import Store
from companion.web.settings import Settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

PLAYERS = ["Lera", "Kirill", "Katya", "Rosa"]
needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (make system-deps)")


@pytest.fixture
def night(tmp_path: Path) -> Any:
    with Store(tmp_path / "night.sqlite") as store:
        yield Night.resume_or_start(store, "Friday")


def play(game: Game, until: Any, seed: int = 1) -> list[str]:
    """Bots play ``game`` until ``until(view)``; every event's view goes to Words as the display publishes it."""
    words, said, rng = Words(), [], random.Random(seed)
    words.heard({"type": "snapshot", "game": game.view()})
    while not until(game.view()) and (action := game.rules.random_action(game.state, rng)) is not None:
        game.propose(action, None, None)
        said += words.heard({"type": "event", "game": game.view()})
    return said


def rms(wav: bytes) -> float:
    return float(np.sqrt(np.mean(samples(wav) ** 2)))


def test_a_casting_is_said_claim_by_claim(night: Night) -> None:
    game = night.start_game("incantibus", PLAYERS, seed=3)
    said = play(game, lambda v: (v.get("last_cast") or {}).get("casting"))
    cast = game.view()["last_cast"]
    assert said[-1].startswith(f"Casting {cast['casting']}. ")
    for claim in cast["claims"]:
        thing = token_words(claim["kind"])
        if claim["losers"]:
            assert f"{claim['winner']} wins {thing} from " in said[-1]
        else:
            assert f"{claim['winner']} takes {thing}." in said[-1]
    assert "_" not in said[-1]  # the rulebook's names, never ids


def test_the_end_names_the_winner_with_points(night: Night) -> None:
    game = night.start_game("incantibus", PLAYERS, seed=5)
    said = play(game, lambda v: v["over"])
    view = game.view()
    assert said[-1] == f"The game is over. {view['winner']} wins with {view['scores'][view['winner']]} points!"
    assert sum(s.startswith("Casting ") for s in said) == view["last_cast"]["casting"]


def test_the_grimoire_ritual_marker_and_its_end(night: Night) -> None:
    game = night.start_game("grimoire", PLAYERS, seed=3)
    said = play(game, lambda v: v["over"])
    assert any(s.startswith("The ritual marker moves to ") for s in said)
    assert said[-1] in ("The game is over. The table has beaten the Grimoire!", "The game is over. The Grimoire has won this time.")


def test_an_escape_a_race_and_an_undo() -> None:
    words = Words()
    base = {"game": "grimoire", "version": 4, "escaped": [], "ritual": {"marker": 2}}
    words.heard({"type": "snapshot", "game": base})
    assert words.heard({"type": "event", "game": {**base, "version": 5, "escaped": ["feuer-1"]}}) == \
        ["A curse escapes! 1 escaped so far."]
    assert words.heard({"type": "event", "game": {**base, "version": 4}}) == []  # an undo says nothing
    assert words.heard({"type": "notice", "notice": {"kind": "race", "message": "Katya was first"}}) == ["Katya was first!"]
    assert words.heard({"type": "notice", "notice": {"kind": "press", "message": "Katya pressed"}}) == []


def test_tokens_in_the_rulebooks_words() -> None:
    assert [token_words(k) for k in ("green_2", "gold_3", "lady_goblin", "archmage", "wand_net", "ghost", "mandrake")] == \
        ["a green potion", "3 gold", "Lady Goblin", "the Archmage", "the wand net", "a ghost", "a mandrake"]


@needs_espeak
def test_announcements_render_to_wav_files_with_sound(night: Night, tmp_path: Path) -> None:
    """Through the display as ``serve`` wires it: a casting proposed on the table is heard and spoken."""
    game = night.start_game("incantibus", PLAYERS, seed=3)
    app = display(night, StatusBoard(), Settings(join_code="424242"))
    speaker = WavFolder(tmp_path / "said")
    voice = Espeak("en-gb", volume=80)
    rng = random.Random(1)
    with Announcer(SpeakerSettings(), speaker, voice) as announcer, TestClient(app):
        announce_at_the_table(app, announcer)
        while not (game.view().get("last_cast") or {}).get("casting"):
            game.propose(game.rules.random_action(game.state, rng), None, None)
        assert announcer.idle.wait(60)
    assert len(voice.texts) == 1 and voice.texts[0].startswith("Casting 1. ")
    (wav,) = speaker.files
    sound = samples(wav.read_bytes())
    assert len(sound) / RATE > 1.0 and rms(wav.read_bytes()) > 0.02  # speech, not silence


@needs_espeak
def test_the_chime_rings_at_the_cue_and_mute_says_nothing(tmp_path: Path) -> None:
    speaker = WavFolder(tmp_path / "said")
    with Announcer(SpeakerSettings(volume=50), speaker) as announcer:
        announcer.cue()
        assert announcer.idle.wait(10)
    (wav,) = speaker.files
    sound = samples(wav.read_bytes())
    peak_hz = np.argmax(np.abs(np.fft.rfft(sound))) * RATE / len(sound)
    assert abs(peak_hz - 880) < 15 or abs(peak_hz - 1318.5) < 15
    assert rms(chime_wav(100)) > rms(chime_wav(20)) > 0
    quiet = WavFolder(tmp_path / "muted")
    with Announcer(SpeakerSettings(mute=True), quiet) as announcer:
        announcer.cue()
        announcer.say("Katya was first!")
        assert announcer.idle.wait(10)
    assert quiet.files == [] and announcer.spoken == []


@needs_espeak
def test_the_join_code_is_said_digit_by_digit(tmp_path: Path) -> None:
    sentence = join_code_words("246810", "incanto.local:8000")
    assert sentence == ("To join the table, open incanto dot local port 8000, and type the code 2, 4, 6, 8, 1, 0. "
                        "Again: 2, 4, 6, 8, 1, 0.")
    voice = Espeak("de", volume=80)  # a German voice is a setting, as the Pi's speaker would use it
    assert rms(voice.render(sentence)) > 0.02


def test_bad_speaker_settings_are_refused_by_name() -> None:
    from pydantic import ValidationError
    with pytest.raises(ValidationError, match="volume"):
        SpeakerSettings(volume=150)
    with pytest.raises(ValidationError, match="voice"):
        SpeakerSettings(voice="en; rm -rf /")


@needs_espeak
def test_without_a_screen_serve_says_the_join_code(night: Night, tmp_path: Path) -> None:
    import contextlib

    from companion.night_at_the_table import show_join_address
    from companion.night_at_the_table.address import JoinAddress
    from companion.night_at_the_table.serve import without_a_screen

    night.start_game("incantibus", PLAYERS, seed=3)
    app = display(night, StatusBoard(), Settings(join_code="135790"))
    show_join_address(app, "0.0.0.0", 8000, found=JoinAddress("incanto.local", "192.168.1.23"))
    speaker = WavFolder(tmp_path / "said")
    with Announcer(SpeakerSettings(), speaker) as announcer, contextlib.ExitStack() as extras:
        without_a_screen(app, announcer, extras, blink=False)
        assert announcer.idle.wait(60)
    assert announcer.spoken == [join_code_words("135790", "incanto.local:8000")]
    assert rms(speaker.files[0].read_bytes()) > 0.02


def test_a_german_voice_speaks_german() -> None:
    """The speaker's language follows its voice: the same events said in German from the catalogue."""
    words = Words(lambda: SpeakerSettings(voice="de").language)
    base = {"game": "grimoire", "version": 4, "escaped": [], "ritual": {"marker": 2}}
    words.heard({"type": "snapshot", "game": base})
    assert words.heard({"type": "event", "game": {**base, "version": 5, "escaped": ["feuer-1"]}}) == \
        ["Ein Fluch entkommt! Bisher 1 entkommen."]
    assert words.heard({"type": "event", "game": {**base, "version": 6, "escaped": ["feuer-1"], "ritual": {"marker": 3}}}) == \
        ["Der Ritualmarker zieht auf 3."]
    race = {"kind": "race", "message": "Katya was first", "words": {"key": "notice.race", "values": {"player": "Katya"}}}
    assert words.heard({"type": "notice", "notice": race}) == ["Katya war zuerst!"]
    assert token_words("goblin", "de") == "Kobold"
    assert join_code_words("2468", "incanto.local:8000", "de") == \
        "Um dem Tisch beizutreten, öffne incanto Punkt local Port 8000 und gib den Code 2, 4, 6, 8 ein. Noch einmal: 2, 4, 6, 8."
    assert SpeakerSettings(voice="en-us+f3").language == "en" and SpeakerSettings(voice="fr").language == "en"


@needs_espeak
def test_a_german_casting_is_spoken_in_german_and_is_not_silence(night: Night, tmp_path: Path) -> None:
    game = night.start_game("incantibus", PLAYERS, seed=3)
    app = display(night, StatusBoard(), Settings(join_code="424242"))
    speaker = WavFolder(tmp_path / "said")
    rng = random.Random(1)
    with Announcer(SpeakerSettings(voice="de"), speaker) as announcer, TestClient(app):
        announce_at_the_table(app, announcer)
        while not (game.view().get("last_cast") or {}).get("casting"):
            game.propose(game.rules.random_action(game.state, rng), None, None)
        assert announcer.idle.wait(60)
    assert len(announcer.spoken) == 1 and announcer.spoken[0].startswith("Beschwörung 1. "), announcer.spoken
    (wav,) = speaker.files
    assert len(samples(wav.read_bytes())) / RATE > 1.0 and rms(wav.read_bytes()) > 0.02
