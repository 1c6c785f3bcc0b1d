"""The bench's players watch their wands' lights: a player whose wand keeps blinking adjusts it, a
moment after coming to rest, blind of what the camera sees (``vision.bench.players``)."""
from __future__ import annotations

import numpy as np

import vision.bench.players as players
from vision.bench.casting import run_scene
from vision.bench.players import ADJUSTMENTS, NOTICE_S, RESTING_MM, Players
from vision.decide import CastingSoFar
from vision.pipeline import Pipeline
from vision.render.people import touch_pose
from vision.render.scene import make_scene

GIVE_UP_S = 4.0


def _lights(t: float, wands: list[int], read: set[int]) -> CastingSoFar:
    return CastingSoFar(t, {k: None for k in wands}, frozenset(read))  # type: ignore[misc]


def test_one_more_move_takes_the_wand_to_the_new_pose_meaning_the_same_token() -> None:
    scene = make_scene(11, "hover", motion=True)
    g = scene.gestures[1]
    token = scene.layout.token(g.target)
    pose = None
    rng = np.random.default_rng(3)
    while pose is None:
        pose = touch_pose(rng, scene.seats[1], token, scene.paints[1].bead_radius_mm)
    later = g.then(2.0, pose, 0.4)
    assert later.target == g.target and later.settled_at == 2.4
    assert np.allclose(later.pose(1.9).tip, g.pose(1.9).tip)  # nothing changes before the move
    assert np.linalg.norm(later.pose(2.6).tip - pose.tip) < 6.0  # there, but for the hand's tremor
    assert np.linalg.norm(g.pose(2.6).tip - pose.tip) > 6.0


def test_only_a_player_who_looks_and_whose_light_still_blinks_adjusts_once_their_moment_comes() -> None:
    scene = make_scene(12, "hover", motion=True)
    people = Players(scene, GIVE_UP_S)
    people.looks = {1: True, 2: True, 3: False, 4: True}
    people.takes_back = {k: False for k in people.looks}  # here a steady wand stays on its token
    before = dict(scene.gestures)
    wands = sorted(scene.gestures)
    people.watch(_lights(0.5, wands, read={4}))  # wand 4 read: steady
    due = dict(people.due)
    assert all(due[k] >= scene.gestures[k].settled_at + NOTICE_S[2] for k in wands)
    people.act(0.0)
    assert scene.gestures == before  # nobody's moment has come at the cue
    people.act(GIVE_UP_S - 0.01)  # every moment before the casting gives up has come
    moved = {k for k in wands if scene.gestures[k] is not before[k]}
    assert moved == {k for k in (1, 2) if due[k] < GIVE_UP_S - 0.01}  # 3 never looks; 4's light is steady
    assert moved, "a player whose light blinks and who looks adjusts"
    for k in moved:
        assert len(scene.gestures[k].moves) == len(before[k].moves) + 1
        assert people.left[k] == ADJUSTMENTS - 1


def test_a_tip_resting_stays_put_and_a_tip_in_the_air_is_brought_down_onto_the_token_meant() -> None:
    for kind, rests in (("hover", True), ("distance", False), ("natural", False)):
        scene = make_scene(21, kind, motion=True)
        people = Players(scene, GIVE_UP_S)
        people.looks = {k: True for k in scene.gestures}
        before = dict(scene.gestures)
        people.watch(_lights(1.0, sorted(scene.gestures), read=set()))
        people.act(GIVE_UP_S - 0.01)
        for k, g in scene.gestures.items():
            assert g is not before[k]
            old, new = before[k].aims[-1], g.aims[-1]
            bead = scene.paints[k].bead_radius_mm
            token = scene.layout.token(g.target)
            if rests:
                assert old.tip[2] <= bead + 2 + RESTING_MM
                assert np.allclose(new.tip, old.tip) and not np.allclose(new.direction, old.direction)
            else:
                assert old.tip[2] > bead + 2 + RESTING_MM, kind
                assert abs(new.tip[2] - (bead + 2)) < 1e-6
                assert np.hypot(new.tip[0] - token.x_mm, new.tip[1] - token.y_mm) <= token.radius_mm


