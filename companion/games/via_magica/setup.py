"""Setting up: the bag, the shuffled portals, the central row, six portals dealt to each player (who
keep three), seven crystals each, and the first Catcher."""
from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any
from collections.abc import Mapping, Sequence

from companion.errors import MalformedAction, Problem
from companion.games.via_magica import actions
from companion.games.via_magica.portals import load
from companion.games.via_magica.state import State
from companion.games.via_magica.steps import AwaitDeal, AwaitDraw, AwaitKeep

OPTIONS = {"draws": "'companion' (default: Incanto is the Animus bag) or 'table' (the real bag; draws are entered)",
           "deal": "'choose' (default: six portals dealt, each player keeps three) or 'random' (three each, "
                   "the rulebook's first-game variant)",
           "portals": "'companion' (default: Incanto deals the portals) or 'table' (the real cards: the deal and "
                      "each portal turned up are entered)",
           "catcher": "the oldest player, who catches first (default: the first player)"}


def check_options(players: Sequence[str], options: Mapping[str, Any]) -> None:
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise MalformedAction(f"unknown Via Magica option {unknown[0]!r}; options are {', '.join(OPTIONS)}")
    if options.get("draws", "companion") not in ("companion", "table"):
        raise MalformedAction(f"option 'draws' is 'companion' or 'table', not {options['draws']!r}")
    if options.get("portals", "companion") not in ("companion", "table"):
        raise MalformedAction(f"option 'portals' is 'companion' or 'table', not {options['portals']!r}")
    if options.get("deal", "choose") not in ("choose", "random"):
        raise MalformedAction(f"option 'deal' is 'choose' or 'random', not {options['deal']!r}")
    if "catcher" in options and options["catcher"] not in players:
        raise MalformedAction(f"option 'catcher' names a player of {list(players)}, not {options['catcher']!r}")


def empty(players: Sequence[str], options: Mapping[str, Any]) -> State:
    cat = load()
    catcher = list(players).index(options["catcher"]) if "catcher" in options else 0
    return State(
        players=tuple(players), table_draws=options.get("draws") == "table",
        table_portals=options.get("portals") == "table", bag=cat.bag_tokens(), out=(),
        catcher=catcher, token=None, deck=(), row=(), discard=(), hands={p: () for p in players},
        areas={p: () for p in players}, achieved={p: () for p in players}, opening={p: () for p in players},
        crystals={}, stockpiles={p: cat.stockpile for p in players}, gained={p: 0 for p in players}, rewards={},
        placed=frozenset(), queue=(), pending=AwaitDraw(), order=(), phase="play", turn=0, notes=())


def setup(players: Sequence[str], options: Mapping[str, Any], rng: Random) -> State:
    check_options(players, options)
    cat = load()
    state = empty(players, options)
    if state.table_portals:  # the table deals its own cards and says which were laid out and kept
        state.deck, state.phase, state.pending = tuple(cat.portals), "keep", AwaitDeal()
        return state
    deck = list(cat.portals)
    rng.shuffle(deck)
    state.row, deck = tuple(deck[:cat.row_size]), deck[cat.row_size:]
    if options.get("deal") == "random":
        for p in players:
            state.areas[p], deck = tuple(deck[:cat.kept]), deck[cat.kept:]
            _swap_twin(state, p)
            state.crystals.update({portal: frozenset() for portal in state.areas[p]})
    else:
        for p in players:
            state.hands[p], deck = tuple(deck[:cat.dealt]), deck[cat.dealt:]
        state.phase, state.pending = "keep", AwaitKeep(tuple(players))
    state.deck = tuple(deck)
    return state


def _swap_twin(state: State, player: str) -> None:
    """Random deal: a second copy goes to the row for the first row portal that makes no new pair."""
    design = load().design
    area = list(state.areas[player])
    for i, portal in enumerate(area):
        if any(design(q) == design(portal) for q in area[:i]):
            others = {design(q) for q in area}
            swap = next(r for r in state.row if design(r) not in others)
            area[i] = swap
            state.row = tuple(portal if r == swap else r for r in state.row)
    state.areas[player] = tuple(area)


# -- keeping three of the six ----------------------------------------------------------------------

