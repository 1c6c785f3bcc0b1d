"""The chant recorded from the Pi's own microphone, started and stopped from a tablet: the sound comes
through the cue's sound-card seam (a WAV file played at real-time pace through PortAudio's callback),
one recording at a time, and an unplugged microphone is refused in one line."""
from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from calibration.chant_recording import ChantRecorder
from calibration.desk import CalibrationDesk, open_desk
from calibration.model import CalibrationError
from calibration.profiles import load, save
from companion.cue.audio import read_wav
from companion.cue.enrol import takes_from_wavs
from companion.cue.microphone import Microphone, PlayedSoundCard
from companion.night import Night
from companion.status import StatusBoard
from companion.store import Store
from companion.web.app import create_app
from companion.web.settings import Settings
from vision.profile import ImageSize, Profile

from .chant import quiet_room, three_chants
from .staged import StagedTable

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

CODE = "424242"


@pytest.fixture(scope="module")
def chant(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return three_chants(tmp_path_factory.mktemp("chant"))


def played(wav: Path, present: bool = True) -> tuple[PlayedSoundCard, ChantRecorder]:
    card = PlayedSoundCard(wav, present)
    return card, ChantRecorder(lambda: Microphone(sound=card))


def until(check: object, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "the recording never got there"
        time.sleep(0.05)


def test_a_recording_is_what_the_microphone_heard_from_start_to_stop(chant: Path, tmp_path: Path) -> None:
    card, recorder = played(chant)
    length = len(read_wav(chant)) / 16000
    assert recorder.start("tablet-a")["recording"] is True
    levels: list[float] = []
    def heard_it_all() -> bool:
        now = recorder.now("tablet-a")
        levels.append(now["level"])
        return bool(now["seconds"] >= length + 0.3)

    until(heard_it_all)
    audio = recorder.stop("tablet-a")
    assert max(levels) > 0.05 and min(levels) < 0.02  # the meter moved: loud in the chants, low between
    assert len(audio) / 16000 == pytest.approx(length + 0.3, abs=0.5)  # heard at real-time pace, not faster
    assert recorder.now("tablet-a")["recording"] is False and card.streams == 1
    heard = tmp_path / "heard.wav"
    from companion.cue.audio import write_wav
    write_wav(heard, audio)
    assert len(takes_from_wavs([heard])) == 3  # three chants, as said


def test_two_tablets_share_the_one_microphone_in_turn(chant: Path) -> None:
    card, recorder = played(chant)
    recorder.start("tablet-a")
    with pytest.raises(CalibrationError, match="another tablet is recording the chant"):
        recorder.start("tablet-b")
    with pytest.raises(CalibrationError, match="only that tablet can stop it"):
        recorder.stop("tablet-b")
    watching = recorder.now("tablet-b")
    assert watching["recording"] is True and watching["mine"] is False and recorder.now("tablet-a")["mine"] is True
    assert len(recorder.stop("tablet-a")) > 0
    with pytest.raises(CalibrationError, match="no recording is running"):
        recorder.stop("tablet-a")
    recorder.start("tablet-b")  # the microphone is free again
    assert recorder.now("tablet-b")["mine"] is True and card.streams == 2
    recorder.stop("tablet-b")


def test_an_unplugged_microphone_is_refused_in_one_line(chant: Path) -> None:
    card, recorder = played(chant, present=False)
    with pytest.raises(CalibrationError) as refused:
        recorder.start("tablet-a")
    words = str(refused.value)
    assert "\n" not in words and "Error querying device -1" in words and "plug the USB microphone into the Pi" in words
    assert recorder.now("tablet-a")["recording"] is False
    with pytest.raises(CalibrationError, match="no recording is running"):
        recorder.stop("tablet-a")


# -- through the display, as the page does it ---------------------------------------------------------------

@pytest.fixture
def desk_on(tmp_path: Path) -> Iterator[tuple[TestClient, CalibrationDesk, dict[str, PlayedSoundCard]]]:
    profile, table = tmp_path / "profile.json", StagedTable(seed=5)
    save(Profile(image=ImageSize(width=640, height=480), camera=table.camera.calibration().camera), profile)
    cards: dict[str, PlayedSoundCard] = {}  # the test puts the sound the Pi's microphone will hear here
    desk = open_desk(profile, table.read, microphone=lambda: Microphone(sound=cards["now"]))
    with Store(tmp_path / "night.sqlite") as store:
        app = create_app(Night.resume_or_start(store, "Test night"), StatusBoard(), Settings(join_code=CODE))
        app.state.calibration = desk
        with TestClient(app) as client:
            assert client.post("/api/session", json={"code": CODE}).status_code == 200
            yield client, desk, cards
    desk.feed.stop()


def host(client: TestClient) -> None:
    pin = client.app.state.sessions.host_pin  # type: ignore[attr-defined]
    assert client.post("/api/session/host", json={"pin": pin}).status_code == 200


def test_the_chant_from_the_pi_is_enrolled_from_the_tablet(desk_on: tuple[TestClient, CalibrationDesk, dict[str, PlayedSoundCard]],
                                                          chant: Path) -> None:
    client, desk, cards = desk_on
    cards["now"] = PlayedSoundCard(chant)
    refused = client.post("/api/calibration/cue/microphone")
    assert refused.status_code == 403  # the join code alone does not change the table
    assert client.get("/api/calibration").json()["host"] is False  # so the page asks for the host PIN first
    host(client)
    assert client.get("/api/calibration").json()["host"] is True
    assert client.post("/api/calibration/cue/microphone").json()["recording"] is True
    length = len(read_wav(chant)) / 16000
    until(lambda: client.get("/api/calibration/cue/microphone").json()["seconds"] >= length + 0.3)
    answer = client.post("/api/calibration/cue/microphone/stop", json={"player": "group"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["message"] == "3 takes of group's \"In-can-to!\" enrolled"
    assert load(desk.profile_path).cue is not None
    assert client.get("/api/calibration").json()["steps"]["cue"]["done"] is True


def test_a_take_of_the_quiet_room_is_refused_in_words(desk_on: tuple[TestClient, CalibrationDesk, dict[str, PlayedSoundCard]],
                                                      tmp_path: Path) -> None:
    client, desk, cards = desk_on
    cards["now"] = PlayedSoundCard(quiet_room(tmp_path))
    host(client)
    client.post("/api/calibration/cue/microphone")
    until(lambda: client.get("/api/calibration/cue/microphone").json()["seconds"] >= 2.0)
    answer = client.post("/api/calibration/cue/microphone/stop", json={"player": "group"})
    assert answer.status_code == 422
    words = answer.json()["error"]
    assert words.startswith("the recording: ") and "too quiet" in words and "/" not in words.split(":")[0]
    assert "say \"In-can-to!\" three times" in words
    assert load(desk.profile_path).cue is None and not (desk.profile_path.parent / "cue").exists()


def test_an_unplugged_pi_microphone_answers_in_words(desk_on: tuple[TestClient, CalibrationDesk, dict[str, PlayedSoundCard]],
                                                     chant: Path) -> None:
    client, _, cards = desk_on
    cards["now"] = PlayedSoundCard(chant, present=False)
    host(client)
    answer = client.post("/api/calibration/cue/microphone")
    assert answer.status_code == 422
    assert answer.json()["error"].startswith(
        "the Pi's microphone cannot be opened (cannot open the default microphone: Error querying device -1): plug")
    assert client.get("/api/calibration/cue/microphone").json()["recording"] is False


def test_while_the_cue_listens_the_recording_overhears_its_microphone(chant: Path, tmp_path: Path) -> None:
    """A sound card is opened once: on a Pi without a sound server a second opening is refused, so the
    recording hears what the cue's listener hears, and the listener goes on hearing the cue."""
    from companion.cue.config import CueConfig
    from companion.cue.enrol import enrol_player
    from companion.night_at_the_table.serve import pi_microphone
    from companion.status import StatusBoard
    from companion.tableside.cue import CueInputs

    book = tmp_path / "book"
    enrol_player("group", takes_from_wavs([chant]), CueConfig(templates_dir=book))
    card, heard = PlayedSoundCard(chant), list[object]()
    listener = CueInputs(StatusBoard(), heard.append, mic=True, templates=book, microphone=lambda: Microphone(sound=card))
    side = type("Side", (), {"cue": listener})()  # the table side, as far as the Pi's microphone goes
    recorder = ChantRecorder(pi_microphone(side))  # type: ignore[arg-type]
    listener.start()
    try:
        until(listener.hearing)
        recorder.start("tablet-a")
        length = len(read_wav(chant)) / 16000
        until(lambda: recorder.now()["seconds"] >= length)
        audio = recorder.stop("tablet-a")
    finally:
        listener.stop()
    assert card.streams == 1  # the sound card was opened by the listener alone
    from companion.cue.audio import write_wav
    write_wav(tmp_path / "overheard.wav", audio)
    assert len(takes_from_wavs([tmp_path / "overheard.wav"])) == 3
    assert len(heard) >= 2  # the listener heard the chants as cues all the while
