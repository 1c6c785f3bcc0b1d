"""`python -m companion demo --terminal [--game NAME]`: bots play a game (Incantibus unless told) in the
terminal, each casting told as it was resolved and every other move as it was made. (`python -m companion
demo` shows the same on the tablet display.)"""
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
    parser.add_argument("--game", default="incantibus", choices=games.names(), help="the game the bots play")
    parser.add_argument("--expert", action="store_true", help="Incantibus's expert mode")
    parser.add_argument("--pause", type=float, default=0.0, help="seconds between actions")
    args = parser.parse_args(argv)
    rules = games.get(args.game)
    game = Game.start(rules, PLAYERS, {"expert": True} if args.expert and args.game == "incantibus" else {}, seed=args.seed)
    rng = Random(args.seed)
    wands = game.view().get("wands")
    print(f"{rules.title}: " + (", ".join(f"{p} (wand {s})" for p, s in wands.items()) if wands else ", ".join(PLAYERS)))
    while (action := rules.random_action(game.state, rng)) is not None:
        game.propose(action)
        view = game.view()
        if action["type"] == "cast" and "targets" in action:
            print("\n".join(tell_cast(view["last_cast"])))
        else:
            print(f"   {action.get('player', '')} {action['type']}: "
                  f"{ {k: v for k, v in action.items() if k not in ('type', 'player')} }")
        time.sleep(args.pause)
    view = game.view()
    winners = view.get("winner")
    winners = " and ".join(winners) if isinstance(winners, list) else winners
    print("final scores: " + ", ".join(f"{p} {s}" for p, s in view["scores"].items())
          + (f" — {winners} {'win' if ' and ' in str(winners) else 'wins'}" if winners else " — nobody wins"))
    return 0
