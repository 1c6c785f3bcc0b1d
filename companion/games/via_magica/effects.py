"""Yellow portals' instant effects that need a choice: where the crystals go, the new layout of the
crystals, or which portal opens too. A portal filled by an effect opens at once (queued in front)."""
from __future__ import annotations

from collections import Counter

from companion.errors import Problem
from companion.games.via_magica import actions, opening
from companion.games.via_magica.crystallize import full_portals, ref, space_problems
from companion.games.via_magica.portals import PortalEffect, load
from companion.games.via_magica.state import State
from companion.games.via_magica.steps import ChooseEffect, OpenPortal

FIELDS = {"place_indicated": "spaces", "place_any": "spaces", "rearrange": "layout", "open_another": "open"}


def portal_choosing(state: State) -> str:
    """The portal whose effect is awaited (the rules ask only then)."""
    pending = state.pending
    if not isinstance(pending, ChooseEffect):
        raise ValueError(f"no portal's effect is awaited now, but {pending.kind!r}")
    return pending.portal


def effect_of(state: State) -> PortalEffect:
    effect = load().portals[portal_choosing(state)].effect
    if effect is None:  # only a portal with an effect to choose queues this step (opening._effect)
        raise ValueError(f"portal {portal_choosing(state)!r} has no effect to choose")
    return effect


def check(state: State, action: actions.Effect) -> list[Problem]:
    player, effect = action.player, effect_of(state)
    kind = effect.kind
    wanted = FIELDS[kind]
    given = {"spaces": action.spaces, "layout": action.layout, "open": action.open}  # each effect takes one
    problems = [Problem("effect", f"the {kind.replace('_', ' ')} effect takes {wanted!r}, not {field!r}", player,
                        portal_choosing(state)) for field, value in given.items() if field != wanted and value not in (None, [])]
    return problems + CHECKS[kind](state, player, action, effect)


def _check_places(state: State, player: str, action: actions.Effect, effect: PortalEffect) -> list[Problem]:
    spaces = action.spaces
    most = min(len(effect.animus) if effect.kind == "place_indicated" else effect.count,
               state.stockpiles[player])
    problems = []
    if len(spaces) > most:
        problems.append(Problem("effect", f"{player} may place {most} crystals with this effect, not {len(spaces)}",
                                player, portal_choosing(state)))
    if len({ref(s) for s in spaces}) < len(spaces):
        problems.append(Problem("effect", "each crystal goes on a different space", player, portal_choosing(state)))
    for space in spaces:
        problems += space_problems(state, player, space, "effect") or _empty(state, player, space)
    if effect.kind == "place_indicated" and not problems:
        problems += _indicated(player, spaces, list(effect.animus), portal_choosing(state))
    return problems


def _empty(state: State, player: str, space: actions.Space) -> list[Problem]:
    if space.space in state.crystals[space.portal]:
        return [Problem("effect", f"space {space.space} of {space.portal} already holds a crystal", player,
                        ref(space))]
    return []


def _indicated(player: str, spaces: list[actions.Space], animus: list[str], portal: str) -> list[Problem]:
    cards = load().portals
    used = Counter(cards[s.portal].spaces[s.space] for s in spaces)
    if used - Counter(animus):
        return [Problem("effect", f"this effect places crystals on {' and '.join(animus)} spaces, not on "
                        f"{', '.join(sorted((used - Counter(animus)).elements()))}", player, portal)]
    return []


def _check_layout(state: State, player: str, action: actions.Effect, effect: PortalEffect) -> list[Problem]:
    layout = action.layout
    if layout is None:
        return [Problem("effect", "a rearrangement gives the new 'layout': {portal: [spaces]}", player, portal_choosing(state))]
    problems = []
    for portal, spaces in layout.items():
        if len(set(spaces)) < len(spaces):
            problems.append(Problem("effect", f"{portal}: a space holds one crystal", player, portal))
        for index in spaces:
            problems += space_problems(state, player, actions.Space(portal=portal, space=index), "effect")
    have = sum(len(state.crystals[p]) for p in state.areas[player])
    given = sum(len(s) for s in layout.values())
    if given != have:
        problems.append(Problem("effect", f"{player} has {have} crystals on portals and rearranges all of them "
                                f"(none back to the stockpile), not {given}", player, portal_choosing(state)))
    return problems


def _check_open(state: State, player: str, action: actions.Effect, effect: PortalEffect) -> list[Problem]:
    other = action.open
    if other not in state.areas[player]:
        return [Problem("effect", f"{player} opens another portal of their crystallization area "
                        f"({', '.join(state.areas[player])}), not {other!r}", player, other)]
    return []


CHECKS = {"place_indicated": _check_places, "place_any": _check_places, "rearrange": _check_layout,
          "open_another": _check_open}


def apply(state: State, action: actions.Effect) -> None:
    player, effect = action.player, effect_of(state)
    kind = effect.kind
    state.note(event="effect", player=player, portal=portal_choosing(state), effect=kind)
    if kind == "open_another":
        assert action.open is not None, "checked: a portal of the player's area"
        opening.push_front(state, OpenPortal(player, action.open))
        return
    if kind == "rearrange":
        for portal in state.areas[player]:
            state.crystals[portal] = frozenset((action.layout or {}).get(portal, ()))
    for space in action.spaces:
        state.stockpiles[player] -= 1
        state.crystals[space.portal] = state.crystals[space.portal] | {space.space}
    opening.push_front(state, *(OpenPortal(player, p) for p in full_portals(state, player)))
