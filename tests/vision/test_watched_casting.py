"""A watched casting (the table side lights the wands' LEDs from it): every wand's reading frame by
frame, and a wand still unsure waited for until the give-up time instead of being asked at once."""
from __future__ import annotations

import numpy as np

from vision.axis import WandAxis
from vision.config import load_config
from vision.decide import MISSING, NONE, TARGET, UNSURE, Casting, CastingSoFar, WandReading

FPS = 30
CFG = load_config().decide
GIVE_UP_S = CFG.give_up_ms / 1000


def read(axis: WandAxis) -> WandReading:
    """A wand whose tip is left of x=100 px is plainly on token "r1"; up to 200 px, between two tokens;
    beyond, held up at its player's seat, at no token."""
    if axis.tip_px[0] < 100:
        return WandReading(axis.strength, TARGET, "r1", 1.0, None, {}, axis.source, "r1")
    if axis.tip_px[0] < 200:
        return WandReading(axis.strength, UNSURE, None, 0.0, "r2", {}, axis.source, "r1", "between")
    return WandReading(axis.strength, NONE, None, 0.9, None, {"r1": 0.01}, axis.source, "r1", "nothing")


def axis(wand: int, x: float) -> WandAxis:
    return WandAxis(wand, np.array([x, 50.0]), None, 0.0, "tip", 4.0)


class Seen:
    def __init__(self) -> None:
        self.frames: list[tuple[float, dict[int, str]]] = []
        self.read: list[frozenset[int]] = []

    def __call__(self, so_far: CastingSoFar) -> None:
        self.frames.append((so_far.t, {k: r.status for k, r in so_far.readings.items()}))
        self.read.append(so_far.read)


def play(casting: Casting, poses: list[dict[int, float]]) -> tuple[float, dict[int, WandReading]] | None:
    """Feed one frame per pose, 30 a second from the cue at 0; (decided at, readings) once decided."""
    for index, pose in enumerate(poses):
        t = index / FPS
        result = casting.observe(t, {k: axis(k, x) for k, x in pose.items()})
        if result is not None:
            return result.decided_at, result.wands
    return None


def test_a_watched_casting_tells_each_wand_as_it_stands_and_waits_for_the_unsure_one() -> None:
    seen = Seen()
    casting = Casting(0.0, [1, 2], CFG, read, seen)
    # Wand 2 sits between two tokens for two seconds, then its player moves it onto r1.
    unsure, then_plain = int(2 * FPS), int(GIVE_UP_S * FPS)
    poses = [{1: 50.0, 2: 150.0}] * unsure + [{1: 50.0, 2: 60.0}] * then_plain
    decided = play(casting, poses)
    assert decided is not None
    at, wands = decided
    assert wands[1].status == TARGET and wands[2].status == TARGET
    assert 2.0 < at < GIVE_UP_S                               # closed once wand 2 was plain, not before
    # Told every frame, from the first: wand 1 read once it was still, wand 2 unsure until it moved.
    assert len(seen.frames) == round(at * FPS) + 1
    during = [statuses for t, statuses in seen.frames if CFG.settle_ms / 1000 < t < 2.0]
    assert during and all(s == {1: TARGET, 2: UNSURE} for s in during)


def test_an_unwatched_casting_asks_at_once_as_before() -> None:
    decided = play(Casting(0.0, [1, 2], CFG, read), [{1: 50.0, 2: 150.0}] * int(GIVE_UP_S * FPS))
    assert decided is not None
    at, wands = decided
    assert wands[2].status == UNSURE and at < CFG.window_ms / 1000 + 0.1


def test_a_wand_unsure_to_the_end_is_asked_at_the_give_up_time() -> None:
    seen = Seen()
    decided = play(Casting(0.0, [1, 2], CFG, read, seen), [{1: 50.0}] * int((GIVE_UP_S + 1) * FPS))
    assert decided is not None
    at, wands = decided
    assert wands[1].status == TARGET and wands[2].status == MISSING
    assert at >= GIVE_UP_S
    assert seen.frames[-1][1] == {1: TARGET, 2: MISSING}


