"""The announcer: sentences and chimes queued and spoken one at a time on its own thread, so the
table never waits for the speaker; muted, it says nothing."""
from __future__ import annotations

import logging
import queue
import re
import threading
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from companion.announce.speaker import Espeak, Output, SpeakerError, chime_wav
from companion.announce.words import Words
from companion.threads import Background
from companion.words import LANGUAGES

log = logging.getLogger(__name__)
QUEUED = 16  # a backlog longer than this is stale: the table has moved on


class SpeakerSettings(BaseModel):
    """The ``speaker`` part of a night's settings file."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    mute: bool = False
    volume: int = Field(80, ge=0, le=100)
    voice: str = Field("en-gb", pattern=r"^[a-z]{2,3}(-[a-z0-9]+)*(\+[a-z0-9]+)?$")  # an espeak-ng voice, e.g. de, en-us+f3
    words_per_minute: int = Field(160, ge=80, le=400)
    chime: bool = True  # a chime at the cue

    @property
    def language(self) -> str:
        """What the speaker says its sentences in: its voice's language (a German voice reads German;
        an English one could not), English for a voice of a language the catalogue lacks."""
        base = self.voice.split("+")[0].split("-")[0]
        return base if base in LANGUAGES else "en"


class Announcer(Background):
    """``heard(message)`` for every message the display publishes; ``cue()`` at every cue."""

    def __init__(self, settings: SpeakerSettings, output: Output, voice: Espeak | None = None) -> None:
        super().__init__("announcer", join_s=30)  # long enough to finish the sentences already queued
        self.settings, self.output = settings, output
        self.voice = voice or Espeak(settings.voice, settings.volume, settings.words_per_minute)
        self.words = Words(lambda: self.settings.language)
        self.spoken: list[str] = []  # what was said, in order ("(chime)" for a chime)
        self._queue: queue.Queue[tuple[str, str] | None] = queue.Queue(QUEUED)
        self.idle = threading.Event()
        self.idle.set()

    def retune(self, **changes: Any) -> SpeakerSettings:
        """New settings from the tablet (mute, volume, voice): checked whole, then in force for the next
        sentence. An unknown voice is refused by name (ValueError), nothing changed."""
        settings = SpeakerSettings.model_validate({**self.settings.model_dump(), **changes})
        if settings.voice != self.settings.voice and settings.voice not in self.voice.voices():
            raise ValueError(f"espeak-ng has no voice {settings.voice!r} (espeak-ng --voices lists them)")
        self.voice.voice, self.voice.volume, self.voice.wpm = settings.voice, settings.volume, settings.words_per_minute
        self.settings = settings
        return settings

    def heard(self, message: Mapping[str, Any]) -> None:
        for sentence in self.words.heard(message):
            self.say(sentence)

    def cue(self, *_: object) -> None:
        if self.settings.chime:
            self._put(("chime", ""))

    def say(self, sentence: str) -> None:
        self._put(("say", sentence))

    def _put(self, item: tuple[str, str]) -> None:
        if self.settings.mute:
            return
        self.idle.clear()
        try:
            self._queue.put_nowait(item)
        except queue.Full:
            log.warning("the speaker is behind: %r not said", item[1] or item[0])

    # -- the speaking thread -------------------------------------------------------------------

    def stop(self) -> None:
        if self._thread is not None:
            self._queue.put(None)  # the speaking thread waits on its queue, not on the stop event
        super().stop()

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            what, sentence = item
            try:
                if what == "chime":
                    self.output.play(chime_wav(self.settings.volume), "chime")
                    self.spoken.append("(chime)")
                else:
                    self.output.play(self.voice.render(sentence), _label(sentence))
                    self.spoken.append(sentence)
            except (SpeakerError, OSError) as e:
                log.warning("the speaker could not say %r: %s", sentence or what, e)
            if self._queue.empty():
                self.idle.set()
        self.idle.set()


def _label(sentence: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", sentence.lower())[:40].strip("-") or "said"
