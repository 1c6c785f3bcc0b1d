"""The tip-switch check on the desk: each tip pressed then lifted works; a tip never pressed, one stuck
pressed and a hub that knows no switch are each said in words."""
from __future__ import annotations

from pathlib import Path

import pytest

from calibration.desk import CalibrationDesk
from calibration.feed import LiveFeed
from calibration.model import CalibrationError
from companion.tableside.tips import WandTips

from .switches import HandSwitches


def desk_with(tmp_path: Path, tips: object) -> CalibrationDesk:
    """A desk whose camera is never opened: the check reads only the switches."""
    def no_camera() -> object:
        raise AssertionError("the tip-switch check has no use for the camera")
    return CalibrationDesk(tmp_path / "profile.json", LiveFeed(no_camera), tips=tips)  # type: ignore[arg-type]


def states(answer: dict) -> dict[int, str]:
    return {w["wand"]: w["state"] for w in answer["wands"]}


def test_pressed_then_lifted_works(tmp_path: Path) -> None:
    hand = HandSwitches({1: False, 2: False, 3: False, 4: False})
    desk = desk_with(tmp_path, hand)
    first = desk.start_tip_check()
    assert first["status"] == "pressing" and states(first) == dict.fromkeys((1, 2, 3, 4), "lifted")
    assert first["summary"].startswith("4 of 4 tips not seen pressed yet") and first["problems"] == []
    hand.press(1, 3)
    answer = desk.tips_now()
    assert [w["ok"] for w in answer["wands"]] == [True, False, True, False]
    assert answer["summary"].startswith("2 of 4 tips not seen pressed yet")
    hand.lift(1, 3)
    hand.press(2, 4)  # one by one: a tip seen pressed once stays ticked
    assert desk.tips_now()["summary"] == "every tip clicked: now lift every wand"
    hand.lift(2, 4)
    done = desk.lift_tips()
    assert done["status"] == "ok" and done["problems"] == []
    assert done["summary"] == "all 4 tip switches work: pressed, then lifted"
    assert [w["words"] for w in done["wands"]] == [f"wand {k}'s tip works" for k in (1, 2, 3, 4)]


def test_a_tip_never_pressed_never_clicked(tmp_path: Path) -> None:
    hand = HandSwitches({1: False, 2: False, 3: False, 4: False})
    desk = desk_with(tmp_path, hand)
    desk.start_tip_check()
    hand.press(1, 2, 4)  # wand 3's switch is unplugged: it reads lifted whatever is done
    desk.tips_now()
    hand.lift(1, 2, 4)
    answer = desk.lift_tips()
    assert answer["status"] == "problems"
    assert answer["problems"] == ["wand 3's tip never clicked: is its cable in, and is the switch soldered to the cable's fourth core?"]
    assert [w["ok"] for w in answer["wands"]] == [True, True, False, True]


def test_a_tip_pressed_with_the_wand_held_up_is_stuck(tmp_path: Path) -> None:
    hand = HandSwitches({1: False, 2: False, 3: False, 4: False})
    desk = desk_with(tmp_path, hand)
    desk.start_tip_check()
    hand.press(1, 2, 3, 4)
    desk.tips_now()
    hand.lift(1, 3, 4)  # wand 2's switch stays closed
    answer = desk.lift_tips()
    assert answer["status"] == "problems" and states(answer)[2] == "pressed"
    assert answer["problems"] == ["wand 2's tip reads pressed with the wand held up: the switch is stuck"]
    assert "the switch is stuck" in answer["summary"]
    hand.lift(2)  # freed: the check reads the switches as they are now
    assert desk.tips_now()["status"] == "ok"


def test_the_check_before_the_press_is_refused(tmp_path: Path) -> None:
    desk = desk_with(tmp_path, HandSwitches({}))
    for call in (desk.tips_now, desk.lift_tips):
        with pytest.raises(CalibrationError, match="start the tip-switch check first"):
            call()


@pytest.mark.parametrize("tips", [None, WandTips(fitted=False), WandTips(fitted=True, session=lambda: None)],
                         ids=["no hub", "setting off", "hub unplugged"])
def test_no_switch_known_skips_the_check(tmp_path: Path, tips: object) -> None:
    if isinstance(tips, WandTips):
        for wand in (1, 2, 3, 4):
            tips.tip(wand, True, 10)  # the hub's words are no use when the board cannot vouch for them
    desk = desk_with(tmp_path, tips)
    for answer in (desk.start_tip_check(), desk.lift_tips()):
        assert answer["status"] == "skipped" and answer["problems"] == []
        assert states(answer) == dict.fromkeys((1, 2, 3, 4), "not known")
        assert "this check is skipped" in answer["summary"] and "`tip_switches` setting is off" in answer["summary"]
        assert not any(w["ok"] for w in answer["wands"])


def test_one_wand_not_known_is_said(tmp_path: Path) -> None:
    hand = HandSwitches({1: True, 2: True, 3: True})  # the hub never told wand 4
    desk = desk_with(tmp_path, hand)
    answer = desk.start_tip_check()
    assert answer["status"] == "pressing" and states(answer)[4] == "not known"
    assert answer["problems"] == ["wand 4's tip is not known: the hub has not told it; is its cable in?"]
    hand.plugged_in = False  # the hub's cable is pulled mid-check: nothing is known any more
    assert desk.tips_now()["status"] == "skipped"