def test_a_wand_read_plainly_is_kept_while_its_player_lifts_it_and_another_is_waited_for() -> None:
    seen = Seen()
    casting = Casting(0.0, [1, 2], CFG, read, seen)
    # Wand 1 read on r1, then lifted out of view after a second; wand 2 between two tokens, then on r1.
    poses = [{1: 50.0, 2: 150.0}] * FPS + [{2: 150.0}] * FPS + [{2: 60.0}] * int(GIVE_UP_S * FPS)
    decided = play(casting, poses)
    assert decided is not None
    at, wands = decided
    assert wands[1].status == TARGET and wands[1].target == "r1" and wands[2].status == TARGET
    assert all(statuses[1] == TARGET for t, statuses in seen.frames if t > CFG.window_ms / 1000)
    # Taken as read once read at its token for settle_ms after the window, never before.
    taken_from = (CFG.window_ms + CFG.settle_ms) / 1000
    assert all(1 not in read for (t, _), read in zip(seen.frames, seen.read) if t < CFG.window_ms / 1000)
    assert all(1 in read for (t, _), read in zip(seen.frames, seen.read) if t >= taken_from + 1 / FPS)
    assert all(2 not in read for (t, statuses), read in zip(seen.frames, seen.read) if statuses[2] != TARGET)


def test_a_wand_at_no_token_is_not_taken_as_read_and_one_lifted_while_unsure_is_asked() -> None:
    seen = Seen()
    casting = Casting(0.0, [1, 2, 3], CFG, read, seen)
    # Wand 1 on r1; wand 2 held up at its seat all along; wand 3 between two tokens, then lifted back.
    poses = [{1: 50.0, 2: 300.0, 3: 150.0}] * FPS + [{1: 50.0, 2: 300.0, 3: 300.0}] * int(GIVE_UP_S * FPS)
    decided = play(casting, poses)
    assert decided is not None
    at, wands = decided
    assert at >= GIVE_UP_S
    assert wands[1].status == TARGET
    assert wands[2].status == UNSURE and wands[2].best == "r1"         # at no token: asked, never guessed
    assert wands[3].status == UNSURE and wands[3].why == "between"     # asked as it was while it pointed
    assert all(read == {1} for (t, _), read in zip(seen.frames, seen.read) if t > 1.0)


def read_or_lifted(axis: WandAxis) -> WandReading:
    """As ``read``, but a tip from 100 to 200 px is over r1 with its switch open and its line naming r2."""
    if 100 <= axis.tip_px[0] < 200:
        return WandReading(axis.strength, UNSURE, None, 0.0, "r2", {}, axis.source, "r1", "lifted")
    return read(axis)


def test_a_still_wand_whose_reading_wavers_is_asked_and_one_that_moves_on_is_read_afresh() -> None:
    seen = Seen()
    casting = Casting(0.0, [1, 2], CFG, read_or_lifted, seen)
    # Wand 1 held still on the edge of r1 (98-101 px, within the tremor a still wand shows): read as
    # lifted past the window, then at r1 for 0.4 s at a time, lifted now and then, and at r1 when time
    # runs out. Wand 2 starts the same way, then its player moves it (to 300 px, then onto r1).
    rest = int(GIVE_UP_S * FPS)
    wavering = [101.0] * 18 + ([98.0] * 12 + [101.0] * 2) * 4 + [98.0] * rest
    moved = [101.0] * 18 + [98.0] * 10 + [300.0] * 10 + [50.0] * rest
    poses = [{1: a, 2: b} for a, b in zip(wavering, moved)]
    decided = play(casting, poses)
    assert decided is not None
    at, wands = decided
    assert at >= GIVE_UP_S  # wand 1 was never taken as read, so the casting waited for it
    assert wands[1].status == UNSURE and wands[1].best == "r1"  # asked, r1 offered first
    assert wands[2].status == TARGET and wands[2].target == "r1"
    assert all(1 not in read for read in seen.read)


