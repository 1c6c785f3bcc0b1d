"""The Casting: every player's target at once, contests to the strongest wand, then the swap.

Targets are named by the place of the physical token on the table, so the camera can map them:
``r3`` room slot 3, ``p1`` potion space 1, ``b0`` magic book space 0, ``s4`` sorcerer space 4.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from companion.errors import Problem
from companion.games.incantibus import actions, books, dungeon, potions
from companion.games.incantibus.state import Casting, Contest, State
from companion.games.incantibus.steps import End, Spells, Win
from companion.games.incantibus.tokens import load

PLACES = {"r": "slots", "p": "potions", "b": "books", "s": "sorcerers"}
PLACE_NAMES = {"r": "room", "p": "potion", "b": "book", "s": "sorcerer"}


def token_at(state: State, ref: str) -> str | None:
    """The token id at place ``ref`` (``r2``, ``p0``...), or None if there is no such token."""
    if not isinstance(ref, str) or ref[:1] not in PLACES or not ref[1:].isdigit():
        return None
    spaces = getattr(state, PLACES[ref[0]])
    i = int(ref[1:])
    return spaces[i] if i < len(spaces) else None


def targets_for(state: State, player: str) -> list[str]:
    """Every place ``player`` may point at now (the rulebook's 'you may point your wand at')."""
    out: list[str] = []
    if state.phase == "room":
        out += [f"r{i}" for i, t in enumerate(state.slots) if t is not None]
    else:
        strength = state.wands[player]
        for i, t in enumerate(state.sorcerers):
            if t is not None and (i not in state.face_up or
                                  dungeon.payment(state, player, state.kinds[t] or "", strength) is not None):
                out.append(f"s{i}")
    ingredients = [k for t in state.satchels[player] if (k := state.kinds[t]) in potions.INGREDIENTS]
    if len(ingredients) >= potions.SHORTEST_RECIPE:  # most satchels cannot brew anything: skip early
        have = Counter(ingredients)
        out += [f"p{i}" for i, t in enumerate(state.potions)
                if t is not None and potions.can_brew(have, state.kinds[t] or "")]
    out += [f"b{i}" for i, t in enumerate(state.books)
            if t is not None and books.payment(state, player, state.kinds[t] or "") is not None]
    return out


def problem(state: State, player: str, ref: str) -> Problem | None:
    """Why ``player`` may not point at ``ref``, or None if they may."""
    token = token_at(state, ref)
    if token is None:
        return Problem("cast-target", f"{player} points at {ref!r}, where there is no token to take", player, _s(ref))
    place = PLACE_NAMES[ref[0]]
    kind = state.kinds[token] or ""
    if place == "room" and state.phase != "room":
        return Problem("cast-target", f"{player} points at room slot {ref!r} but the table is in the dungeon", player, ref)
    if place == "sorcerer":
        return _sorcerer_problem(state, player, ref, kind)
    if place == "potion" and potions.payment(state, player, kind) is None:
        lacking = ", ".join(potions.missing(state, player, kind))
        return Problem("potion-ingredients", f"{player} lacks {lacking} for the {load().kinds[kind].colour} "
                       f"potion at {ref!r}", player, ref)
    if place == "book" and books.payment(state, player, kind) is None:
        ((need, n),) = load().kinds[kind].condition
        return Problem("book-condition", f"{player} lacks {n} {need.replace('_', ' ')} for the magic book at "
                       f"{ref!r}", player, ref)
    return None


def _sorcerer_problem(state: State, player: str, ref: str, kind: str) -> Problem | None:
    if state.phase != "dungeon":
        return Problem("cast-target", f"{player} points at sorcerer {ref!r}, but sorcerers are fought only in "
                       "the dungeon", player, ref)
    if int(ref[1:]) not in state.face_up:
        return None  # face down: anyone may try; it escapes if they lack what it needs
    strength = state.wands[player]
    if dungeon.payment(state, player, kind, strength) is not None:
        return None
    name = kind.replace("_", " ").title()
    if any(need == "wand" for need, _ in load().kinds[kind].needs):
        return Problem("ramus-wand", f"{name} at {ref!r} is defeated only with {dungeon.describe_needs(kind)}; "
                       f"{player} holds wand {strength}", player, ref)
    return Problem("sorcerer-weakness", f"{player} lacks {dungeon.describe_needs(kind)} to defeat {name} at "
                   f"{ref!r}", player, ref)


def price(state: State, player: str, kind: str, strength: int) -> tuple[str, ...] | None:
    """The tokens the companion would discard for a potion, magic book or sorcerer of ``kind``."""
    category = load().kinds[kind].category
    if category == "potion":
        return potions.payment(state, player, kind)
    if category == "book":
        return books.payment(state, player, kind)
    return dungeon.payment(state, player, kind, strength)


def pay_problem(state: State, player: str, ref: str, tokens: list[str]) -> Problem | None:
    """Why ``tokens`` (the player's own choice of what to discard) cannot pay for ``ref``."""
    token = token_at(state, ref)
    if token is None or ref[0] == "r" or (ref[0] == "s" and int(ref[1:]) not in state.face_up):
        return Problem("pay", f"{player} chooses what to pay only for a potion, magic book or face-up sorcerer, "
                       f"not {ref!r}", player, _s(ref))
    mine = state.satchels[player]
    if (not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens) or len(set(tokens)) != len(tokens)
            or not set(tokens) <= set(mine)):
        return Problem("pay", f"{tokens!r} are not tokens in {player}'s satchel", player, ref)
    trial = state.copy()
    trial.satchels[player] = tuple(tokens)
    paid = price(trial, player, state.kinds[token] or "", state.wands[player])
    if paid is None or len(paid) != len(tokens):
        return Problem("pay", f"{player} cannot pay for {ref!r} with exactly "
                       f"{[state.kinds[t] for t in tokens]!r}", player, ref)
    return None


