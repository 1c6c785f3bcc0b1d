"""A camera question as the table side would put it: wands by strength, the places each may have
pointed at, why, and (optionally) a picture, turned into the typed ``CastQuestion``."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.question import NOTHING, OUTLINES, AskedWand, CastQuestion, Choice


def question(view: Mapping[str, Any], unsure: Mapping[int, Sequence[str]], seen: Mapping[int, str | None] | None = None,
             why: Mapping[int, str] | None = None, pictures: Mapping[int, bytes] | None = None) -> CastQuestion:
    """``unsure``: strength -> places offered, best first; ``seen``: strength -> place, for the wands the
    camera read (default: nothing for every wand not asked)."""
    holder = {w: p for p, w in view["wands"].items()}
    seen = {w: None for w in holder if w not in unsure} if seen is None else seen
    wands = tuple(AskedWand(holder[w], w, tuple(Choice(p, f"token {i + 1}", None, OUTLINES[i]) for i, p in enumerate(places))
                            + (Choice(None, NOTHING),), (why or {}).get(w, ""), (pictures or {}).get(w))
                  for w, places in sorted(unsure.items()))
    return CastQuestion({holder[w]: t for w, t in seen.items()}, wands, view["version"])
