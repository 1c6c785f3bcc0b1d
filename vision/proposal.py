"""A casting's result as a proposal the rules engine validates before anything changes."""
from __future__ import annotations

from vision.decide import TARGET, CastingResult


def cast_proposal(result: CastingResult) -> dict:
    """{"type": "cast", "targets": {strength: token id or None}, "source": "camera", "unsure": [strengths]}.

    Wands that are unsure, missing or pointing at nothing get None and are listed in "unsure", so the
    tablet asks their players; "status" and "why" (``vision.decide.WHY``) say why, for the tablet to
    tell the player."""
    targets = {k: (w.target if w.status == TARGET else None) for k, w in sorted(result.wands.items())}
    return {
        "type": "cast",
        "targets": targets,
        "source": "camera",
        "unsure": [k for k, w in sorted(result.wands.items()) if w.status != TARGET],
        "confidence": {k: round(w.confidence, 4) for k, w in sorted(result.wands.items())},
        "status": {k: w.status for k, w in sorted(result.wands.items())},
        "why": {k: w.why for k, w in sorted(result.wands.items()) if w.status != TARGET},
    }
