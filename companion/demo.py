"""`python -m companion demo --terminal`: bots play Incantibus in the terminal, each casting told
as it was resolved. (`python -m companion demo` shows the same on the tablet display.)"""
from __future__ import annotations

import argparse
import time
from random import Random
from typing import Any

from companion import games
from companion.engine.game import Game

PLAYERS = ["Lera", "Kirill", "Katya", "Rosa"]


def tell_cast(last: dict[str, Any]) -> list[str]:
    """A casting as the table saw it: who pointed where, who won each contest, the swaps."""
    pointed = ", ".join(f"{p}→{t or 'nothing'}" for p, t in last.get("targets", {}).items())
    lines = [f"casting {last.get('casting')}: {pointed}"]
    for claim in last.get("claims", []):
        claimants = claim["claimants"]
        if len(claimants) > 1:
            swap = " and ".join(claim["swap"]) if claim.get("swap") else "nobody"
            lines.append(f"   {claim['target']} ({claim.get('kind') or 'secret'}) contested by {', '.join(claimants)}:"
                         f" {claim['winner']} wins, swap {swap}")
    for event in last.get("events", []):
        what = event.get("kind") or event.get("token")
        if event["event"] == "escaped":
            lines.append(f"   {what} escaped from {event.get('player', '')}")
        else:
            lines.append(f"   {event.get('player', '')} {event['event'].replace('_', ' ')} {what}")
    return lines


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion demo --terminal", description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--expert", action="store_true")
    parser.add_argument("--pause", type=float, default=0.0, help="seconds between actions")
    args = parser.parse_args(argv)
    rules = games.get("incantibus")
    game = Game.start(rules, PLAYERS, {"expert": args.expert}, seed=args.seed)
    rng = Random(args.seed)
    print(f"{rules.title}: {', '.join(f'{p} (wand {s})' for p, s in game.view()['wands'].items())}")
    while (action := rules.random_action(game.state, rng)) is not None:
        game.propose(action)
        view = game.view()
        if action["type"] == "cast":
            print("\n".join(tell_cast(view["last_cast"])))
        else:
            print(f"   {action.get('player', '')} {action['type']}: "
                  f"{ {k: v for k, v in action.items() if k not in ('type', 'player')} }")
        time.sleep(args.pause)
    view = game.view()
    print("final scores: " + ", ".join(f"{p} {s}" for p, s in view["scores"].items()) + f" — {view.get('winner')} wins")
    return 0
