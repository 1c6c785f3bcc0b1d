"""Incanto's camera pipeline: which token each wand points at after the cue."""
