"""Where each place and each seat of a game lies on the table, from taps on the camera image.

Taps are place name -> pixel [x, y] of the camera image (``r3``, ``p0``, ``seat1``...); each pixel's
ray meets the table plane at the place. The result is a places file (``vision.places.TablePlaces``,
the one model every reader of places shares), one per game, which the table side reads with
``--places`` and vision with a recording:

    {"schema": 1, "game": "incantibus", "places": {"r0": {"x_mm": 455.2, "y_mm": 375.0, "radius_mm": 15.0}, ...},
     "seats": [[500.0, 0.0], ...]}

The layout step also writes the places into the profile, where vision reads them.

A game's place names, and how the guided flow describes each one, are in ``data/games/GAME.json``.
"""
from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import ValidationError

from calibration.model import CalibrationError
from calibration.token_snap import Snap, ToPixels, snap_tap
from companion.games.boards import standard_board
from companion.words.said import Said
from vision.json_file import read_json
from vision.places import TablePlaces
from vision.profile import ProfileError, describe_errors, load_places

GAMES = Path(__file__).parent / "data" / "games"
SEAT = "seat"
MIN_BOARD_TAPS = 3
BOARD_FIT_MM = 15.0  # a tap within a token's radius of its place fits; one on the neighbour does not
BOARD_MATCH_MM = 25.0  # every place tapped by hand: each within this of where the board puts it
BOARD_SCALE = (0.8, 1.25)  # the board as printed; the table seen from a camera a little off its height
# Places closer than this many token diameters would put two tokens on top of each other. Not more: a
# finger's tap lands up to about 10 mm off a token's centre, and the sorcerer track's tokens lie 38 mm apart.
APART = 0.4

# (N, 2) pixels -> (N, 2) table mm (NaN where a ray misses the table)
ToTable = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class GamePlaces:
    """The places of one game that the camera must know, each with the words that describe it."""

    game: str
    places: dict[str, str]
    seats: list[str]
    token_radius_mm: float
    board_mm: dict[str, tuple[float, float]]  # where the board puts each place when laid out as shown

    @property
    def names(self) -> list[str]:
        """Every tap name, in the order the guided flow asks for them."""
        return [*self.places, *(f"{SEAT}{i}" for i in range(len(self.seats)))]

    def describe(self, name: str) -> str:
        if name.startswith(SEAT) and name[len(SEAT):].isdigit():
            return self.seats[int(name[len(SEAT):])]
        return self.places[name]


def known_games() -> list[str]:
    return sorted(p.stem for p in GAMES.glob("*.json"))


def game_places(game: str) -> GamePlaces:
    path = GAMES / f"{game}.json"
    if not path.is_file():
        raise CalibrationError(f"no place list for game {game!r}; known games: {known_games()!r}")
    data = json.loads(path.read_text())
    board = standard_board(game)  # where the places lie is the game's own data; here only their words
    if board is None:
        raise CalibrationError(f"game {game!r} has no standard board (its data/board.json) to size its tokens by")
    return GamePlaces(game, dict(data["places"]), list(data["seats"]), board.token_radius_mm, dict(board.places))


def read_taps(path: Path) -> dict[str, Any]:
    data = read_json(path, "taps file", CalibrationError)
    if not isinstance(data, dict):
        raise CalibrationError(f"taps file {str(path)!r} must map place names to pixels [x, y], not {data!r:.60}")
    return data


def check_taps(taps: Mapping[str, Any], game: GamePlaces, size: tuple[int, int],
               every_place: bool = True) -> dict[str, tuple[float, float]]:
    """The taps as pixels, or CalibrationError listing every problem: unknown or (with ``every_place``)
    missing names, and values that are not a pixel of the ``size`` = (width, height) image."""
    allowed = game.names
    problems: list[Said] = [Said("calibration.refused.tap_unknown", "{name} is not a place of {game} (allowed: {allowed})",
                                 name=repr(name), game=game.game, allowed=", ".join(allowed))
                            for name in taps if name not in allowed]
    missing = [name for name in allowed if name not in taps and not name.startswith(SEAT) and every_place]
    if missing:
        problems.append(Said("calibration.refused.taps_missing", "not tapped yet: {names}", names=", ".join(missing)))
    seats = sorted(int(n[len(SEAT):]) for n in taps if n in allowed and n.startswith(SEAT))
    if seats and seats != list(range(len(game.seats))):
        problems.append(Said("calibration.refused.seats_some", "tap every seat or none: seats tapped {seats} of {every}",
                             seats=repr(seats), every=len(game.seats)))
    pixels = {}
    for name, value in taps.items():
        pixel = _pixel(value, size)
        if pixel is None:
            problems.append(Said("calibration.refused.tap_not_pixel", "{name}: {value} is not a pixel [x, y] of the "
                                 "{width}x{height} camera image", name=repr(name), value=f"{value!r:.40}",
                                 width=size[0], height=size[1]))
        elif name in allowed:
            pixels[name] = pixel
    if problems:
        raise CalibrationError(_every(problems))
    return pixels


