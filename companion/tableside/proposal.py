"""The casting the camera read, as the table side hands it to the game: one target per player.

The pipeline reads wands by strength; the game speaks of players. The proposal is made once every
wand is sure, and it is the engine, not the camera, that decides whether it is legal.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.cue import Cue
from companion.question import cast_action


@dataclass(frozen=True)
class CastProposal:
    """``targets``: player -> place id (None: pointing at nothing). ``base``: the game version the
    reading was made at, so a casting entered on a tablet meanwhile makes this one stale."""

    targets: Mapping[str, str | None]
    base: int
    action_id: str

    @classmethod
    def from_reading(cls, by_strength: Mapping[int, str | None], holders: Mapping[int, str], base: int,
                     cue: Cue) -> CastProposal:
        """From the camera's targets by wand strength, with ``holders`` (strength -> player). A wand
        nobody holds cannot be proposed for anyone: ValueError naming it."""
        if unheld := sorted(set(by_strength) - set(holders)):
            raise ValueError(f"wands {unheld!r} were read, but nobody at the table holds them ({dict(holders)!r})")
        targets = {holders[strength]: target for strength, target in by_strength.items()}
        return cls(targets, base, f"camera-{cue.source}-{cue.t_end:.3f}")

    def action(self) -> dict[str, Any]:
        """The game's own cast (``companion.question.cast_action``): each player's target."""
        return cast_action(self.targets)

    def said(self, names: Mapping[str, str]) -> str:
        """In the game's words: each player and the place's name (``names``: place -> as the board says it)."""
        return ", ".join(f"{player} → {names.get(target, 'a token') if target else 'nothing'}"
                         for player, target in self.targets.items())