def test_the_frames_are_drawn_until_the_last_player_who_may_still_act() -> None:
    scene = make_scene(12, "hover", motion=True)
    people = Players(scene, GIVE_UP_S)
    people.looks = {1: True, 2: False, 3: True, 4: True}
    people.watch(_lights(0.5, [1, 2, 3, 4], read={3}))
    assert people.waiting_until() == max(people.due[k] for k in (1, 4))
    people.watch(_lights(0.9, [1, 2, 3, 4], read={1, 3, 4}))
    assert people.waiting_until() is None  # wand 2 blinks, but its player never looks


def test_wands_pointed_from_afar_and_asked_are_read_once_their_players_touch_down(monkeypatch) -> None:
    """A rendered casting read by the real pipeline: three wands aimed from afar stay unsure while their
    players ignore the blinking; when they look, they touch down and every wand is read right."""
    def read(looks: float) -> list[tuple[int, str, bool, int]]:
        monkeypatch.setattr(players, "LOOKS", looks)
        scene = make_scene(2, "distance", motion=True)
        _, found, _ = run_scene(Pipeline(scene.calibration), scene, 0.0, players=True)
        return [(o.strength, o.status, o.right, o.adjusted) for o in found]

    ignored = read(0.0)
    assert [(k, status) for k, status, _, _ in ignored if status != "target"] == [(2, "unsure"), (3, "unsure"), (4, "unsure")]
    assert all(adjusted == 0 for *_, adjusted in ignored)
    watched = read(1.0)
    assert all(right for _, _, right, _ in watched)
    assert [k for k, *_, adjusted in watched if adjusted] == [2, 3, 4]


def test_a_player_whose_light_turns_steady_takes_the_wand_back_a_moment_later() -> None:
    scene = make_scene(12, "hover", motion=True)
    people = Players(scene, GIVE_UP_S)
    people.looks = {1: True, 2: False, 3: False, 4: True}
    people.takes_back = {1: True, 2: True, 3: True, 4: False}
    wands = sorted(scene.gestures)
    rested = people.last_rest()
    late = max(scene.gestures[k].settled_at for k in wands) + 0.1
    before = dict(scene.gestures)
    people.watch(_lights(late, wands, read={1, 3, 4}))  # 2 still blinks
    assert set(people.take_back_at) == {1}  # 3 never looks; 4 leaves it on the token; 2 is not read
    assert people.take_back_at[1] >= late + NOTICE_S[2]
    people.act(people.take_back_at[1] - 0.01)
    assert scene.gestures[1] is before[1]  # not before their moment
    people.act(people.take_back_at[1])
    taken = scene.gestures[1]
    assert len(taken.moves) == len(before[1].moves) + 1 and taken.target == before[1].target
    assert taken.aims[-1].tip[2] > 200  # held up again, as before the cue
    people.act(people.take_back_at[1] + 1.0)
    assert scene.gestures[1] is taken  # once
    assert people.last_rest() == rested  # a wand taken back rests in the air, not on its token


def test_tips_under_another_players_arm_are_read_once_the_players_read_take_their_wands_back(monkeypatch) -> None:
    """A rendered casting read by the real pipeline: two tips lie under other players' arms. Their own
    players move their fists in vain; once the players whose lights turned steady take their wands
    back, the arms are gone and every wand is read right."""
    def read(takes_back: float) -> list[tuple[int, str, bool]]:
        monkeypatch.setattr(players, "LOOKS", 1.0)
        monkeypatch.setattr(players, "TAKES_BACK", takes_back)
        scene = make_scene(3, "hover", motion=True)
        _, found, _ = run_scene(Pipeline(scene.calibration), scene, 0.0, players=True)
        return [(o.strength, o.status, o.right) for o in found]

    left = read(0.0)
    assert [(k, status) for k, status, _ in left if status != "target"] == [(2, "unsure"), (3, "unsure")]
    assert all(right for k, _, right in left if k in (1, 4))
    assert all(right for *_, right in read(1.0))
