"""Das Grimoire des Wahnsinns: a co-operative race round the ritual circle to banish every monster of
the grimoire before madness takes the group."""
from companion.games.grimoire.rules import RULES

__all__ = ["RULES"]
