"""What a game shows the table: JSON objects (a public view, the legal choices, a note of what happened)
that the engine passes to the display unread. Their values are ``object`` so that nothing reads one back
without saying what it expects: a game builds its views from its state and never looks into them."""
from __future__ import annotations

JsonObject = dict[str, object]
