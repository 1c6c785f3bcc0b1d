"""The final battle: what each sorcerer needs, and who must put their wand on the table."""
from __future__ import annotations

from companion.games.incantibus import books
from companion.games.incantibus.state import State
from companion.games.incantibus.tokens import Need, load


def payment(state: State, player: str, sorcerer: str, strength: int) -> tuple[str, ...] | None:
    """The tokens ``player`` (holding wand ``strength`` when they fight) discards to defeat
    ``sorcerer``, or None if they lack them. Magister Ramus asks for no token, only a weak wand."""
    paid: list[str] = []
    for need, n in load().kinds[sorcerer].needs:
        got = _meet(state, player, need, n, strength)
        if got is None:
            return None
        paid += got
    return tuple(paid)


def _meet(state: State, player: str, need: str, n: Need, strength: int) -> tuple[str, ...] | None:
    kinds = load().kinds
    if need == "wand":
        return () if isinstance(n, tuple) and strength in n else None
    if need == "potion_colour":
        potion = next((t for t in state.satchels[player] if kinds[state.kinds[t] or ""].colour == n), None)
        return None if potion is None else (potion,)
    if not isinstance(n, int):
        raise ValueError(f"data/tokens.json: a sorcerer needs a number of {need!r} tokens, not {n!r}")
    if need in kinds:  # a monster kind
        own = [t for t in state.satchels[player] if state.kinds[t] == need]
        return tuple(own[:n]) if len(own) >= n else None
    return books.pay(state, player, need, n)


def describe_needs(sorcerer: str) -> str:
    parts = []
    for need, n in load().kinds[sorcerer].needs:
        if need == "wand":
            parts.append(f"a wand of strength {' or '.join(map(str, n)) if isinstance(n, tuple) else n}")
        elif need == "potion_colour":
            parts.append(f"a {n} potion")
        else:
            parts.append(f"{n} {need.rstrip('s').replace('_', ' ')} token{'s' if n != 1 else ''}")
    return ", ".join(parts)


def face_down_left(state: State) -> bool:
    return any(t is not None and i not in state.face_up for i, t in enumerate(state.sorcerers))


def sorcerers_left(state: State) -> bool:
    return any(t is not None for t in state.sorcerers)
