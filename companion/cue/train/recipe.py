"""What the chant model is trained on: voices, words and rooms, all synthesised here and now.

The recipe is the data: no recording is downloaded or stored. Every utterance is said by a speech
engine installed from Debian (``make system-deps``), then placed in a room. The held-out engine of
the bench (``companion/cue/bench/held_out.json``: festival's Finnish and Czech voices) is never
used here, nor flite (held out until 2026-12-02, now spent).

The talk is not the bench's table talk (``bench.chorus.TABLE_TALK``) either; the near-miss words are
the words that sound like the chant, and some of them are the bench's too (the bench says them in
another engine's voices, in other rooms).
"""
from __future__ import annotations

# espeak-ng accents, each with several voice variants (male, female, old, whispery, klatt).
ACCENTS: tuple[str, ...] = ("en-us", "en-gb", "en-gb-scotland", "en-gb-x-rp", "en-gb-x-gbclan", "en-gb-x-gbcwmd",
                            "en-029", "en-us-nyc")
VARIANTS: tuple[str, ...] = ("", "+f1", "+f2", "+f3", "+f4", "+f5", "+m1", "+m2", "+m3", "+m4", "+m5", "+m6", "+m7",
                             "+Alicia", "+Andy", "+Annie", "+Denis", "+Gene", "+Linda", "+Mike", "+Steph", "+anika",
                             "+grandma", "+grandpa", "+klatt3", "+norbert", "+shelby", "+travis", "+victor")
FESTIVAL: tuple[str, ...] = ("festival:kal", "festival:ked", "festival:slt")

# How "In-can-to!" is spelled so the engines say its three syllables in their several ways.
CHANTS: tuple[str, ...] = ("In can toe!", "In-can-to!", "Incanto!", "In can to!", "In. Can. Toe!", "Inn can toe!")
# Words and phrases that share the chant's sounds: the model must say "not the chant" to each.
NEAR_MISSES: tuple[str, ...] = (
    "Incantibus", "Incantation", "In Cancun", "Can't go", "Toronto", "In canto", "Canto", "Can do", "In a can",
    "Incantations", "Incantatum", "In Canton", "Pinto", "Tonto", "Lento", "Uncanny", "In condo", "Cantor",
    "Can't you go?", "Kent, oh!", "Intake, oh", "In time, too", "Inca tomb", "Incandescent", "Income too",
    "I can't, no", "Can't, though", "Can to", "In can", "In Kansas", "Ten to", "Into", "Contour", "Kentucky",
    "Can we go?", "It can't go", "Incantibus, go!", "In Toronto", "Candle", "Intended", "Canteen", "Condo",
    "Cancel", "Can't do", "Pentagon", "Incubator", "Canopy", "Tomato", "Potato", "Let us go",
)
# General talk at a game table, for negatives and for babble under the chant.
TALK: tuple[str, ...] = (
    "Roll again, it fell off the table.", "I'll take the red one this time.", "How many points do I have?",
    "Could you hand me the rule book?", "No, that card goes on the discard pile.", "It's getting late, one more round.",
    "I think the goblin wins this one.", "Put the kettle on, would you?", "You always pick the same token.",
    "Wait, I haven't finished my turn.", "Eleven, twelve, thirteen, fourteen.", "That's the third time tonight!",
    "Where's the little blue cube?", "Let me see the board from here.", "Who's keeping score?",
    "Okay, your move.", "Hmm, let me think about it.", "Is it my turn or yours?", "Pass the crisps, please.",
    "That move was brilliant.", "I need a six, just one six.", "The witch goes to the forest.",
    "Don't look at my cards!", "Shall we start the next game?", "Three gems and a scroll.",
    "Read it out loud, please.", "I'm sure that's against the rules.", "Ha, got you!",
    "Right, everyone ready?", "Can we play something else next?",
)
VOICE_STYLES = {"speed": (105, 225), "pitch": (18, 92)}  # espeak-ng words per minute and pitch 0-99
CHANTS_PER_VOICE = 10
NEAR_MISSES_PER_VOICE = 24
TALK_PER_VOICE = 8
# Each utterance is placed in this many rooms (more for the chant: it is rarer in the talk).
ROOMS_PER_CHANT = 6
ROOMS_PER_OTHER = 2
SNR_DB = (-3.0, 24.0)  # speech over the room, uniformly in this range
REVERB_SHARE = 0.5  # rooms with echo (RT60 0.15-0.7 s)
NOISES = ("stationary", "babble", "clatter", "quiet")
# The four choices below are off (0, False): each, and all together, was tried on the nine dev
# voices and none both heard more chants in babble and kept the near misses out (docs/cue.md,
# "A chant model retrained for babble and clicks"). Off, the command rebuilds the shipped model's rooms.
# Babble rooms where someone at the table talks up to the chant's start or on from its end, a
# breath apart or less and about as loud as the caller: at a table the talk does not wait.
NEIGHBOUR_SHARE = 0.0
NEIGHBOUR_GAP_S = (0.05, 0.35)  # from their last syllable to the chant's first, or back
NEIGHBOUR_UNDER_DB = (0.0, 6.0)  # the neighbour this far under the caller
# Clatter rooms where a cup is set down while the chant is said: a few tones ringing 50-300 ms,
# as long as a syllable, which the click bridge keeps.
CLINK_ON_SPEECH_SHARE = 0.0
# Each utterance in a room is also cut at its own speech with this much of the room either side
# (seconds), in this share of the rooms: the cut the detector's windows and later starts make of a
# chant glued to talk. Near misses and talk are cut the same way, as what is not the chant.
SPAN_CUT_SHARE = 0.0
SPAN_CUT_MARGIN_S = (0.03, 0.3)
# Phrases read with a die's click bridged in every band (``features.bridge_clicks``), as the
# enrolled takes are, at training and at the table alike (the model file says so).
DECLICK = False