def check_keep(state: State, action: actions.Keep) -> list[Problem]:
    player, kept, swap = action.player, action.portals, action.swap
    if not (isinstance(state.pending, AwaitKeep) and player in state.pending.players):
        return [Problem("keep", f"{player!r} has no dealt portals to keep now", player)]
    problems = _check_swap(state, player, swap) if swap else []
    hand = _hand_after(state, player, swap)
    n = load().kept
    if len(set(kept)) != n:
        problems.append(Problem("keep", f"{player} keeps {n} different portals, not {kept!r}", player))
    problems += [Problem("keep", f"{p!r} is not among {player}'s dealt portals ({', '.join(hand)})", player, p)
                 for p in kept if p not in hand]
    designs = [load().design(p) for p in kept if p in load().portals]
    if len(set(designs)) < len(designs):
        problems.append(Problem("two-copies", f"{player} may play only one copy of a portal: {kept!r}", player))
    return problems


def _check_swap(state: State, player: str, swap: actions.Swap) -> list[Problem]:
    hand, design = state.hands[player], load().design
    give, take = swap.give, swap.take
    if give not in hand or sum(design(p) == design(give) for p in hand) < 2:
        return [Problem("two-copies", f"{player} swaps only a second copy of a portal dealt twice, not {give!r}",
                        player, give)]
    if take not in state.row:
        return [Problem("two-copies", f"{take!r} is not in the central row ({', '.join(state.row)})", player, take)]
    return []


def _hand_after(state: State, player: str, swap: actions.Swap | None) -> tuple[str, ...]:
    hand = state.hands[player]
    return tuple(swap.take if p == swap.give else p for p in hand) if swap else hand


def apply_keep(state: State, action: actions.Keep) -> None:
    player, swap = action.player, action.swap
    hand = _hand_after(state, player, swap)
    if swap:
        state.row = tuple(swap.give if r == swap.take else r for r in state.row)
    state.areas[player] = tuple(action.portals)
    state.crystals.update({p: frozenset() for p in action.portals})
    state.discard = state.discard + tuple(p for p in hand if p not in action.portals)
    state.hands[player] = ()
    pending = state.pending
    assert isinstance(pending, AwaitKeep), "checked: dealt portals are being kept"
    left = tuple(p for p in pending.players if p != player)
    state.note(event="kept", player=player, portals=list(action.portals))
    state.phase, state.pending = ("keep", AwaitKeep(left)) if left else ("play", AwaitDraw())


# -- the table's own cards: the deal as laid out --------------------------------------------------

def unseen_copy(state: State, design: str) -> str | None:
    """A copy of ``design`` the companion has not seen yet (either will do: the two are the same card)."""
    return next((p for p in state.deck if load().design(p) == design), None)


def check_dealt(state: State, action: actions.Dealt) -> list[Problem]:
    if not isinstance(state.pending, AwaitDeal):
        return [Problem("pending", "the deal was entered already", None, "dealt")]
    cat, row, kept = load(), action.row, action.kept
    problems = []
    if sorted(kept) != sorted(state.players):
        problems.append(Problem("dealt", f"the deal names each of {list(state.players)}, not {sorted(kept)}",
                                None, "kept"))
    if len(row) != cat.row_size:
        problems.append(Problem("dealt", f"the central row holds {cat.row_size} portals, not {len(row)}", None, "row"))
    for player, designs in kept.items():
        if len(designs) != cat.kept or len(set(designs)) != len(designs):
            problems.append(Problem("two-copies", f"{player} keeps {cat.kept} different portals, not {designs}",
                                    player, "kept"))
    every = [*row, *(d for ds in kept.values() for d in ds)]
    problems += [Problem("dealt", f"no portal {d!r} in the catalogue (designs like P07)", None, d)
                 for d in dict.fromkeys(every) if d + "a" not in cat.portals]
    problems += [Problem("conservation", f"portal {d} has 2 copies, not {n}", None, d)
                 for d, n in Counter(every).items() if n > 2]
    return problems


def apply_dealt(state: State, action: actions.Dealt) -> None:
    row = [_see(state, d) for d in action.row]
    state.row = tuple(row)
    for player, designs in action.kept.items():
        state.areas[player] = tuple(_see(state, d) for d in designs)
        state.crystals.update({p: frozenset() for p in state.areas[player]})
    state.note(event="dealt", row=list(state.row))
    state.phase, state.pending = "play", AwaitDraw()


def _see(state: State, design: str) -> str:
    portal = unseen_copy(state, design) or ""
    state.deck = tuple(p for p in state.deck if p != portal)
    return portal
