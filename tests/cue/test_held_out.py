"""The bench's held-out panel is voices nothing else hears: not the chant model's training, not
the dev panel tuned on, not a panel already spent."""
import json

from companion.cue.bench import DEV_VOICES, HELD_OUT_FILE, held_out_panel, panel_voices, spent_panel
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


def test_the_spent_panel_is_the_last_spent_engine_on_the_dev_seed_never_a_held_out_voice():
    engine, voices, seed = spent_panel()
    last = json.loads(HELD_OUT_FILE.read_text())["spent"][-1]
    assert (engine, voices) == (last["engine"], tuple(last["voices"])) and seed == panel_voices("dev")[2]
    assert seed not in last["seeds"]  # its held-out seeds' chants stay as they were read
    assert not set(voices) & set(held_out_panel()[1]) and panel_voices("spent") == spent_panel()
