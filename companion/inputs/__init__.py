"""Everything that is not pointing: button wands on the hub or on the Pi's GPIO, and the cue.

Inputs reach the engine as proposals (see `proposals`): a press names its wand and its hub time,
a race is decided by hub timestamps, and a cue says when the last syllable ended.
"""
