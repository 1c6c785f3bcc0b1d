"""Writes the golden game scripts (tests/incantibus/golden/*.jsonl) from the rulebook's worked examples.

Run it after changing an example: ``.venv/bin/python tests/incantibus/make_golden.py``. The scripts are
plain table-draws games (every room, face and card entered as the table saw it), played legally from
the setup, so each one also shows how a real game is entered at the tablet.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).with_name("golden")
Line = dict[str, Any]


def setup(players: list[str], deal: dict[str, int], expert: bool = False) -> Line:
    return {"type": "setup", "game": "incantibus", "players": players,
            "options": {"draws": "table", "deal": deal, "expert": expert}, "seed": 1}


def room(visible: list[str], secret: int, name: str | None = None) -> Line:
    line: Line = {"type": "room_entered", "visible": visible, "secret": secret}
    if name:
        line["room"] = name
    return line


def reveal(**faces: str) -> Line:
    return {"type": "reveal", "kinds": faces}


def cast(**targets: str | None) -> Line:
    return {"type": "cast", "targets": targets}


def spell(player: str, card: str, **choice: str) -> Line:
    line: Line = {"type": "spell", "player": player, "card": card}
    if choice:
        line["choice"] = choice
    return line


def opening(roof: list[str], potions: list[str], sorcerer: str, cards: list[str]) -> list[Line]:
    faces = {f"p{i}": p for i, p in enumerate(potions)} | {"s0": sorcerer}
    faces |= {f"c{i}": c for i, c in enumerate(cards)}
    return [room(roof, 0, "roof"), reveal(**faces)]


CARDS = ["FORTUNA", "LOCUS", "RETIRO"]
POTIONS = ["green_1", "blue_1", "green_3"]


def contest() -> list[Line]:
    """Lera (4), Kirill (2) and Katya (1) point at the flying stake, Rosa (3) at the pumpkin."""
    players = ["Lera", "Kirill", "Katya", "Rosa"]
    return [setup(players, {"Lera": 4, "Kirill": 2, "Katya": 1, "Rosa": 3}),
            *opening(["flying_stake", "pumpkin", "mistletoe", "mushroom", "trap", "wand_net", "crystal_ball"],
                     POTIONS, "lady_goblin", CARDS),
            cast(Lera="r0", Kirill="r0", Katya="r0", Rosa="r1")]


def roof_to_bedroom(a: str, b: str) -> list[Line]:
    """Two players empty the roof: ``a`` takes the flying stake, then both take what is left."""
    return [*opening(["flying_stake", "trap", "mistletoe", "mushroom", "wand_net", "pumpkin", "crystal_ball"],
                     POTIONS, "lady_goblin", CARDS),
            cast(**{a: "r0", b: "r5"}), cast(**{a: "r1", b: "r4"}), cast(**{a: "r6", b: "r2"})]


def kirill_vampire() -> list[Line]:
    """Kirill holds the flying stake, points at a secret token in the bedroom: a vampire, caught."""
    return [setup(["Kirill", "Katya"], {"Kirill": 4, "Katya": 1}), *roof_to_bedroom("Kirill", "Katya"),
            room(["gold_2", "mushroom", "spell", "trap"], 3, "bedroom"), reveal(s1="dark_knight"),
            cast(Kirill="r4", Katya="r1"), reveal(r4="vampire")]


def katya_green_potion() -> list[Line]:
    """Katya has mistletoe and mushroom and points at the green potion."""
    return [setup(["Kirill", "Katya"], {"Kirill": 4, "Katya": 1}),
            *opening(["mistletoe", "mushroom", "trap", "wand_net", "pumpkin", "crystal_ball", "flying_stake"],
                     POTIONS, "lady_goblin", CARDS),
            cast(Katya="r0", Kirill="r2"), cast(Katya="r1", Kirill="r3"), cast(Katya="p0", Kirill="r4")]


def katya_35() -> list[Line]:
    """A whole two-player game in which Katya ends with the satchel of the scoring example: the green
    potion (5), a vampire, two werewolves and a ghost (15), 3 + 2 gold (5), two spell tokens (2) and
    the Witch Indigo (8) = 35. Kirill points at nothing when Katya clears a room alone."""
    lines = [setup(["Katya", "Kirill"], {"Katya": 4, "Kirill": 1}),
             *opening(["flying_stake", "trap", "crystal_ball", "mistletoe", "mushroom", "mandrake", "pumpkin"],
                      ["green_1", "blue_1", "green_3"], "baroness_fuchsia", CARDS)]
    # The roof: weapons and ingredients, and the green potion brewed on the way.
    lines += [cast(Katya="r3", Kirill=None), cast(Katya="r4", Kirill=None), cast(Katya="p0", Kirill=None),
              cast(Katya="r0", Kirill=None), cast(Katya="r1", Kirill=None), cast(Katya="r2", Kirill=None),
              cast(Katya="r5", Kirill=None)]
    # The bedroom: the blue potion, gold, a spell (FORTUNA: 3 gold coins), and three monsters.
    lines += [room(["mistletoe", "gold_2", "spell", "werewolf"], 3, "bedroom"), reveal(p0="red_3", s1="dark_knight"),
              cast(Katya="r0", Kirill=None), cast(Katya="p1", Kirill=None), cast(Katya="r1", Kirill=None),
              cast(Katya="r2", Kirill=None), spell("Katya", "FORTUNA"), reveal(c0="IMPERIUM"),
              cast(Katya="r3", Kirill=None), cast(Katya="r4", Kirill=None), reveal(r4="vampire"),
              cast(Katya="r5", Kirill=None), reveal(r5="ghost")]
    # The library: a fourth monster for the purse, a second spell (LOCUS); Kirill takes the rest.
    lines += [room(["werewolf", "spell", "pumpkin", "pumpkin"], 3, "library"), reveal(p1="blue_3", s2="witch_indigo"),
              cast(Katya="r0", Kirill="r2"), cast(Katya="r1", Kirill="r3"), spell("Katya", "LOCUS"),
              reveal(c1="ALKIMIA"), cast(Katya=None, Kirill="r4"), reveal(r4="gold_1"),
              cast(Katya=None, Kirill="r5"), reveal(r5="gold_3")]
    # The kitchen: nothing that scores; a vampire and a ghost escape Kirill.
    lines += [room(["mushroom", "mandrake", "wand_net"], 4, "kitchen"), reveal(s3="lady_goblin"),
              cast(Katya="r0", Kirill="r2"), cast(Katya="r1", Kirill="r3"), reveal(r3="gold_1"),
              cast(Katya=None, Kirill="r4"), reveal(r4="vampire"), cast(Katya=None, Kirill="r5"), reveal(r5="ghost")]
    # The dungeon: Katya defeats the Witch Indigo with her blue potion; the last face-down sorcerer
    # escapes Kirill; then neither can do anything useful and both put their wands down.
    lines += [reveal(s4="lady_goblin"), cast(Katya="s2", Kirill="s5"), reveal(s5="white_lady"),
              {"type": "wand_down", "player": "Katya"}, {"type": "wand_down", "player": "Kirill"}]
    return lines


def to_dungeon(a: str, b: str, sorcerers: dict[str, str], bedroom: tuple[str, str], brew: bool) -> list[Line]:
    """Two players walk the tower to the dungeon, taking turns at the slots; ``a`` takes the roof's
    crystal ball and ``bedroom``'s two tokens (slots r0 and r2); with ``brew`` ``a`` brews the blue
    potion (mistletoe and mandrake) in the bedroom. Monsters without their weapon escape to the moat."""
    lines = [*opening(["crystal_ball", "trap", "mistletoe", "mushroom", "wand_net", "pumpkin", "mandrake"],
                      POTIONS, sorcerers["s0"], CARDS),
             cast(**{a: "r0", b: "r1"}), cast(**{a: "r2", b: "r4"}), cast(**{a: "r3", b: "r5"})]
    lines += [room([bedroom[0], "gold_1", bedroom[1], "werewolf"], 3, "bedroom"), reveal(s1=sorcerers["s1"]),
              cast(**{a: "r0", b: "r1"})]
    if brew:
        lines += [cast(**{a: "p1", b: None})]
    lines += [cast(**{a: "r2", b: "r3"}), cast(**{a: "r4", b: "r5"}), reveal(r4="gold_2", r5="goblin")]
    lines += [room(["goblin", "goblin", "werewolf", "mushroom"], 3, "library"),
              reveal(**({"p1": "red_1"} if brew else {}), s2=sorcerers["s2"]),
              cast(**{a: "r0", b: "r1"}), cast(**{a: "r2", b: "r3"}), cast(**{a: "r4", b: "r5"}),
              reveal(r4="werewolf", r5="gold_3")]
    lines += [room(["pumpkin", "pumpkin", "mandrake"], 4, "kitchen"), reveal(s3=sorcerers["s3"]),
              cast(**{a: "r0", b: "r1"}), cast(**{a: "r2", b: "r3"}), reveal(r3="vampire"),
              cast(**{a: "r4", b: "r5"}), reveal(r4="vampire", r5="goblin")]
    return lines + [reveal(s4=sorcerers["s4"])]


def witch_indigo() -> list[Line]:
    """Kirill and Katya point at the same face-down sorcerer; Katya's wand is stronger: it is the
    Witch Indigo, she discards her blue potion and takes it; then they swap wands."""
    sorcerers = {"s0": "dark_knight", "s1": "baroness_fuchsia", "s2": "lady_goblin", "s3": "archmage",
                 "s4": "lady_goblin"}
    return [setup(["Kirill", "Katya"], {"Kirill": 1, "Katya": 4}),
            *to_dungeon("Katya", "Kirill", sorcerers, ("mandrake", "flying_stake"), brew=True),
            cast(Katya="s5", Kirill="s5"), reveal(s5="witch_indigo")]


def white_lady() -> list[Line]:
    """Lera points at the White Lady, discards a ghost into the moat and takes the sorcerer."""
    sorcerers = {"s0": "white_lady", "s1": "baroness_fuchsia", "s2": "lady_goblin", "s3": "archmage",
                 "s4": "dark_knight"}
    return [setup(["Lera", "Rosa"], {"Lera": 4, "Rosa": 1}),
            *to_dungeon("Lera", "Rosa", sorcerers, ("ghost", "flying_stake"), brew=False),
            cast(Lera="s0", Rosa=None)]


def archmage_escapes() -> list[Line]:
    """Rosa points at a face-down sorcerer: the Archmage; she lacks two spell tokens, so it escapes."""
    sorcerers = {"s0": "white_lady", "s1": "baroness_fuchsia", "s2": "lady_goblin", "s3": "rima_wulf",
                 "s4": "dark_knight"}
    return [setup(["Lera", "Rosa"], {"Lera": 1, "Rosa": 4}),
            *to_dungeon("Rosa", "Lera", sorcerers, ("trap", "flying_stake"), brew=False),
            cast(Rosa="s5", Lera=None), reveal(s5="archmage")]


def final_battle() -> list[Line]:
    """The rulebook's final battle, begun from a position in the dungeon: Kirill and Katya point at the
    same face-down sorcerer, the Witch Indigo, and Katya's stronger wand fights it with a blue potion
    (then they swap wands); Lera takes the White Lady with a ghost; Rosa turns over the Archmage
    without the two spell tokens it needs, and it escapes into the moat."""
    players = ["Lera", "Kirill", "Katya", "Rosa"]
    position = {
        "phase": "dungeon", "wands": {"Lera": 3, "Kirill": 1, "Katya": 4, "Rosa": 2},
        "satchels": {"Lera": ["ghost", "gold_2", "mushroom"], "Kirill": ["trap", "gold_1"],
                     "Katya": ["blue_1", "werewolf", "gold_3", "spell"], "Rosa": ["spell", "pumpkin"]},
        "moat": ["mistletoe", "crystal_ball", "goblin"],
        "potions": ["green_1", None, "red_2"], "cards": ["RETIRO", "LOCUS", "FORTUNA"],
        "sorcerers": ["white_lady", *["face_down"] * 11],
    }
    return [{"type": "setup", "game": "incantibus", "players": players, "options": {"draws": "table"}, "seed": 1,
             "position": position},
            cast(Lera="s0", Kirill="s1", Katya="s1", Rosa="s2"), reveal(s1="witch_indigo", s2="archmage")]


SCRIPTS = {"lera_kirill_katya_rosa": contest, "kirill_vampire": kirill_vampire,
           "katya_green_potion": katya_green_potion, "katya_35_points": katya_35, "witch_indigo": witch_indigo,
           "white_lady": white_lady, "archmage_escapes": archmage_escapes, "final_battle": final_battle}


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, make in SCRIPTS.items():
        text = "\n".join(json.dumps(line) for line in make()) + "\n"
        (GOLDEN / f"{name}.jsonl").write_text(text)


if __name__ == "__main__":
    main()
