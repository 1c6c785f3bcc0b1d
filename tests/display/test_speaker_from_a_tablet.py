"""The speaker from a tablet, in Debian's Chromium: the status page's Speaker part mutes, unmutes and
changes the volume of the announcer the display was given; the change is kept in settings.json."""
from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

from companion.announce import Announcer, SpeakerSettings, WavFolder
from companion.night_at_the_table import speaker_route
from companion.web.serve import running
from companion.web.settings import Settings

from .conftest import IN_CHROMIUM

pytestmark = [*IN_CHROMIUM, pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")]


@pytest.fixture
def speaker(app: FastAPI, tmp_path: Path) -> Iterator[tuple[Announcer, WavFolder, Path]]:
    said = WavFolder(tmp_path / "said")
    kept = tmp_path / "settings.json"
    kept.write_text(json.dumps({"display": {"port": 8123}}))
    with Announcer(SpeakerSettings(volume=80), said) as announcer:
        speaker_route.attach(app, announcer, speaker_route.keep_in(kept))
        yield announcer, said, kept


def test_a_tablet_mutes_and_turns_the_speaker_down(chromium: Any, app: FastAPI, speaker: tuple[Announcer, WavFolder, Path],
                                                   settings: Settings) -> None:
    announcer, said, kept = speaker
    with running(app) as url:
        tablet = chromium.new_context(viewport={"width": 1024, "height": 768})
        page = tablet.new_page()
        page.goto(f"{url}/status")
        page.wait_for_selector("#speaker-mute")
        page.click("#speaker-mute")  # not joined yet: refused, nothing changed
        page.wait_for_selector("#speaker-message:has-text('Join the table')")
        assert not announcer.settings.mute
        page.goto(f"{url}/join?code={settings.join_code}&next=/status")
        page.wait_for_url("**/status")
        page.click("#speaker-mute")
        page.wait_for_selector("#speaker-mute:has-text('Unmute')")
        assert announcer.settings.mute
        page.click("#speaker-mute")
        page.wait_for_selector("#speaker-mute:has-text('Mute')")
        with page.expect_response("**/api/speaker") as answered:
            page.locator("#speaker-volume").fill("40")  # a slider moved: input, then change
        assert answered.value.ok
        tablet.close()
    assert announcer.settings.volume == 40 and announcer.voice.volume == 40 and announcer.idle.wait(30)
    assert announcer.spoken == [speaker_route.TEST_SENTENCE] and len(said.files) == 1
    assert json.loads(kept.read_text()) == {"display": {"port": 8123}, "speaker": announcer.settings.model_dump()}


def test_an_unknown_voice_is_refused_by_name(app: FastAPI, tablet: Any, speaker: tuple[Announcer, WavFolder, Path]) -> None:
    announcer, _, kept = speaker
    answer = tablet.post("/api/speaker", json={"voice": "klingon"})
    assert answer.status_code == 422 and "'klingon'" in answer.json()["error"]
    answer = tablet.post("/api/speaker", json={"voice": "zz"})  # shaped like a voice, but espeak-ng has none
    assert answer.status_code == 422 and answer.json()["error"] == "espeak-ng has no voice 'zz' (espeak-ng --voices lists them)"
    answer = tablet.post("/api/speaker", json={"volume": 101})
    assert answer.status_code == 422 and "volume" in answer.text
    assert announcer.settings == SpeakerSettings(volume=80) and "speaker" not in json.loads(kept.read_text())
    answer = tablet.post("/api/speaker", json={"voice": "de"})
    assert answer.status_code == 200 and answer.json()["voice"] == "de" and announcer.voice.voice == "de"
