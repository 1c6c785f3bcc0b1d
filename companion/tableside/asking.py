"""From the camera's readings to the table's question: for each wand it could not read, who holds it,
the places it may have pointed at (named as the board names them, outlined in the picture), why,
and the camera's picture of it at the deciding moment.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.question import NOTHING, OUTLINES, AskedWand, CastQuestion, Choice
from companion.tableside.picture import wand_picture
from vision.decide import TARGET, CastingResult, WandReading
from vision.moment import Moment


def seen_targets(result: CastingResult) -> dict[int, str | None]:
    """Wand strength -> the place the camera read (None for a wand it did not read)."""
    return {k: (w.target if w.status == TARGET else None) for k, w in sorted(result.wands.items())}


def unsure_wands(result: CastingResult) -> list[int]:
    """The wands the camera could not read: unsure, missing, or at nothing."""
    return [k for k, w in sorted(result.wands.items()) if w.status != TARGET]


def place_names(view: Mapping[str, Any], places: Iterable[str]) -> dict[str, str]:
    """Each place as the board says what lies on it (as the tablets' ``tokenLabel`` does): the token's
    kind in words ("secret token" for one face down, "face-down sorcerer"); one that reads like another
    on the table also says where it lies ("room 2")."""
    tokens = (view.get("legal") or {}).get("tokens") or {}
    on_table = Counter(_token_name(t) for t in tokens.values())
    named = {p: _token_name(tokens.get(p) or {}) for p in places}
    return {p: f"{n}, {_where(tokens.get(p) or {})}" if on_table[n] > 1 and _where(tokens.get(p) or {}) else n
            for p, n in named.items()}


def _words(kind: object) -> str:
    return str(kind).replace("_", " ")


def _token_name(token: Mapping[str, Any]) -> str:
    if token.get("kind"):
        return _words(token["kind"])
    return "face-down sorcerer" if token.get("place") == "sorcerer" else "secret token"


def _where(token: Mapping[str, Any]) -> str:
    place, slot = token.get("place"), token.get("slot")
    return f"{_words(place)} {slot + 1}" if place and isinstance(slot, int) else ""


def choices_for(wand: WandReading | None, legal: Sequence[str], names: Mapping[str, str]) -> tuple[Choice, ...]:
    """The camera's best guess and runner-up that the holder may take, best first (every legal place
    when the camera has no idea: a wand not seen), each with its outline colour; "no token" last."""
    guesses = [] if wand is None else [t for t in (wand.best, wand.runner_up) if t is not None and t in legal]
    offered = list(dict.fromkeys(guesses)) or list(legal)
    return tuple(Choice(p, names.get(p, "token"), None, OUTLINES[i % len(OUTLINES)]) for i, p in enumerate(offered)) + \
        (Choice(None, NOTHING),)


def cast_question(view: Mapping[str, Any], result: CastingResult | None, asked: Iterable[int],
                  moment: Moment | None, why: str | None = None) -> CastQuestion:
    """The question about the ``asked`` wands (strengths) of ``result``; ``result`` None: no reading at
    all (every wand offers every legal place). ``why``: one reason for every wand, instead of each
    reading's own."""
    holders = {strength: player for player, strength in view["wands"].items()}
    legal: Mapping[str, Sequence[str]] = view["legal"]["targets"]
    names = place_names(view, {p for ps in legal.values() for p in ps})
    readings = {} if result is None else result.wands
    asked = sorted(set(asked))
    wands = []
    for k in asked:
        reading = readings.get(k)
        choices = choices_for(reading, legal.get(holders[k], []), names)
        picture = None if moment is None else \
            wand_picture(moment.image, moment.tips_px.get(k), choices, moment.places_px)
        wands.append(AskedWand(holders[k], k, choices, why or (reading.why if reading else ""), picture))
    seen = {} if result is None else {holders[k]: t for k, t in seen_targets(result).items() if k not in asked}
    return CastQuestion(seen, tuple(wands), view["version"])
