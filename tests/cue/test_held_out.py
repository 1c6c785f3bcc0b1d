"""The bench's held-out panel is voices nothing else hears: not the chant model's training, not
the dev panel tuned on, not a panel already spent."""
import json

from companion.cue.bench import DEV_VOICES, HELD_OUT_FILE, held_out_panel
from companion.cue.bench.chorus import FESTIVAL_VOICES, engine_of
from companion.cue.train import recipe


def test_the_held_out_voices_are_heard_neither_in_training_nor_in_tuning_nor_spent():
    engine, voices, _ = held_out_panel()
    spent = json.loads(HELD_OUT_FILE.read_text())["spent"]
    spent_voices = {v for panel in spent for v in panel["voices"]}
    assert voices and not set(voices) & (set(recipe.FESTIVAL) | set(DEV_VOICES) | spent_voices)
    assert all(engine_of(v) != "espeak-ng" for v in voices)  # the model trains on espeak-ng voices at random
    assert "flite" in {panel["engine"] for panel in spent} and engine_of(voices[0]) != "flite"
    assert engine != "flite"


def test_every_held_out_voice_names_a_festival_voice_the_chorus_knows():
    _, voices, _ = held_out_panel()
    assert all(v.split(":", 1)[1] in FESTIVAL_VOICES for v in voices if engine_of(v) == "festival")
