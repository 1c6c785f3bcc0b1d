"""Buying cards from the market, with the crystal rule: for each card bought that has no crystal on
it, one of the witch's crystals goes on a card she does not buy; she takes the cards bought and every
crystal on them; the market is refilled at once."""
from __future__ import annotations

from random import Random

from companion.errors import Problem
from companion.games.witchcraft import actions, market
from companion.games.witchcraft.cards import INGREDIENT, JOKER, SPELL, card, load
from companion.games.witchcraft.cauldron import gain
from companion.games.witchcraft.state import State


# Cards bought together are taken in this order: a spell first (it takes what fits from the inventory),
# then the ingredients, and jokers last, so a joker never takes the place a real ingredient could fill.
GAIN_ORDER = {SPELL: 0, INGREDIENT: 1, JOKER: 2}


def due(state: State, spaces: list[int], raccoon: bool) -> int:
    """Crystals to pay: one per card with no crystal on it (the Raccoon takes one off for exactly 3)."""
    unpaid = sum(1 for s in spaces if state.on_market[s] == 0)
    return max(0, unpaid - 1) if raccoon and len(spaces) == 3 else unpaid


def check_shape(state: State, witch: str, spaces: list[int], familiar: str | None) -> list[Problem]:
    """How many cards, and whether they are adjacent in a line (the Bat: anywhere; the Squirrel: 4)."""
    most = 4 if familiar == "squirrel" else load().max_buy
    target = ",".join(map(str, spaces))
    problems = []
    if len(set(spaces)) != len(spaces):
        problems.append(Problem("buy", "each market space is bought once", witch, target))
    if not 1 <= len(spaces) <= most:
        problems.append(Problem("buy", f"{witch} buys 1 to {most} cards, not {len(spaces)}", witch, target))
    if familiar == "raccoon" and len(spaces) != 3:
        problems.append(Problem("raccoon", "the Raccoon's discount is for exactly 3 cards", witch, target))
    problems += [Problem("buy", f"market space {s} is empty", witch, str(s)) for s in spaces if state.market[s] is None]
    if problems or "bat" in state.familiars[witch]:
        return problems
    adjacent = market.connected(spaces) if familiar == "squirrel" and len(spaces) == 4 else market.in_a_line(spaces)
    if not adjacent:
        problems.append(Problem("adjacent", f"spaces {spaces} are not adjacent in one row or column "
                                "(only the Bat buys cards apart)", witch, target))
    return problems


def nowhere_to_pay(state: State, spaces: list[int]) -> bool:
    """No other card lies in the market to take the crystals (a gap: they go to the supply)."""
    return not any(state.market[s] is not None for s in market.SPACES if s not in spaces)


def check_payment(state: State, witch: str, spaces: list[int], pay: list[int], owed: int,
                  crystals: int) -> list[Problem]:
    target = ",".join(map(str, pay)) or None
    problems = []
    if owed and nowhere_to_pay(state, spaces):
        if pay:
            problems.append(Problem("crystals", "no other card lies in the market: the crystals go to the supply",
                                    witch, target))
    elif len(pay) != owed:
        problems.append(Problem("crystals", f"{witch} places {owed} crystals (one per card bought with none on it), "
                                f"not {len(pay)}", witch, target))
    if owed > crystals:
        problems.append(Problem("crystals", f"{witch} has {crystals} crystals and must place {owed}", witch, target))
    problems += [Problem("crystals", f"a crystal goes on a card {witch} does not buy, not on space {s}", witch, str(s))
                 for s in pay if s in spaces or state.market[s] is None]
    return problems


def check(state: State, action: actions.Buy) -> list[Problem]:
    witch, spaces, pay, familiar = action.witch, action.cards, action.pay, action.familiar
    problems = []
    if familiar and familiar not in state.familiars[witch]:
        problems.append(Problem("familiar", f"{witch} has no {familiar}", witch, familiar))
    if familiar and state.raven:
        problems.append(Problem("familiar", "the Raven's buy is an ordinary buy", witch, familiar))
    if state.raven and not spaces:
        return problems + check_payment(state, witch, [], pay, 0, 0)  # the Raven's buy let pass
    problems += check_shape(state, witch, spaces, familiar)
    if problems:
        return problems
    owed = due(state, spaces, familiar == "raccoon")
    return check_payment(state, witch, spaces, pay, owed, state.crystals[witch]) or \
        check_choices(state, witch, spaces, pay, owed, action.assign or {})


def check_choices(state: State, witch: str, spaces: list[int], pay: list[int], owed: int,
                  chosen: dict[str, str]) -> list[Problem]:
    """Each chosen spell must be one the bought ingredient fits when it arrives (tried on a copy)."""
    if not chosen:
        return []
    problems = [Problem("assign", f"market space {s} is not bought", witch, s) for s in chosen if int(s) not in spaces]
    if problems:
        return problems
    went = buy(state.copy(), witch, spaces, pay, Random(0), owed, chosen)
    return [Problem("assign", f"{state.market[int(s)]} does not fit {spell} when it arrives", witch, spell)
            for s, spell in chosen.items() if went.get(state.market[int(s)] or "") != spell]


def buy(state: State, witch: str, spaces: list[int], pay: list[int], rng: Random, owed: int,
        chosen: dict[str, str] | None = None) -> dict[str, str | None]:
    """Pay, take the cards and their crystals, refill, and assign (``chosen``: market space -> spell the
    witch wants that ingredient on). Returns where each card went (card -> spell or None)."""
    wanted = {state.market[int(s)]: spell for s, spell in (chosen or {}).items()}
    if owed and not pay:
        state.crystals[witch] -= owed
        state.supply += owed
    on = list(state.on_market)
    for s in pay:
        on[s] += 1
    state.on_market = tuple(on)
    state.crystals[witch] -= len(pay)
    cards, crystals = market.take(state, spaces)
    state.crystals[witch] += crystals
    state.note(event="bought", player=witch, cards=cards, crystals=crystals, paid=len(pay))
    market.refill(state, rng)
    return {cid: gain(state, witch, cid, wanted.get(cid)) for cid in sorted(cards, key=lambda c: GAIN_ORDER[card(c).category])}


def check_cat(state: State, witch: str, cat: actions.CatBuy, crystals_after: int, cat_owned: bool) -> list[Problem]:
    """The Cat's extra: one ingredient (or joker) from anywhere in the market, 1 crystal if it has none."""
    space, pay = cat.card, cat.pay
    if not cat_owned:
        return [Problem("cat", f"{witch} has no Cat to buy an extra ingredient", witch, str(space))]
    cid = state.market[space]
    if cid is None or card(cid).category not in (INGREDIENT, JOKER):
        return [Problem("cat", f"the Cat buys an ingredient, not market space {space} ({cid})", witch, str(space))]
    owed = due(state, [space], False)
    return check_payment(state, witch, [space], [] if pay is None else [pay], owed, crystals_after)
