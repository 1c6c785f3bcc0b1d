"""Tracked hands (option ``"hands": "tracked"``): every player's element cards, what each payment takes
from the hand, and the regeneration phase.

A card is named by its element and value, ``"feuer1"`` or ``"luft2"``: a 2-element card pays two
elements of its type (rulebook: "Eine 2er-Elementkarte kostet dabei zwei ... Elemente"). A payment the
hand cannot make is refused with the rulebook's sentence for it. A player may name the cards they pay
(``pay``); without them the companion takes the fewest elements that cover the cost, the fewest cards
among those.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from random import Random

from companion.errors import Problem
from companion.games.grimoire.catalogue import load
from companion.games.grimoire.state import Cards, Player, State

MADNESS = "wahnsinn"  # how a madness card is named where a player lists cards of their hand

# The rulebook's words for each payment and limit, quoted in refusals (and by the tablet's confirmation).
RULEBOOK = {
    "banish": "Um einen Fluch zu bannen, muss ein Spieler die vier auf dem Fluch dargestellten Elemente aus der Hand "
              "oder den Unterstützungszonen ablegen.",
    "cast": "Um einen nicht erschöpften Zauber zu wirken, werden zunächst alle Kosten in Form von Elementkarten bezahlt.",
    "learn": "Um ihn zu erhalten, muss der Spieler zwei Elemente vom Typ des Zaubers ablegen.",
    "buy": "Eine 2er-Elementkarte kostet dabei zwei, eine 3er-Elementkarte drei Elemente des entsprechenden Typs.",
    "cure": "Um den eigenen Wahnsinn zu kurieren, muss der Spieler zwei beliebige Elementkarten einsetzen.",
    "reduce": "Beim Reduzieren darf ein Spieler keine Wahnsinnskarten ablegen.",
    "regenerate": "Der Spieler muss seine Handkarten auf sechs Karten durch Ablegen reduzieren oder durch Nachziehen "
                  "erhöhen.",
}


def card(element: str, value: int) -> str:
    return f"{element}{value}"


def parse(name: str) -> tuple[str, int] | None:
    """``"feuer2"`` as (element, value); None for anything that is not an element card of the box."""
    element, value = name[:-1], name[-1:]
    if element not in load().elements or value not in ("1", "2", "3"):
        return None
    return element, int(value)


def elements_of(cards: Iterable[str]) -> Counter[str]:
    """How many elements of each type these cards pay."""
    paid: Counter[str] = Counter()
    for name in cards:
        element, value = parse(name) or ("", 0)
        paid[element] += value
    return paid


def covers(cards: Sequence[str], cost: Mapping[str, int]) -> bool:
    paid = elements_of(cards)
    return all(paid[e] >= n for e, n in cost.items())


def cheapest(hand: Sequence[str], cost: Mapping[str, int]) -> list[str] | None:
    """The cards of ``hand`` that pay ``cost`` with the fewest elements to spare, then the fewest cards;
    None when the hand cannot pay it."""
    chosen: list[str] = []
    for element, need in cost.items():
        mine = sorted(c for c in hand if c[:-1] == element)
        best = min((combo for k in range(1, len(mine) + 1) for combo in set(combinations(mine, k))
                    if sum(int(c[-1]) for c in combo) >= need),
                   key=lambda combo: (sum(int(c[-1]) for c in combo), len(combo), combo), default=None)
        if best is None and need > 0:
            return None
        chosen += list(best or ())
    return chosen


def hand_count(player: Player) -> int:
    """Cards in hand: element cards and madness cards."""
    return len(player.cards.hand if player.cards else ()) + player.madness_hand


def check_pay(state: State, player: str, pay: list[str] | None, cost: Mapping[str, int], rule: str,
              helped: bool = False) -> list[Problem]:
    """Whether ``player``'s hand pays ``cost`` (with ``pay`` if named). ``helped``: the rest comes from
    other players' support zones, which the rulebook does not say how cards reach, so it is not counted."""
    if pay is None and not state.tracked:  # the common case first: nothing to check
        return []
    me = state.player(player)
    if me.cards is None:
        return [] if pay is None else [untracked(player, "pay")]
    hand = me.cards.hand
    if pay is None and helped:  # only the player knows which part the support zones gave
        return [Problem("pay-cards", f"{player} pays partly from support zones: name the cards of the hand that "
                        "paid ('pay': [] for none)", player, "pay")]
    if pay is None:
        return [] if cheapest(hand, cost) is not None else [_short(player, hand, cost, rule)]
    missing = Counter(pay) - Counter(hand)
    if missing:
        return [Problem("pay-cards", f"{player} pays with {sorted(missing.elements())}, which is not in their hand "
                        f"({', '.join(hand) or 'no element cards'})", player, next(iter(missing)))]
    idle = [c for c in pay if cost.get(c[:-1], 0) == 0]
    if idle:
        return [Problem("pay-cards", f"{player}'s {idle[0]!r} pays nothing toward {_cost(cost)}", player, idle[0])]
    if not helped and not covers(pay, cost):
        return [_short(player, pay, cost, rule)]
    return []


