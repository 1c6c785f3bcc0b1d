"""The cue from every source: what the status page says of the microphone and the chant book, the
spoken chant (espeak-ng speech through the real detector) leading to a reading, and one call heard
twice counting once."""
from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from companion.cue import Cue
from companion.cue.bench import Scene, enrol_chorus
from companion.cue.bench.chorus import CHANT, Take, say
from companion.cue.features import SAMPLE_RATE
from companion.cue.microphone import MemorySource, Microphone, MicrophoneError
from companion.cue.bench.table_noise import spoken_span
from companion.status import StatusBoard
from companion.tableside import TableSide, TableSideConfig
from companion.tableside.cue import ENROL, CueInputs, microphone_fix
from companion.night_at_the_table.rendered import RenderedTable
from companion.web.table import Table

from .conftest import casts, device, wait_for

VOICE = "en-us"


def inputs(status: StatusBoard, **kw) -> tuple[CueInputs, list[Cue]]:  # type: ignore[no-untyped-def]
    heard: list[Cue] = []
    return CueInputs(status, heard.append, **kw).start(), heard


def test_microphone_off_says_where_the_cue_comes_from(status: StatusBoard) -> None:
    inputs(status, mic=False, buttons="the cue button or the tablet")
    cue = device(status, "cue")
    assert cue["level"] == "off" and "the cue button or the tablet" in cue["message"] and "--mic" in cue["fix"]


def test_no_chant_enrolled_names_the_enrol_command(status: StatusBoard, tmp_path: Path) -> None:
    inputs(status, mic=True, templates=tmp_path / "empty")
    cue = device(status, "cue")
    assert cue["level"] == "warning" and "no chant enrolled" in cue["message"]
    assert cue["fix"] == ENROL and "python -m companion.cue enrol --player NAME" in cue["fix"]


def test_a_damaged_chant_book_is_an_error(status: StatusBoard, tmp_path: Path) -> None:
    (tmp_path / "index.json").write_text("{not json")
    inputs(status, mic=True, templates=tmp_path)
    assert device(status, "cue")["level"] == "error" and "damaged" in device(status, "cue")["message"]


@pytest.fixture(scope="module")
def chant_book(tmp_path_factory: pytest.TempPathFactory) -> tuple[Scene, Path]:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (Debian package 'espeak-ng')")
    scene = Scene(tmp_path_factory.mktemp("speech"), (VOICE,))
    folder = tmp_path_factory.mktemp("chant-book")
    enrol_chorus(scene, folder)
    return scene, folder


def test_no_microphone_is_an_error_naming_what_to_install(status: StatusBoard, chant_book: tuple[Scene, Path]) -> None:
    try:
        import sounddevice  # noqa: F401
    except OSError:
        pass
    else:
        pytest.skip("PortAudio is installed here: the real microphone may open")
    inputs(status, mic=True, templates=chant_book[1], microphone=Microphone)
    cue = wait_for(lambda: (d := device(status, "cue")) and d["level"] == "error" and d)
    assert cue and "no microphone" in cue["message"] and "libportaudio2" in cue["fix"]


def test_the_fix_for_a_microphone_names_the_missing_library_or_the_cable() -> None:
    assert "install libportaudio2" in microphone_fix(MicrophoneError("no sound support (x); on Debian install libportaudio2"))
    assert "plug in" in microphone_fix(MicrophoneError("cannot open microphone 3: device unavailable"))


def test_the_spoken_chant_leads_to_a_reading(make_side: Callable[..., TableSide], chant_book: tuple[Scene, Path],
                                             rendered: RenderedTable, calibration: Path, table: Table) -> None:
    scene, folder = chant_book
    clean = say(Take(CHANT, VOICE, 160, 50), scene.cache)
    audio = np.concatenate([np.zeros(SAMPLE_RATE), clean, np.zeros(SAMPLE_RATE)]).astype(np.float32)
    audio += np.random.default_rng(1).normal(0, 1e-3, len(audio)).astype(np.float32)  # a quiet room
    chant_ends = 1.0 + spoken_span(clean)[1]
    targets = {"Lera": "r1", "Kirill": "r4", "Katya": "r6", "Rosa": "r2"}
    wands = table.view()["wands"]
    sound: list[MemorySource] = []

    def microphone() -> MemorySource:
        assert wait_for(lambda: rendered.frames_read > 2)  # the camera is up before anyone calls the cue
        # The chant was called so that it ended as the wands started to move.
        sound.append(MemorySource(audio, t0=rendered.point({wands[p]: t for p, t in targets.items()}) - chant_ends))
        return sound[-1]

    side = make_side(TableSideConfig(hub="none", camera="render", calibration=calibration, mic=True,
                                     cue_templates=folder), opener=lambda: rendered, microphone=microphone)
    assert wait_for(lambda: side.reader.count >= 1)
    assert side.reader.last.outcome == "cast", side.reader.last
    assert casts(table) == [{"type": "cast", "targets": targets}]


def test_one_call_heard_by_the_microphone_and_a_button_counts_once(status: StatusBoard) -> None:
    cues, heard = inputs(status, mic=False)
    cues.heard(Cue("microphone", 10.0, VOICE, 1.2))
    cues.heard(Cue("hub", 10.3))
    cues.tablet(30.0)
    cues.tablet(30.5)  # the same button twice is two cues: the reading drops one it cannot use
    assert [(c.source, c.t_end) for c in heard] == [("microphone", 10.0), ("tablet", 30.0), ("tablet", 30.5)]


def test_the_tablets_hear_when_wand_4_goes_to_a_player_who_has_not_enrolled(
        status: StatusBoard, chant_book: tuple[Scene, Path], table: Table) -> None:
    from companion.tableside.notices import Notices

    notices = Notices()
    cues = CueInputs(status, lambda cue: None, mic=True, templates=chant_book[1], notices=notices, table=table,
                     buttons="the cue button or the tablet", microphone=lambda: MemorySource(np.zeros(1, np.float32)))
    cues.detector = cues._detector()
    holder = next(p for p, k in table.view()["wands"].items() if k == 4)
    assert cues.check_caller() == holder  # only en-us enrolled: the holder of wand 4 did not
    said = notices.recent("cue_enrol")
    assert len(said) == 1 and said[0]["player"] == holder
    assert f"{holder} holds wand 4" in said[0]["message"] and "the cue button or the tablet" in said[0]["message"]
    cues.check_caller()
    assert len(notices.recent("cue_enrol")) == 1  # told once while they hold it, not every second
    folder = chant_book[1]
    enrolled = CueInputs(status, lambda cue: None, mic=True, templates=folder, notices=Notices(), table=table)
    enrolled.detector = enrolled._detector()
    assert enrolled.detector is not None
    enrolled.detector.book = _renamed(enrolled.detector.book, holder)
    assert enrolled.check_caller() is None and not enrolled.notices.recent("cue_enrol")


def _renamed(book, player):  # type: ignore[no-untyped-def]
    """The same chant book with its takes said by ``player``."""
    from dataclasses import replace

    return replace(book, templates=tuple(replace(t, player=player) for t in book.templates))
