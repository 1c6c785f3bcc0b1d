"""The guided calibration in Debian's Chromium, on a rendered table whose truth is known: the table
found from the live picture, the places tapped on it, the wands learned with a token of wand 2's
colour named, the group's chant recorded by the Pi's microphone (espeak-ng played through the sound
card's seam), and a round of validation; the tip-switch check, its indicators following switches flipped by hand; then the refusals
a tablet sees, in words."""
from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
import wave
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import numpy as np
import pytest
import uvicorn
from fastapi import FastAPI

from calibration.desk import CalibrationDesk, open_desk
from calibration.profiles import last_good_path as last_good
from calibration.profiles import load, save
from companion.cue.microphone import Microphone, PlayedSoundCard
from companion.night import Night
from companion.status import StatusBoard
from companion.store import Store
from companion.tableside.places import load_places, standard_places
from companion.web.app import create_app
from companion.web.routers.calibration import attach
from companion.web.settings import Settings
from vision.profile import ImageSize, Profile, save_profile

from .chant import three_chants
from .staged import StagedTable
from .switches import HandSwitches

CHROMIUM = "/usr/bin/chromium"
CODE = "424242"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run"]

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"Debian's Chromium is not installed at {CHROMIUM}")]


@contextlib.contextmanager
def serving(app: FastAPI) -> Iterator[str]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=5)
        sock.close()


def nearest(places: dict[str, Any], token: Any) -> str:
    return min(places, key=lambda n: np.hypot(places[n].x_mm - token.x_mm, places[n].y_mm - token.y_mm))


def on_calibration_page(url: str) -> bool:
    return urlparse(url).path == "/calibration"


@pytest.fixture(scope="module")
def chant(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three "In-can-to!"s by three espeak-ng voices, a breath around each, as the Pi's microphone hears it."""
    return three_chants(tmp_path_factory.mktemp("chant"), rate=48000)


def seconds_of(wav: Path) -> float:
    with wave.open(str(wav)) as f:
        return f.getnframes() / f.getframerate()


@pytest.fixture
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def table() -> StagedTable:
    return StagedTable(seed=5)


@pytest.fixture
def desk(tmp_path: Path, table: StagedTable, chant: Path) -> Iterator[CalibrationDesk]:
    """The camera step done (the rendered camera's own intrinsics), nothing else yet."""
    profile = tmp_path / "setup" / "profile.json"
    truth = table.camera.calibration()
    save(Profile(image=ImageSize(width=640, height=480), camera=truth.camera), profile)
    # As the table side hands over its camera's newest picture; the Pi's microphone plays the chant.
    desk = open_desk(profile, table.read, microphone=lambda: Microphone(sound=PlayedSoundCard(chant)))
    try:
        desk.feed.wait_first()
        yield desk
    finally:
        desk.feed.stop()


@pytest.fixture
def url(tmp_path: Path, desk: CalibrationDesk) -> Iterator[str]:
    with Store(tmp_path / "night.sqlite") as store:
        app = create_app(Night.resume_or_start(store, "Test night"), StatusBoard(), Settings(join_code=CODE))
        attach(app, desk)  # as the composition root hands it in
        with serving(app) as base:
            yield base


def joined_page(chromium: Any, url: str) -> tuple[Any, list[str]]:
    """A tablet joined and on the calibration page, and the page errors it will collect."""
    page = chromium.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}/join?code={CODE}&next=/calibration")
    page.wait_for_url(on_calibration_page)
    return page, errors


def go(page: Any, step: str) -> None:
    """To a step by its place in the progress, as a person jumps there."""
    page.click(f"#steps li[data-step='{step}'] button")
    page.wait_for_selector(f"#page[data-step='{step}']")


