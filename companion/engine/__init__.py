"""The rules engine: a game is an append-only log of events; its state is a fold of them."""
from companion.engine.actions import ActionModel, Proposal
from companion.engine.events import Event
from companion.engine.game import Game
from companion.engine.rules import Rules

__all__ = ["ActionModel", "Event", "Game", "Proposal", "Rules"]
