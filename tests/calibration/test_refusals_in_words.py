"""The calibration tool's refusals from deeper in (finding the table, laying out the places, the wand
pictures) name their catalogue words: the English is the catalogue's sentence, and a German tablet says
the same refusal in German."""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from calibration.layout import from_board, game_places, plausible
from calibration.model import CalibrationError
from calibration.profiles import save
from calibration.steps import find_table, learn_wand_paints
from calibration.table import DEFAULT_LAYOUT, TableLayout, solve_table_pose
from companion import words
from companion.words.said import words_of
from vision.profile import CameraIntrinsics, ImageSize, Profile

CAMERA = CameraIntrinsics(fx=560.0, fy=560.0, cx=318.0, cy=243.0)
GOOD = Profile(image=ImageSize(width=640, height=480), camera=CAMERA)
PLACES = game_places("incantibus")


def refusal(act: Callable[[], object]) -> CalibrationError:
    with pytest.raises(CalibrationError) as refused:
        act()
    return refused.value


def test_each_refusal_is_its_catalogue_sentence_in_english_and_german(cal_path: Path) -> None:
    save(GOOD, cal_path)
    name = next(iter(PLACES.board_mm))
    close = {name: (100.0, 100.0), next(n for n in PLACES.places if n != name): (101.0, 100.0)}
    refusals = {
        "calibration.refused.picture_size": refusal(lambda: find_table(cal_path, np.zeros((720, 1280, 3), np.uint8),
                                                                       DEFAULT_LAYOUT)),
        "calibration.refused.table_markers_few": refusal(lambda: solve_table_pose({}, TableLayout.load(DEFAULT_LAYOUT),
                                                                                  CAMERA)),
        "calibration.refused.board_taps_few": refusal(lambda: from_board({name: (0.0, 0.0)}, PLACES)),
        "calibration.refused.places_too_close": refusal(lambda: plausible(close, PLACES)),
        "calibration.refused.no_wand_pictures": refusal(lambda: learn_wand_paints(cal_path, [])),
    }
    for key, error in refusals.items():
        said = words_of(error)
        assert said is not None and said["key"] == key, str(error)
        assert words.say("en", key, **said["values"]) == str(error)
        german = words.say("de", key, **said["values"])
        # Where a marker lies is the layout file's own words (in brackets): the sentence around it is German.
        sentence = re.sub(r"\([^)]*\)", "", german).split()
        assert german != str(error) and not {"the", "tap", "are", "is", "not"} & set(sentence), german
    assert "markers 0 (near left, in front of the sorcerer row); 1 (" in str(refusals["calibration.refused.table_markers_few"])
    assert words.say("de", **{"key": "calibration.refused.picture_size",
                              **words_of(refusals["calibration.refused.picture_size"])["values"]}).startswith(  # type: ignore[index]
        "Das Bild ist 1280x720, die Kamera wurde aber bei 640x480 vermessen")


def test_a_refused_tap_list_is_said_whole_in_german() -> None:
    from calibration.layout import check_taps
    taps = {"seat1": [10, 10], next(iter(PLACES.places)): [9999, 5], "nowhere": [1, 1]}
    error = refusal(lambda: check_taps(taps, PLACES, (640, 480), every_place=False))
    said = words_of(error)
    assert said is not None, str(error)
    assert words.say("en", said["key"], **said["values"]) == str(error)
    assert "tap every seat or none" in str(error) and "is not a pixel [x, y] of the 640x480" in str(error)
    german = words.say("de", said["key"], **said["values"])
    assert "Tippe alle Sitze an oder keinen" in german and "ist kein Bildpunkt" in german and "ist kein Feld" in german
    assert not {"tap", "not", "is", "pixel"} & set(german.split()), german


def test_the_last_change_and_places_from_a_file_are_said_in_german(cal_path: Path) -> None:
    from calibration.profiles import note
    from calibration.status import describe
    from companion.words.said import Said
    from vision.profile import PlacesRef
    save(GOOD.with_parts(places=PlacesRef(file="places/incantibus.json")), cal_path)
    note(cal_path, Said("calibration.change.places_of", "places of {game} laid out", game="incantibus"), "tablet 7")
    lines = {words_of(line)["key"]: line for line in describe(cal_path) if words_of(line)}  # type: ignore[index]
    change, places = lines["calibration.known.last_change"], lines["calibration.known.places_file"]
    assert str(change).startswith("last change: places of incantibus laid out, ") and "tablet 7" in change
    assert str(places) == "places: from 'places/incantibus.json'"
    german = [say("de", line) for line in (change, places)]
    assert german[0].startswith("Letzte Änderung: Felder von incantibus ausgelegt, "), german[0]
    assert german[1] == "Felder: aus 'places/incantibus.json'"
    assert [say("en", line) for line in (change, places)] == [str(change), str(places)]


def say(lang: str, line: str) -> str:
    said = words_of(line)
    assert said is not None, line
    return words.say(lang, said["key"], **said["values"])


def test_where_a_table_marker_lies_is_said_in_the_tablets_language() -> None:
    error = refusal(lambda: solve_table_pose({}, TableLayout.load(DEFAULT_LAYOUT), CAMERA))
    assert "0 (near left, in front of the sorcerer row); 1 (near right" in str(error)
    german = say("de", str(error) if words_of(error) is None else error.args[0])
    assert "0 (vorne links, vor der Zaubererreihe); 1 (vorne rechts" in german, german
    assert "far left" not in german and "beyond" not in german, german
    assert say("en", error.args[0]) == str(error)