def test_the_guided_flow_on_a_rendered_table(chromium: Any, url: str, table: StagedTable, desk: CalibrationDesk,
                                             chant: Path) -> None:
    page, errors = joined_page(chromium, url)
    page.wait_for_function("document.getElementById('live')?.naturalWidth === 640")

    # Table: found from the markers in the live picture, where the renderer put the camera.
    page.wait_for_selector("#page[data-step='table']")  # the camera is measured: the guide starts at the table
    page.click("#find-table")
    page.wait_for_selector("#message:has-text('table found from markers [0, 1, 2, 3]')")
    pose, truth = load(desk.profile_path).table, table.camera.calibration().table
    assert pose is not None and truth is not None
    assert np.linalg.norm(np.array(pose.tvec) - np.array(truth.tvec)) < 15.0

    # Places: the first few tapped where the renderer's own projection puts them, the rest placed from
    # the board; the standard seats kept. The step is done with the tokens laid and nothing over them,
    # as the page asks, so each place moves onto the token the camera sees under it.
    table.stage = "empty"
    page.click("#next")
    page.wait_for_selector("#page[data-step='layout']")
    page.click("#skip-seats")
    standard = standard_places().places
    for _ in range(12):
        name = page.get_attribute("#tap-prompt", "data-next")
        u, v = table.camera.project(np.array([[standard[name].x_mm, standard[name].y_mm, 2.0]]))[0]
        page.click("#live", position={"x": float(u), "y": float(v)})
    assert page.get_attribute("#tap-prompt", "data-next") == "b0"
    page.click("#from-board")
    page.wait_for_selector("#tap-prompt[data-next='']")
    page.click("#save-layout")
    page.wait_for_selector("#message:has-text('27 places and 0 seats saved;')")
    laid = load_places(desk.profile_path.with_name("places-incantibus.json"))
    # Where each place really is: on its token where the renderer laid one (a hand's few mm off the
    # print), on the print where none lies.
    lying = {n: table.token_at(p.x_mm, p.y_mm) for n, p in standard.items()}
    truth_mm = {n: (t.x_mm, t.y_mm) if t else (standard[n].x_mm, standard[n].y_mm) for n, t in lying.items()}
    worst = max(np.hypot(laid.places[n].x_mm - x, laid.places[n].y_mm - y) for n, (x, y) in truth_mm.items())
    assert worst < 6.0, f"a place is {worst:.1f} mm from where it really is: {laid.places}"
    page.wait_for_selector("#steps li[data-step='layout'][data-done='true']")

    # Wands: the empty table first, then the wands resting in view; the green token is named.
    page.click("#next")
    table.stage = "empty"
    time.sleep(0.5)
    page.click("#empty-table")
    page.wait_for_selector("#message:has-text('the empty table is noted')")
    table.stage = "wands"
    time.sleep(0.5)
    page.click("#learn-wands")
    page.wait_for_selector("#learn-wands + #working progress")  # the watch's progress, beside its button
    page.wait_for_selector("#wand-results li >> nth=3")
    warnings = page.inner_text("#wand-warnings")
    # The token painted in wand 2's colour lies on room slot 3; it is named by its place.
    assert "the token at r3 looks like wand 2's green tip" in warnings
    assert warnings.count("looks like") == 1, warnings  # nothing else on the table is taken for a tip
    assert sorted(load(desk.profile_path).wands) == [1, 2, 3, 4]

    # Cue: recorded by the Pi's microphone; the level meter moves; the takes are enrolled.
    go(page, "cue")
    page.click("#record")
    page.wait_for_function("Number(document.getElementById('level').dataset.level) > 0.02")  # the first chant
    time.sleep(seconds_of(chant) - 0.5)  # the rest of the file
    page.click("#record")
    page.wait_for_selector("#message:has-text('enrolled')", timeout=30_000)
    assert load(desk.profile_path).cue is not None
    assert (desk.profile_path.parent / "cue").is_dir()

    # Validation: one round against the highlighted place; the tally and what went wrong, in words. It
    # reads as play does: with the hub's tip switches (here none known), asked for every wand.
    asked: list[int] = []
    desk.tips = type("Spy", (), {"touching": lambda self, wand: asked.append(wand)})()
    table.point()
    page.click("#next")
    page.wait_for_selector("#page[data-step='check']")
    page.click("#start-validation")
    target = page.wait_for_selector("#target[data-target]").get_attribute("data-target")
    assert target in standard
    page.wait_for_selector(f"#overlay circle.target[data-name='{target}']")
    table.point()  # everyone points, as the display asked
    page.click("#read-validation")
    page.wait_for_selector("#tally[data-tries='4']", timeout=30_000)
    assert "of 4 read right" in page.inner_text("#tally")
    hits = int(page.get_attribute("#tally", "data-hits") or -1)
    problems = [li.inner_text() for li in page.query_selector_all("#validation-problems li")]
    # The truth: the place under the token each rendered player points at.
    truth = {k: nearest(standard, table.scene.layout.token(g.target)) for k, g in table.scene.gestures.items() if g.target}
    assert hits == sum(1 for place in truth.values() if place == target), (target, truth, problems)
    assert len(problems) == 4 - hits
    assert sorted(set(asked)) == sorted(table.scene.gestures)
    for k, place in truth.items():
        if place != target:
            assert any(p.startswith(f"wand {k} ") and place in p for p in problems), (k, place, problems)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "calibration.png"), full_page=True)
    lines = page.text_content("#profile-lines")
    assert "places: 27 places laid out" in lines and "cue: recorded" in lines and "wands: 1, 2, 3, 4 learned; hue " in lines
    assert errors == []


