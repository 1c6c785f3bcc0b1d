"""A short rendered night recorded and read again: every casting comes back as the table read it."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.__main__ import main as vision_main
from vision.frames import Frame
from vision.recording import Cue, Recorder, read_recording
from vision.render.source import RenderedSource


def test_a_recorded_night_is_read_again_with_its_own_profile_and_places(tmp_path: Path, capsys) -> None:
    out = tmp_path / "night"
    assert vision_main(["record", "--source", "render:hover:41:2", "--out", str(out), "--every", "0.3"]) == 0
    assert {p.name for p in out.iterdir()} >= {"frames", "cues.jsonl", "profile.json", "places.json"}
    cues = [json.loads(line) for line in (out / "cues.jsonl").read_text().splitlines()]
    assert len(cues) == 2 and cues[0]["wands"] == [1, 2, 3, 4]
    capsys.readouterr()

    assert vision_main(["read", "--recording", str(out), "--json"]) == 0
    readings = json.loads(capsys.readouterr().out)["castings"]
    assert [r["decided"] for r in readings] == [True, True]
    source = RenderedSource("hover", 41, castings=2)
    for reading in readings:
        while source.read() is not None and source.cue_at < reading["cue"]["t"]:
            pass
        truth = {k: g.target for k, g in source.scene.gestures.items()}
        for w in reading["wands"]:
            assert w["status"] != "target" or w["target"] == truth[w["wand"]]
        assert sum(w["target"] == truth[w["wand"]] for w in reading["wands"]) >= 3


def test_frames_are_kept_at_a_reduced_rate_except_around_a_cue(tmp_path: Path) -> None:
    image = np.zeros((48, 64, 3), np.uint8)
    with Recorder(tmp_path, every_s=0.5) as recorder:
        for i in range(300):  # 10 s at 30 frames/s, a cue at 5 s
            if i == 150:
                recorder.cue(Cue(5.0))
            recorder.add(Frame(image, i / 30, i))
    times = [float(line.split(",")[1]) for line in (tmp_path / "frames" / "timestamps.csv").read_text().splitlines()[1:]]
    times.sort()  # the second before the cue is written when the cue comes; readers sort by time
    before, around, after = ([t for t in times if t < 3.9], [t for t in times if 4.1 <= t <= 8.9],
                             [t for t in times if t > 9.1])
    assert len(before) <= 9 and len(after) <= 2  # one every half second
    assert len(around) >= 0.95 * 30 * 4.8  # whole: the second before the cue and four after


def test_reading_a_folder_that_is_no_recording_is_refused_by_name(tmp_path: Path, capsys) -> None:
    assert vision_main(["read", "--recording", str(tmp_path), "--json"]) == 2
    assert str(tmp_path) in capsys.readouterr().err


def test_another_places_file_is_used_when_given(tmp_path: Path) -> None:
    out = tmp_path / "night"
    assert vision_main(["record", "--source", "render:hover:42:1", "--out", str(out)]) == 0
    places = json.loads((out / "places.json").read_text())
    first = next(iter(places["places"]))
    other = tmp_path / "few.json"
    other.write_text(json.dumps({"game": "incantibus", "places": {first: places["places"][first]}}))
    (reading,) = read_recording(out, other)
    assert reading.result is not None
    assert all(w.target in (None, first) for w in reading.result.wands.values())
    with pytest.raises(ValueError, match="few"):
        read_recording(out, tmp_path / "few-missing.json")


def _silent_errors(readings: list[dict], seed: int) -> int:
    source = RenderedSource("distance", seed, castings=1)
    source.read()
    truth = {k: g.target for k, g in source.scene.gestures.items()}
    return sum(w["status"] == "target" and w["target"] != truth[w["wand"]] for w in readings[0]["wands"])


def test_a_recordings_tip_switches_are_read_with_its_frames(tmp_path: Path, capsys) -> None:
    """Wands pointing from afar, tips over other tokens: read without the switches the table had, the
    recording names those tokens; with the cue's switches (all open), the tablet is asked for those whose
    line clearly names another token."""
    out = tmp_path / "night"
    assert vision_main(["record", "--source", "render:distance:29:1", "--out", str(out)]) == 0
    capsys.readouterr()
    assert vision_main(["read", "--recording", str(out), "--json"]) == 0
    without = _silent_errors(json.loads(capsys.readouterr().out)["castings"], 29)
    assert without >= 1
    cue = json.loads((out / "cues.jsonl").read_text())
    (out / "cues.jsonl").write_text(json.dumps({**cue, "tips": {"1": False, "2": False, "3": False, "4": False}}))
    assert vision_main(["read", "--recording", str(out), "--json"]) == 0
    readings = json.loads(capsys.readouterr().out)["castings"]
    assert readings[0]["cue"]["tips"] == {"1": False, "2": False, "3": False, "4": False}
    assert _silent_errors(readings, 29) < without


def test_a_cue_with_bad_tip_switches_is_refused_by_its_value(tmp_path: Path, capsys) -> None:
    out = tmp_path / "night"
    assert vision_main(["record", "--source", "render:distance:33:1", "--out", str(out)]) == 0
    cue = json.loads((out / "cues.jsonl").read_text())
    (out / "cues.jsonl").write_text(json.dumps({**cue, "tips": {"1": "pressed"}}))
    capsys.readouterr()
    assert vision_main(["read", "--recording", str(out), "--json"]) == 2
    err = capsys.readouterr().err
    assert "'pressed'" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_the_tables_answers_score_the_reading(tmp_path: Path, capsys) -> None:
    """Answers kept beside the casting's frames: ``vision read`` says per wand whether the camera read
    it right, wrong (with no question) or asked, per casting and overall; an answer the camera read
    otherwise is a silent error."""
    out = tmp_path / "night"
    assert vision_main(["record", "--source", "render:hover:41:2", "--out", str(out), "--every", "0.3"]) == 0
    answers = [json.loads(line) for line in (out / "answers.jsonl").read_text().splitlines()]
    cues = [json.loads(line) for line in (out / "cues.jsonl").read_text().splitlines()]
    assert [a["t"] for a in answers] == [c["t"] for c in cues] and set(answers[0]["wands"]) == {"1", "2", "3", "4"}
    capsys.readouterr()
    assert vision_main(["read", "--recording", str(out), "--json"]) == 0
    read = json.loads(capsys.readouterr().out)
    score = read["score"]
    assert (score["castings"], score["wands"]) == (2, 8) and score["right"] + score["wrong"] + score["unsure"] == 8
    assert score["wrong"] == 0 and score["right"] >= 6  # as the reading above: no silent error, most wands read
    for casting in read["castings"]:
        judged = casting["score"]["wands"]
        for w in casting["wands"]:
            expected = "unsure" if w["status"] != "target" else \
                "right" if w["target"] == casting["answer"]["wands"][str(w["wand"])] else "wrong"
            assert judged[str(w["wand"])] == expected

    # The table answered one wand the camera read as another place: that wand is a silent error.
    first = read["castings"][0]
    sure = next(w for w in first["wands"] if w["status"] == "target")
    other = next(p for p in first["cue"]["legal"] if p != sure["target"])
    answers[0] = {**answers[0], "wands": {**answers[0]["wands"], str(sure["wand"]): other},
                  "answered": [sure["wand"]]}
    (out / "answers.jsonl").write_text("".join(json.dumps(a) + "\n" for a in answers))
    assert vision_main(["read", "--recording", str(out), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["castings"][0]["score"]["wands"][str(sure["wand"])] == "wrong"
    assert again["score"]["wrong"] == 1 and again["score"]["right"] == score["right"] - 1
    assert again["score"]["silent_errors"] == round(1 / 8, 4)
    assert vision_main(["read", "--recording", str(out)]) == 0
    assert f"{score['right'] - 1} right, 1 wrong" in capsys.readouterr().out


def test_a_bad_answer_line_is_refused_by_its_line(tmp_path: Path, capsys) -> None:
    out = tmp_path / "night"
    assert vision_main(["record", "--source", "render:hover:41:1", "--out", str(out)]) == 0
    (out / "answers.jsonl").write_text('{"t": 1.0, "wands": {"1": 7}}\n')
    capsys.readouterr()
    assert vision_main(["read", "--recording", str(out), "--json"]) == 2
    err = capsys.readouterr().err
    assert "answers.jsonl line 1" in err and "7" in err and len(err.strip().splitlines()) == 1
