"""What the table enters when it draws (option ``"draws": "table"``): a room's layout, and faces.

``{"type": "room_entered", "room": "bedroom", "visible": ["pumpkin", ...], "secret": 3}`` lays out the
room the table turned over (``room`` may be left out: the companion then takes the first remaining tile
with those counts). ``{"type": "reveal", "kinds": {"r4": "vampire", "p1": "green_1", "c2": "RETIRO"}}``
(or ``{"type": "reveal", "token_id": "r4", "kind": "vampire"}``) enters faces the companion is waiting
for: a secret token being taken or looked at, a refilled potion or book, a sorcerer turned face up, a
spell card opened, a token taken back from the moat.
"""
from __future__ import annotations

from collections import Counter

from companion.errors import Problem
from companion.games.incantibus import actions
from companion.games.incantibus.casting import token_at
from companion.games.incantibus.state import State, remove_one
from companion.games.incantibus.steps import AwaitReveal, AwaitRoom
from companion.games.incantibus.tokens import CARD, ROOM, SECRET, VISIBLE, load


def check_room(state: State, action: actions.RoomEntered) -> list[Problem]:
    if not isinstance(state.pending, AwaitRoom):
        return [Problem("pending", "no room is waiting to be laid out", None, _s(action.room))]
    visible, secret, room = action.visible, action.secret, action.room
    if (not isinstance(visible, list) or not all(isinstance(k, str) for k in visible) or not isinstance(secret, int)
            or isinstance(secret, bool) or secret < 0):
        return [Problem("room-shape", f"a room needs 'visible' (a list of kinds) and 'secret' (a count), not "
                        f"{visible!r} and {secret!r}")]
    if not visible and not secret:
        return [Problem("room-shape", "a room is laid out with at least one token")]
    found = _room_tile_problems(state, room, len(visible), secret)
    found += _supply_problems(state, VISIBLE, Counter(visible), "visible")
    free = len(state.pools[SECRET]) - _unknown(state, SECRET)
    if secret > free:
        found.append(Problem("room-supply", f"only {free} secret tokens are left in the box, not {secret!r}"))
    return found


def _room_tile_problems(state: State, room: str | None, visible: int, secret: int) -> list[Problem]:
    if room is None:
        return []
    if state.room is not None and room != state.room:
        return [Problem("room-tile", f"the room to lay out is {state.room!r}, not {room!r}", None, _s(room))]
    if not isinstance(room, str) or (state.room is None and room not in state.pools[ROOM]):
        return [Problem("room-tile", f"{room!r} is not a room tile left in the tower "
                        f"({', '.join(state.pools[ROOM])})", None, _s(room))]
    tile = load().rooms[room]
    if (tile.visible, tile.secret) != (visible, secret):
        return [Problem("room-tile", f"the {room} tile shows {tile.visible} visible and {tile.secret} secret "
                        f"tokens in data/tokens.json, not {visible!r} and {secret!r}", None, room)]
    return []


def _supply_problems(state: State, pool: str, wanted: Counter[str], what: str) -> list[Problem]:
    have = Counter(state.pools[pool])
    return [Problem(f"{what}-supply", f"{n} {kind!r} tokens are entered but the box has only {have[kind]} {what} "
                    f"{kind!r} tokens left (data/tokens.json)", None, str(kind))
            for kind, n in wanted.items() if n > have[kind]]


def apply_room(state: State, action: actions.RoomEntered) -> None:
    room = action.room or state.room or _tile_for(state, len(action.visible), action.secret)
    if room != "roof":
        state.pools[ROOM] = remove_one(state.pools[ROOM], room)
    state.room = room
    slots = [state.new_token(VISIBLE, kind, False) for kind in action.visible]
    slots += [state.new_token(SECRET, None, True) for _ in range(action.secret)]
    state.slots = tuple(slots)
    state.note(event="room", room=room)


def _tile_for(state: State, visible: int, secret: int) -> str:
    tiles = load().rooms
    same = [r for r in state.pools[ROOM] if (tiles[r].visible, tiles[r].secret) == (visible, secret)]
    return (same or list(state.pools[ROOM]))[0]


def entries(action: actions.Reveal) -> dict[str, str] | None:
    """The faces an action enters, ``{place or id: kind}``; None when it enters none."""
    if "kinds" in action.model_fields_set:  # given, even as null (then it enters none)
        return action.kinds
    if action.token_id is not None and action.kind is not None:
        return {action.token_id: action.kind}
    return None


def check_reveal(state: State, action: actions.Reveal) -> list[Problem]:
    faces = entries(action)
    if not isinstance(state.pending, AwaitReveal):
        return [Problem("pending", "no face is waiting to be entered")]
    if not faces:
        return [Problem("reveal-shape", f"a reveal needs 'kinds': {{place: kind}}, not {action.payload()!r}")]
    found: list[Problem] = []
    taken: Counter[tuple[str, str]] = Counter()
    for ref, kind in faces.items():
        problem = _face_problem(state, state.pending.refs, ref, kind, taken)
        if problem:
            found.append(problem)
    return found


def _face_problem(state: State, waiting: tuple[str, ...], ref: str, kind: str,
                  taken: Counter[tuple[str, str]]) -> Problem | None:
    if ref not in waiting:
        return Problem("reveal-target", f"{ref!r} is not waiting for its face (waiting: {list(waiting)})",
                       None, _s(ref))
    pool = pool_of(state, ref)
    taken[(pool, kind)] += 1
    if state.pools[pool].count(kind) < taken[(pool, kind)]:
        return Problem("reveal-kind", f"{kind!r} cannot be at {ref!r}: no such token is left unseen "
                       f"(data/tokens.json)", None, ref)
    return None


def pool_of(state: State, ref: str) -> str:
    if ref.startswith("c"):
        return CARD
    return (token_at(state, ref) or ref)[0]


def apply_reveal(state: State, action: actions.Reveal) -> None:
    for ref, kind in (entries(action) or {}).items():
        if ref.startswith("c"):
            i = int(ref[1:])
            state.cards = state.cards[:i] + (kind,) + state.cards[i + 1:]
            state.pools[CARD] = remove_one(state.pools[CARD], kind)
            continue
        token = token_at(state, ref) or ref
        state.kinds[token] = kind
        state.pools[token[0]] = remove_one(state.pools[token[0]], kind)
        if _face_up(state, ref):
            state.reveal(token)


def _face_up(state: State, ref: str) -> bool:
    return ref[0] in "pb" or (ref[0] == "s" and int(ref[1:]) in state.face_up)


def _unknown(state: State, pool: str) -> int:
    return sum(1 for t, k in state.kinds.items() if k is None and t[0] == pool)


def _s(value: object) -> str | None:
    return None if value is None else value if isinstance(value, str) else repr(value)
