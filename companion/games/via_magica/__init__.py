"""Via Magica: capture Animus from the bag, crystallize it on portals, call INCANTATUM! and open them."""
from companion.games.via_magica.rules import RULES

__all__ = ["RULES"]
