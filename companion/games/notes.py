"""What a game notes down as it goes (a token drawn, a wand swapped, a monster banished), for the table
to be told: one JSON record per happening, e.g. ``{"event": "rolled", "player": "Lera", "value": 4}``.
The rules never read a note back; the game's view passes the notes to the display as they are."""
from __future__ import annotations

from collections.abc import Mapping

Note = Mapping[str, object]