def test_a_wand_read_between_two_tokens_now_and_then_is_still_taken_when_it_holds_its_token() -> None:
    seen = Seen()
    casting = Casting(0.0, [1], CFG, read, seen)
    # A tip half hidden or on a token's edge is read unsure on a frame here and there: no sign of a wand
    # aimed elsewhere, so it is taken as read once it holds its token.
    poses = [{1: a} for a in [101.0] * 18 + ([98.0] * 12 + [101.0] * 2) * 4 + [98.0] * int(GIVE_UP_S * FPS)]
    decided = play(casting, poses)
    assert decided is not None and decided[0] < 1.0 and decided[1][1].target == "r1"


def test_a_wand_lost_under_a_hand_and_seen_again_only_as_a_lone_patch_is_asked() -> None:
    def read_any(axis: WandAxis) -> WandReading:  # a lost wand is asked, as the pipeline asks it
        if axis.source == "lost":
            return WandReading(axis.strength, UNSURE, None, 0.0, None, {}, axis.source, "r1", "hidden")
        return WandReading(axis.strength, TARGET, "r1", 1.0, None, {}, axis.source, "r1")

    def seen_as(wand: int, x: float, source: str) -> WandAxis:
        back = None if source in ("tip", "lost") else np.array([x + 60.0, 50.0])
        return WandAxis(wand, np.array([x, 50.0]), back, 0.0, source, 4.0)

    casting = Casting(0.0, [1, 2], CFG, read_any, Seen())
    # Both wands come in with their bands in view, are lost under a hand for half a second, then wand 1
    # shows only a patch of its paint where it was, wand 2 its tip and band.
    frames = [{k: seen_as(k, 300.0 - 25 * i, "band") for k in (1, 2)} for i in range(10)]
    frames += [{k: seen_as(k, 75.0, "lost") for k in (1, 2)} for _ in range(15)]
    frames += [{1: seen_as(1, 75.0, "tip"), 2: seen_as(2, 75.0, "band")} for _ in range(int(GIVE_UP_S * FPS))]
    result = None
    for index, axes in enumerate(frames):
        if (result := casting.observe(index / FPS, axes)) is not None:
            break
    assert result is not None
    assert result.wands[2].status == TARGET and result.wands[2].target == "r1"
    assert result.wands[1].status == UNSURE and result.wands[1].why == "hidden" and result.wands[1].best == "r1"


def test_a_wand_held_on_a_token_since_the_cue_is_not_taken_as_it_sets_off_for_its_target() -> None:
    def read_r1_or_r3(axis: WandAxis) -> WandReading:
        if 300 <= axis.tip_px[0] < 400:
            return WandReading(axis.strength, TARGET, "r3", 1.0, None, {}, axis.source, "r3")
        return read(axis)

    seen = Seen()
    casting = Casting(0.0, [1, 2], CFG, read_r1_or_r3, seen)
    # Both players rested their wands on r1 while the caller chanted. Wand 2 stays there; wand 1's player
    # sets off for r3 just as the window opens, slowly at first (a reach eases in: its first frames
    # barely move the tip), and rests there.
    start, reach = round(CFG.window_ms / 1000 * FPS), int(0.5 * FPS)
    path = [50.0] * start + [50.0 + 300.0 * (3 * u * u - 2 * u ** 3) for u in np.arange(1, reach + 1) / reach]
    poses = [{1: x, 2: 40.0} for x in path + [350.0] * int(GIVE_UP_S * FPS)]
    decided = play(casting, poses)
    assert decided is not None
    at, wands = decided
    assert wands[1].status == TARGET and wands[1].target == "r3"   # where it went, not where it waited
    assert wands[2].status == TARGET and wands[2].target == "r1"   # a wand that stays is still taken
    # Taken once it held its token for settle_ms within the window, not at the window's first frame.
    assert all(1 not in read and 2 not in read for (t, _), read in zip(seen.frames, seen.read)
               if t < (CFG.window_ms + CFG.settle_ms) / 1000 - 1e-9)