def _every(problems: list[Said]) -> Said:
    """Every problem in one sentence, each said in the tablet's language: ``first; second; ...``."""
    said = problems[-1]
    for problem in reversed(problems[:-1]):
        said = Said("calibration.refused.and", "{first}; {rest}", first=problem, rest=said)
    return said


def _pixel(value: Any, size: tuple[int, int]) -> tuple[float, float] | None:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        return None
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value):
        return None
    x, y = float(value[0]), float(value[1])
    return (x, y) if 0 <= x < size[0] and 0 <= y < size[1] else None


def from_board(tapped: Mapping[str, tuple[float, float]], game: GamePlaces) -> dict[str, tuple[float, float]]:
    """Every place of the board from a few tapped ones (table mm): the board's own layout turned,
    shifted and scaled onto the taps (least squares). Refused when fewer than three places of the board
    were tapped, or when the taps do not fit one board (a tap on the wrong place)."""
    known = [n for n in tapped if n in game.board_mm]
    if len(known) < MIN_BOARD_TAPS:
        raise CalibrationError(Said("calibration.refused.board_taps_few", "tap at least {least} places far apart (e.g. "
                                    "r0, r8 and s0) before placing the rest from the board; tapped so far: {tapped}",
                                    least=MIN_BOARD_TAPS, tapped=repr(known)))
    place, worst, off = _fit_board(known, np.array([tapped[n] for n in known]), game)
    if off > BOARD_FIT_MM:
        raise CalibrationError(Said("calibration.refused.board_tap_off", "{place} is {mm} mm from where the board puts "
                                    "it given the other taps: tap it again, or tap every place by hand if the board is "
                                    "laid out differently", place=worst, mm=f"{off:.0f}"))
    return {n: (float(x), float(y)) for n, (x, y) in zip(game.board_mm, place(np.array(list(game.board_mm.values()))))
            if n not in tapped}


def _check_scale(scale: float, game: GamePlaces) -> None:
    if not (math.isfinite(scale) and BOARD_SCALE[0] <= scale <= BOARD_SCALE[1]):
        raise CalibrationError(Said("calibration.refused.board_scale", "the taps lay {game}'s board out at {scale} of "
                                    "its size: tap each place on its own token, far apart ones first",
                                    game=game.game, scale=f"{scale:.0%}"))


def plausible(places: Mapping[str, tuple[float, float]], game: GamePlaces) -> None:
    """Refuse, in words, places no board has: two tokens on top of each other, or (every place of the
    board tapped) a layout that is not the game's board turned, moved and seen at about its size."""
    names = list(places)
    if len(names) >= 2:
        points = np.array([places[n] for n in names])
        apart = np.hypot(*(points[:, None, :] - points[None, :, :]).transpose(2, 0, 1))
        apart[np.diag_indices(len(names))] = np.inf
        i, j = np.unravel_index(int(np.argmin(apart)), apart.shape)
        if apart[i, j] < APART * 2 * game.token_radius_mm:
            raise CalibrationError(Said("calibration.refused.places_too_close", "places {first} and {second} are {mm} mm "
                                        "apart, but a token is {across} mm across: tap each place on its own token",
                                        first=names[i], second=names[j], mm=f"{apart[i, j]:.0f}",
                                        across=f"{2 * game.token_radius_mm:.0f}"))
    known = [n for n in names if n in game.board_mm]
    if len(known) < len(game.board_mm):
        return  # the rest is placed from the board, which checks its own fit
    _, worst, off = _fit_board(known, np.array([places[n] for n in known]), game)
    if off > BOARD_MATCH_MM:
        raise CalibrationError(Said("calibration.refused.place_off_board", "{place} is {mm} mm from where {game}'s "
                                    "board puts it given the other places: tap it again on its own token",
                                    place=worst, mm=f"{off:.0f}", game=game.game))