def test_the_tip_switch_check_follows_the_switches(chromium: Any, url: str, desk: CalibrationDesk) -> None:
    hand = HandSwitches({1: False, 2: False, 3: False, 4: False})
    desk.tips = hand  # as the composition root hands in the hub's switches
    page, errors = joined_page(chromium, url)
    go(page, "tips")
    assert page.is_disabled("#lift-tips")  # nothing to lift before the tips were pressed
    page.click("#start-tips")
    page.wait_for_selector("#tip-wands li[data-wand='4'][data-state='lifted'][data-ok='false']")
    assert "4 of 4 tips not seen pressed yet" in page.inner_text("#tip-summary")

    # Each tip pressed turns its wand green, with no tap on the tablet: the page keeps asking.
    hand.press(1, 3)
    page.wait_for_selector("#tip-wands li[data-wand='1'][data-state='pressed'][data-ok='true']")
    page.wait_for_selector("#tip-wands li[data-wand='3'][data-ok='true']")
    assert page.get_attribute("#tip-wands li[data-wand='2']", "data-ok") == "false"
    hand.lift(1)
    hand.press(2)  # wand 4's switch is never pressed; wand 3's stays down
    page.wait_for_selector("#tip-wands li[data-wand='1'][data-state='lifted'][data-ok='true']")
    page.wait_for_selector("#tip-summary:has-text('1 of 4 tips not seen pressed yet')")
    hand.lift(2)
    page.wait_for_selector("#tip-wands li[data-wand='2'][data-state='lifted']")

    # Lifted: what is wrong, in words.
    page.click("#lift-tips")
    page.wait_for_selector("#tip-summary[data-status='problems']")
    never_clicked = "wand 4's tip never clicked: is its cable in, and is the switch soldered to the cable's fourth core?"
    assert page.inner_text("#tip-summary") == \
        f"wand 3's tip reads pressed with the wand held up: the switch is stuck; {never_clicked}"
    assert "the switch is stuck" in page.inner_text("#tip-wands li[data-wand='3']")
    assert [page.get_attribute(f"#tip-wands li[data-wand='{k}']", "data-ok") for k in (1, 2, 3, 4)] == [
        "true", "true", "false", "false"]
    assert page.is_disabled("#lift-tips")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#step-tips").screenshot(path=str(SCREENSHOTS / "calibration-tips.png"))
    hand.lift(3)  # the stuck switch freed
    page.wait_for_selector("#tip-wands li[data-wand='3'][data-state='lifted'][data-ok='true']")
    assert page.inner_text("#tip-summary") == never_clicked

    # The hub unplugged: nothing is known, and the check says it is skipped rather than failed.
    hand.plugged_in = False
    page.wait_for_selector("#tip-summary[data-status='skipped']")
    assert "this check is skipped" in page.inner_text("#tip-summary")
    assert len(page.query_selector_all("#tip-wands li[data-state='not known']")) == 4

    # Done, then the hub back and the check started afresh: nothing is ticked from before.
    page.click("#end-tips")
    assert page.is_disabled("#lift-tips") and page.is_disabled("#end-tips")
    hand.plugged_in = True
    page.click("#start-tips")
    page.wait_for_selector("#tip-summary[data-status='pressing']")
    assert "4 of 4 tips not seen pressed yet" in page.inner_text("#tip-summary")
    assert page.is_enabled("#lift-tips")
    assert errors == []


