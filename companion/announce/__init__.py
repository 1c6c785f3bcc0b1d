"""Spoken announcements on the Pi's speaker, offline: each casting's result, races, escapes, the
ritual marker, the end and the winner, in the games' words; a chime at the cue; the join code at start
on a Pi with no screen.

    words (what the table heard -> sentences) -> Announcer (a queue, one thread) -> Voice (espeak-ng)
                                                                                  -> Output (the speaker, or WAV files)

The speaker is a hardware seam: ``Playback`` plays through ``aplay`` or ``paplay``, ``WavFolder`` keeps
each utterance as a WAV file (the tests listen to those). Nothing here knows the display or the table
side: ``companion.night_at_the_table`` hands the announcer what they publish.
"""
from companion.announce.announcer import Announcer, SpeakerSettings
from companion.announce.speaker import Espeak, Output, Playback, SpeakerError, WavFolder, chime_wav
from companion.announce.words import Words, join_code_words

__all__ = ["Announcer", "Espeak", "Output", "Playback", "SpeakerError", "SpeakerSettings", "WavFolder", "Words",
           "chime_wav", "join_code_words"]