def _s(ref: object) -> str:
    return ref if isinstance(ref, str) else repr(ref)


def check(state: State, action: actions.Cast) -> list[Problem]:
    targets = action.targets
    if not isinstance(targets, dict):
        return [Problem("cast-shape", f"a cast needs 'targets': {{player: token id or null}}, not {targets!r}")]
    found = [Problem("cast-player", f"{name!r} is not playing", str(name)) for name in targets if name not in state.players]
    found += [Problem("cast-everyone", f"{p}'s target is missing (give null for no target)", p)
              for p in state.players if p not in targets]
    for player, ref in targets.items():
        if player in state.players and ref is not None:
            found += [p for p in [problem(state, player, ref)] if p is not None]
    return found + _pay_problems(state, targets, action.pay)


def _pay_problems(state: State, targets: Mapping[str, str | None], pay: Mapping[str, list[str]]) -> list[Problem]:
    if not isinstance(pay, dict):
        return [Problem("pay", f"'pay' is {{player: [token ids]}}, not {pay!r}")]
    found = []
    for player, tokens in pay.items():
        ref = targets.get(player)
        if player not in state.players or ref is None:
            found.append(Problem("pay", f"{player!r} points at nothing, so has nothing to pay for", _s(player)))
        elif (p := pay_problem(state, player, ref, tokens)) is not None:
            found.append(p)
    return found


def claims(state: State, targets: dict[str, str | None]) -> dict[str, list[str]]:
    """Target -> its claimants, strongest wand first."""
    out: dict[str, list[str]] = {}
    for player in state.players:
        ref = targets.get(player)
        if ref is not None:
            out.setdefault(ref, []).append(player)
    for claimants in out.values():
        claimants.sort(key=lambda p: -state.wands[p])
    return out


def resolve(state: State, targets: dict[str, str | None], pay: dict[str, list[str]] | None = None) -> None:
    """Decide every contest, swap wands, and queue what each winner receives (in seat order).
    ``pay``: what a player chose to discard for a potion, book or face-up sorcerer (default: the cheapest)."""
    before = dict(state.wands)
    record: list[Contest] = []
    wins: list[tuple[str, str]] = []
    for ref, claimants in claims(state, targets).items():
        winner, weakest = claimants[0], claimants[-1]
        swap = (winner, weakest) if len(claimants) > 1 else None
        if swap:
            state.wands[winner], state.wands[weakest] = before[weakest], before[winner]
        token = token_at(state, ref) or ""
        seen = None if token in state.secret else state.kinds[token]  # a secret face shows in the events
        record.append(Contest(ref, seen, tuple(claimants), winner, swap))
        wins.append((winner, ref))
    wins.sort(key=lambda w: state.players.index(w[0]))
    state.casting += 1
    state.last_cast = Casting(state.casting, state.phase, dict(targets), before, tuple(record))
    state.notes = ()
    pay = pay or {}
    state.queue = (*(Win(p, ref, before[p], tuple(pay[p]) if p in pay else None) for p, ref in wins), Spells(), End())
