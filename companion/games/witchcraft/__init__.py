"""Witchcraft: Moonlight Magic: buy ingredients with crystals, cast spells, keep familiars, reach 20 magic."""
from companion.games.witchcraft.rules import RULES

__all__ = ["RULES"]