def check_cure_pay(state: State, player: str, pay: list[str] | None) -> list[Problem]:
    """Two element cards of any kind ("zwei beliebige Elementkarten")."""
    if pay is None and not state.tracked:
        return []
    me = state.player(player)
    if me.cards is None:
        return [] if pay is None else [untracked(player, "pay")]
    need = load().cure_cost
    hand = me.cards.hand
    if pay is None:
        if len(hand) >= need:
            return []
        return [Problem("cure-pay", f"{player} cannot cure: {RULEBOOK['cure']} (in hand: {', '.join(hand) or 'none'})",
                        player)]
    missing = Counter(pay) - Counter(hand)
    if missing or len(pay) != need:
        return [Problem("cure-pay", f"{player} cannot cure with {pay}: {RULEBOOK['cure']} (in hand: "
                        f"{', '.join(hand) or 'none'})", player)]
    return []


def untracked(player: str, key: str) -> Problem:
    return Problem("hands-untracked", f"this game does not track hands ('hands': 'confirm'): {player} names no cards "
                   f"({key!r})", player, key)


def _short(player: str, cards: Sequence[str], cost: Mapping[str, int], rule: str) -> Problem:
    return Problem(f"{rule}-pay", f"{player} cannot pay {_cost(cost)} with {', '.join(cards) or 'no element cards'}: "
                   f"{RULEBOOK[rule]}", player)


def _cost(cost: Mapping[str, int]) -> str:
    return " + ".join(f"{n} {e}" for e, n in cost.items())


def spend(state: State, player: str, pay: list[str] | None, cost: Mapping[str, int], to_discard: bool = True) -> list[str]:
    """Takes the payment from the hand (onto the discard pile, or out of the game); the cards paid."""
    if not state.tracked:
        return []
    cards = state.player(player).cards
    if cards is None:
        return []
    paid = list(pay) if pay is not None else cheapest(cards.hand, cost) or []
    _take(cards, paid, to_discard)
    return paid


def spend_any(state: State, player: str, pay: list[str] | None, n: int) -> list[str]:
    if not state.tracked:
        return []
    cards = state.player(player).cards
    if cards is None:
        return []
    paid = list(pay) if pay is not None else sorted(cards.hand, key=lambda c: (c[-1], c))[:n]
    _take(cards, paid, True)
    return paid


def _take(cards: Cards, paid: list[str], to_discard: bool) -> None:
    left = Counter(cards.hand) - Counter(paid)
    cards.hand = tuple(sorted(left.elements()))
    if to_discard:
        cards.discard += tuple(paid)


def gain(state: State, player: str, name: str) -> None:
    """A card bought or taken as a reward goes on the discard pile, into the deck at the next shuffle."""
    if not state.tracked:
        return
    cards = state.player(player).cards
    if cards is not None:
        cards.discard += (name,)


# -- setup and regeneration -------------------------------------------------------------------