def test_refusals_are_said_in_words_and_change_nothing(chromium: Any, url: str, table: StagedTable, desk: CalibrationDesk) -> None:
    page = chromium.new_context().new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{url}/calibration")  # not joined: sent to the join page first (the picture is private)
    page.wait_for_url("**/join?next=/calibration")
    before = desk.profile_path.read_bytes()
    page.goto(f"{url}/join?code={CODE}&next=/calibration")
    page.wait_for_url(on_calibration_page)
    go(page, "layout")
    page.click("#save-layout", force=True)  # nothing tapped yet: the button is disabled, nothing is sent
    assert desk.profile_path.read_bytes() == before
    go(page, "check")
    with page.expect_response("**/api/calibration/validation") as answer:
        page.click("#start-validation")
    assert answer.value.status == 422
    assert json.loads(answer.value.text())["error"].startswith("lay out the places first")
    page.wait_for_selector("#error:has-text('lay out the places first')")
    # A profile for another camera mode is copied in: refused with its reason, the last good one in use.
    save_profile(load(desk.profile_path).with_parts(image={"width": 1280, "height": 720}), desk.profile_path)
    page.reload()
    page.wait_for_selector("#refused:has-text('made for 1280x720 images but the camera gives 640x480')")
    assert "using the last good profile" in page.inner_text("#refused")
    page.evaluate("localStorage.setItem('incanto.language', 'de')")  # the same refusal on a German tablet
    page.reload()
    page.wait_for_selector("#refused:has-text('wurde für Bilder mit 1280x720 gemacht, die Kamera liefert aber 640x480')")
    assert "bis dahin gilt das letzte gute Profil" in page.inner_text("#refused")
    known = page.text_content("#profile-lines") or ""  # what the Pi knows, in German too
    assert "Kamera: vermessen bei 640x480" in known and "Tisch: nicht eingerichtet" in known, known
    assert "camera" not in known and "table" not in known and "refused" not in known, known
    page.evaluate("localStorage.setItem('incanto.language', 'en')")
    page.reload()
    page.wait_for_selector("#refused:has-text('made for 1280x720 images')")
    assert "camera: calibrated 640x480" in page.text_content("#profile-lines")
    sheet = page.request.get(page.get_attribute("#sheet-pdf", "href") and f"{url}/api/calibration/markers.pdf")
    assert sheet.status == 200 and sheet.body().startswith(b"%PDF") and b"/MediaBox" in sheet.body()


def test_the_camera_is_measured_from_board_photos_on_the_tablet(chromium: Any, url: str, table: StagedTable,
                                                                 desk: CalibrationDesk) -> None:
    desk.profile_path.unlink()  # nothing measured yet
    last_good(desk.profile_path).unlink()
    boards = table.boards(8)
    page, _ = joined_page(chromium, url)
    page.wait_for_selector("#steps li[data-step='camera'][data-done='false']")
    page.click("#photo-board")  # the table, no board in view
    page.wait_for_selector("#error:has-text('the whole board is not in the picture')")
    table.stage = "board"
    for pose in range(len(boards)):
        table.board_pose = pose
        time.sleep(0.4)  # the next picture reaches the feed
        page.click("#photo-board")
        page.wait_for_selector(f"#message:has-text('board photo {pose + 1} kept')")
    page.click("#measure-camera")
    page.wait_for_selector("#message:has-text('camera measured from')")
    measured, truth = load(desk.profile_path).camera, table.camera
    assert measured.fx == pytest.approx(truth.fx, rel=0.03) and measured.cy == pytest.approx(truth.cy, abs=12)
    page.wait_for_selector("#steps li[data-step='camera'][data-done='true']")
    # With the measured camera, the table is found as with the renderer's own.
    table.point()
    time.sleep(0.4)
    page.click("#next")
    page.click("#find-table")
    page.wait_for_selector("#message:has-text('table found from markers [0, 1, 2, 3]')")
    pose, real = load(desk.profile_path).table, table.camera.calibration().table
    assert pose is not None and real is not None
    assert np.linalg.norm(np.array(pose.tvec) - np.array(real.tvec)) < 40.0


def test_the_status_page_says_what_calibration_changed_when_and_from_where(chromium: Any, url: str) -> None:
    """Calibration changes the table for everyone: the status page names the change, its time and who
    made it (here the Pi's own screen, where the tablet's browser runs)."""
    page, errors = joined_page(chromium, url)
    page.wait_for_function("document.getElementById('live')?.naturalWidth === 640")
    page.goto(f"{url}/status")
    page.wait_for_selector('[data-device]')
    assert page.query_selector('[data-part="calibration-changes"]') is None  # nothing changed yet
    page.goto(f"{url}/calibration")
    page.wait_for_function("document.getElementById('live')?.naturalWidth === 640")
    go(page, "table")
    page.click("#find-table")
    page.wait_for_selector("#message:has-text('table found')")
    page.goto(f"{url}/status")
    change = page.wait_for_selector('[data-part="calibration-changes"] li')
    words = change.inner_text()
    assert words.startswith("table found, ") and ", from " in words and "from the tablet" not in words, words
    assert errors == []