def _fit_board(names: list[str], points: np.ndarray, game: GamePlaces) -> tuple[Callable[[np.ndarray], np.ndarray], str, float]:
    """The board turned, shifted and scaled onto ``points`` (N, 2) mm, where the places ``names`` are
    (refused when that is not the board at about its size), with the place it fits worst and how far
    off that one is (mm). The fit maps (M, 2) board mm to (M, 2) table mm."""
    board = np.array([game.board_mm[n] for n in names])
    scale, turn, shift = _similarity(board, points)
    _check_scale(scale, game)

    def place(p: np.ndarray) -> np.ndarray:
        return np.asarray(p) @ turn.T * scale + shift

    off = np.linalg.norm(place(board) - points, axis=1)
    return place, names[int(off.argmax())], float(off.max())


def _similarity(a: np.ndarray, b: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """(scale, 2x2 rotation, shift) taking the (N, 2) points a closest to b (Umeyama's method)."""
    ma, mb = a.mean(axis=0), b.mean(axis=0)
    u, s, vt = np.linalg.svd((b - mb).T @ (a - ma))
    d = np.diag([1.0, np.sign(np.linalg.det(u @ vt))])
    turn = u @ d @ vt
    scale = float(np.trace(np.diag(s) @ d) / max(np.sum((a - ma) ** 2), 1e-9))
    return scale, turn, mb - scale * ma @ turn.T


def on_table(pixels: Mapping[str, tuple[float, float]], to_table: ToTable) -> dict[str, tuple[float, float]]:
    """Each tap's point on the table (mm); refused for a tap whose ray never reaches the table."""
    names = list(pixels)
    if not names:  # nothing tapped yet (OpenCV asserts on an empty list of points)
        return {}
    points = to_table(np.array([pixels[n] for n in names], np.float64).reshape(-1, 2))
    off = [n for n, p in zip(names, points) if not np.all(np.isfinite(p))]
    if off:
        raise CalibrationError(Said("calibration.refused.taps_off_table", "taps {taps} are not on the table (their rays "
                                    "never reach it): tap the token itself", taps=repr(off)))
    return {n: (float(p[0]), float(p[1])) for n, p in zip(names, points)}


def snap_taps(image: np.ndarray, pixels: Mapping[str, tuple[float, float]], game: GamePlaces, to_top: ToTable,
              to_pixels: ToPixels) -> dict[str, Snap]:
    """Each place's tap moved onto the centre of the token it lands on in ``image`` (the picture the taps
    were made on), or kept where it was when no clear token is there. Seats are no tokens: not snapped.
    ``to_top``: pixels -> table mm at the height of a token's top."""
    names = [n for n in pixels if n in game.places]
    if not names:
        return {}
    tops = to_top(np.array([pixels[n] for n in names], np.float64).reshape(-1, 2))
    snaps = {}
    for name, top in zip(names, tops):
        tap = pixels[name]
        snaps[name] = (snap_tap(image, tap, game.token_radius_mm, (float(top[0]), float(top[1])), to_pixels)
                       if np.all(np.isfinite(top)) else Snap(tap, tap, False, 0.0, float("nan")))
    return snaps


def snapped(pixels: Mapping[str, tuple[float, float]], snaps: Mapping[str, Snap]) -> dict[str, tuple[float, float]]:
    """The taps with each snapped place moved onto its token's centre (the rest as tapped)."""
    return {n: snaps[n].pixel if n in snaps else p for n, p in pixels.items()}


def lay_out(pixels: Mapping[str, tuple[float, float]], game: GamePlaces, to_table: ToTable,
            board: bool = False) -> TablePlaces:
    """The places file: each tapped place and seat in table mm (0.1 mm); with ``board``, the places not
    tapped where the board puts them given the tapped ones."""
    found = on_table(pixels, to_table)
    if board:
        found.update(from_board(found, game))
    plausible({n: p for n, p in found.items() if n in game.places}, game)
    where = {n: [round(p[0], 1), round(p[1], 1)] for n, p in found.items()}
    places = {n: {"x_mm": where[n][0], "y_mm": where[n][1], "radius_mm": game.token_radius_mm} for n in game.places if n in where}
    seats = [where[f"{SEAT}{i}"] for i in range(len(game.seats)) if f"{SEAT}{i}" in where]
    try:
        return TablePlaces.model_validate({"game": game.game, "places": places, "seats": seats})
    except ValidationError as e:  # a tap on the table's far horizon lands kilometres off
        raise CalibrationError(Said("calibration.refused.places_off_table", "the taps put places off the table: "
                                    "{errors}; tap each token itself", errors=describe_errors(e))) from None


def read_places(path: Path) -> TablePlaces:
    """A places file this tool wrote (or any other: there is one model of them), refused in words."""
    try:
        return load_places(path)
    except ProfileError as e:
        raise CalibrationError(f"{e}: run the layout step again") from None
