"""Ravenskeep: fill your potion bottles by imprisoning wizards under towers, and get all of your own
wizards into the black Ravenskeep."""
from companion.games.ravenskeep.rules import RULES

__all__ = ["RULES"]
