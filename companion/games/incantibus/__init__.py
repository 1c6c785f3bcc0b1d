"""Incantibus: explore the tower room by room with the wands, then fight the sorcerers in the dungeon."""
from companion.games.incantibus.rules import RULES

__all__ = ["RULES"]
