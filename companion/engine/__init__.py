"""The rules engine: a game is an append-only log of events; its state is a fold of them."""
from companion.engine.events import Event
from companion.engine.game import Game
from companion.engine.rules import Action, Rules

__all__ = ["Action", "Event", "Game", "Rules"]