def deal(state: State, sheets: Mapping[str, str], rng: Random) -> None:
    """Each player's sheet cards shuffled into a deck, then their first hand drawn."""
    cat = load()
    for player in state.players:
        sheet = cat.characters[sheets[player.name]]
        deck = [card(e, 1) for e, n in sheet.cards.items() for _ in range(n)]
        rng.shuffle(deck)
        player.cards = Cards(deck=tuple(sorted(deck)) if state.table_draws else tuple(deck), sheet=sheet.id)
    for player in state.players:
        draw(state, player, cat.opening_hand, rng)


def draw(state: State, player: Player, n: int, rng: Random) -> None:
    """``n`` cards from the deck (the discard pile shuffled into it when it runs out); with table draws
    the table draws them and the player enters them (``cards_drawn``)."""
    cards = player.cards
    assert cards is not None
    n = min(n, len(cards.deck) + len(cards.discard))
    if n <= 0:
        return
    if state.table_draws:
        state.drawing += ((player.name, n),)
        return
    if n > len(cards.deck):
        reshuffled = list(cards.discard)
        rng.shuffle(reshuffled)
        cards.deck, cards.discard = cards.deck + tuple(reshuffled), ()
        state.note(event="shuffled", player=player.name)
    drawn = cards.deck[:n]
    cards.deck, cards.hand = cards.deck[n:], tuple(sorted(cards.hand + drawn))
    state.note(event="drew", player=player.name, cards=list(drawn))


def check_discard(state: State, player: str, discard: list[str] | None) -> list[Problem]:
    """The regeneration phase: a hand over six is reduced by laying down element cards, never madness."""
    if discard is None and not state.tracked:
        return []
    me = state.player(player)
    if me.cards is None:
        return [] if discard is None else [untracked(player, "discard")]
    found = []
    if discard and MADNESS in discard:
        found.append(Problem("reduce-madness", f"{player} cannot lay down a madness card: {RULEBOOK['reduce']}", player,
                             MADNESS))
    given = [c for c in discard or () if c != MADNESS]
    missing = Counter(given) - Counter(me.cards.hand)
    if missing:
        found.append(Problem("reduce-cards", f"{player} lays down {sorted(missing.elements())}, which is not in their "
                             f"hand ({', '.join(me.cards.hand) or 'no element cards'})", player, next(iter(missing))))
    need = to_reduce(me)
    if len(discard or ()) != need and not found:
        found.append(Problem("reduce-count", f"{player} has {hand_count(me)} cards in hand, {me.madness_hand} of them "
                             f"madness: lay down {need} element cards ('discard'), not {len(discard or ())}. "
                             f"{RULEBOOK['regenerate']}", player, str(len(discard or ()))))
    return found


def to_reduce(player: Player) -> int:
    """How many element cards must be laid down to bring the hand to six (madness cards stay)."""
    over = hand_count(player) - load().hand_size
    return max(0, min(over, len(player.cards.hand if player.cards else ())))


def regenerate(state: State, player: Player, discard: list[str] | None, rng: Random) -> None:
    """The hand back to six: the cards named laid down, or cards drawn."""
    cards = player.cards
    if cards is None:
        return
    if discard:
        _take(cards, discard, True)
        state.note(event="reduced", player=player.name, cards=list(discard))
    draw(state, player, load().hand_size - hand_count(player), rng)


def possible(player: Player, n: int) -> list[str]:
    """The cards a draw of ``n`` can still turn up: the deck, and the discard pile once it runs out."""
    cards = player.cards
    assert cards is not None
    return sorted(set(cards.deck if n <= len(cards.deck) else cards.deck + cards.discard))


def left(player: Player, n: int) -> dict[str, int]:
    """How many of each card a draw of ``n`` can still turn up (the picker's counts)."""
    cards = player.cards
    assert cards is not None
    pool = Counter(cards.deck if n <= len(cards.deck) else cards.deck + cards.discard)
    return dict(sorted(pool.items()))
