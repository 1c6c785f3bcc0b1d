"""The tower: running a casting's queue, leaving a room, opening the next, and reaching the dungeon."""
from __future__ import annotations

from random import Random
from typing import assert_never

from companion.games.incantibus import dungeon, receiving, spells
from companion.games.incantibus.casting import targets_for
from companion.games.incantibus.state import State
from companion.games.incantibus.steps import (AwaitCast, AwaitReveal, AwaitRoom, AwaitWandDown, Effect, End, GameOver,
                                              Gain, Pending, Spell, Spells, Step, Store, Win, WandsDown)
from companion.games.incantibus.tokens import BOOK, POTION, ROOM, SECRET, VISIBLE, load


def run(state: State, rng: Random) -> None:
    """Resolve queued steps until one waits for the table, then say what the table must do next."""
    while state.queue:
        step, state.queue = state.queue[0], state.queue[1:]
        if not resolve(state, step, rng):
            return
    state.pending = next_pending(state)


def resolve(state: State, step: Step, rng: Random) -> bool:
    """One step; False when it waits for the table."""
    match step:
        case Win():
            return receiving.win(state, step)
        case Gain():
            return receiving.gain(state, step)
        case Store():
            return receiving.store(state, step)
        case Spells():
            return spells_step(state)
        case Spell():
            return spells.await_choice(state, step)
        case Effect():
            return spells.effect(state, step)
        case End():
            return end(state, rng)
        case WandsDown():
            return wands_down(state, step)
        case _:
            assert_never(step)


def next_pending(state: State) -> Pending:
    if state.phase == "over":
        return GameOver()
    if state.table_draws:
        if state.phase == "room" and not state.slots:
            return AwaitRoom()
        unseen = unseen_face_up(state)
        if unseen:
            return AwaitReveal(tuple(unseen))
    return AwaitCast()


def unseen_face_up(state: State) -> list[str]:
    """Places showing a face the table has not entered yet (table draws only)."""
    refs = [f"p{i}" for i, t in enumerate(state.potions) if t is not None and state.kinds[t] is None]
    refs += [f"b{i}" for i, t in enumerate(state.books) if t is not None and state.kinds[t] is None]
    refs += [f"s{i}" for i, t in enumerate(state.sorcerers)
             if t is not None and i in state.face_up and state.kinds[t] is None]
    return refs + [f"c{i}" for i, c in enumerate(state.cards) if c is None]


# -- drawing from the box ------------------------------------------------------------------

def unknown(state: State, pool: str) -> int:
    """Tokens of ``pool`` out of the box whose kind the table has not entered yet."""
    if not state.table_draws:
        return 0
    return sum(1 for t, k in state.kinds.items() if k is None and t[0] == pool)


def draw(state: State, pool: str, rng: Random, hidden: bool) -> str | None:
    """A token out of ``pool``: drawn by the companion, or (table draws) one whose face comes later."""
    if len(state.pools[pool]) - unknown(state, pool) <= 0:
        return None
    if state.table_draws:
        return state.new_token(pool, None, True)
    kinds = state.pools[pool]
    return state.new_token(pool, kinds[rng.randrange(len(kinds))], hidden)


def refill(state: State, rng: Random) -> None:
    """Fill the empty potion (and magic book) spaces: 3 open again, while the supply lasts."""
    state.potions = tuple(t if t is not None else draw(state, POTION, rng, False) for t in state.potions)
    if state.expert:
        state.books = tuple(t if t is not None else draw(state, BOOK, rng, False) for t in state.books)


def lay_out(state: State, room: str, rng: Random) -> None:
    """The companion lays out ``room``: its visible tokens face up, then its secret ones face down."""
    tile = load().rooms[room]
    state.room = room
    slots = [draw(state, VISIBLE, rng, False) for _ in range(tile.visible)]
    slots += [draw(state, SECRET, rng, True) for _ in range(tile.secret)]
    state.slots = tuple(t for t in slots if t is not None)


def open_next_room(state: State, rng: Random) -> None:
    if not state.pools[ROOM]:
        state.phase, state.room, state.slots = "dungeon", None, ()
        state.note(event="dungeon")
        return
    if state.table_draws:
        state.room, state.slots = None, ()  # the table turns the next tile over and enters it
        return
    tiles = state.pools[ROOM]
    room = tiles[rng.randrange(len(tiles))]
    state.pools[ROOM] = tuple(t for i, t in enumerate(tiles) if i != tiles.index(room))
    lay_out(state, room, rng)
    state.note(event="room", room=room)


def turn_next_sorcerer(state: State) -> None:
    for i, t in enumerate(state.sorcerers):
        if t is not None and i not in state.face_up:
            state.face_up = state.face_up | {i}
            if state.kinds[t] is not None:
                state.reveal(t)
            state.note(event="sorcerer_turned", space=f"s{i}", kind=state.kinds[t])
            return


# -- the end of a casting -----------------------------------------------------------------

def leave_room(state: State, rng: Random) -> None:
    left = [t for t in state.slots if t is not None]
    if left:
        receiving.to_moat(state, *left)
        state.note(event="to_moat", token=left[0], kind=None if left[0] in state.secret else state.kinds[left[0]])
    state.slots = ()
    refill(state, rng)
    open_next_room(state, rng)
    turn_next_sorcerer(state)


def end(state: State, rng: Random) -> bool:
    """After every token of the casting is taken and every spell cast: the next casting, room or end."""
    if state.phase == "room":
        if sum(1 for t in state.slots if t is not None) < 2:
            leave_room(state, rng)
        return True
    if not dungeon.sorcerers_left(state):
        game_over(state, "no sorcerers are left in the dungeon")
    elif not dungeon.face_down_left(state):
        stuck = tuple(p for p in state.players if not targets_for(state, p))
        if stuck:
            receiving.push(state, WandsDown(stuck))
    return True


def wands_down(state: State, step: WandsDown) -> bool:
    """Those who can do nothing useful put their wand on the table."""
    waiting = tuple(p for p in step.players if p not in state.wands_down)
    if not waiting:
        game_over(state, f"{', '.join(step.players)} put their wand on the table")
        return True
    receiving.push(state, step)
    state.pending = AwaitWandDown(waiting)
    return False


def game_over(state: State, why: str) -> None:
    state.phase = "over"
    state.note(event="game_over", why=why)


def spells_step(state: State) -> bool:
    """Spell takers cast once every token is taken, strongest wand first."""
    takers = sorted(state.spell_takers, key=lambda p: -state.wands[p])
    state.spell_takers = ()
    receiving.push(state, *[Spell(p) for p in takers])
    return True
