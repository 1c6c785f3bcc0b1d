"""Setting up from a tablet in the demo, in Debian's Chromium at tablet size: the guided steps walked
forward, back and skipped on the rendered camera; the chant recorded by the (simulated) Pi's microphone,
its level meter moving on the tablet, and the take enrolled."""
from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.cue.audio import read_wav

from tests.demo_process import demo_running

from .chant import three_chants

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run"]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"Debian's Chromium is not installed at {CHROMIUM}")]


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[tuple[str, str, Path]]:
    """``python -m companion demo`` as a person starts it, its Pi microphone playing three chants:
    (address, join code, the demo's store folder)."""
    chant = three_chants(tmp_path)
    with demo_running(tmp_path / "demo.sqlite", "--chant", str(chant)) as (address, code):
        yield address, code, chant


@pytest.fixture
def tablet(demo: tuple[str, str, Path]) -> Iterator[tuple[Any, list[str], str]]:
    from playwright.sync_api import sync_playwright

    address, code, _ = demo
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        page = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
        page.other_tablet = lambda: other_tablet(browser, address, code)  # type: ignore[attr-defined]
        page.set_default_timeout(20_000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{address}/")  # from the board, as a group would: the navigation leads to the setup
        page.goto(f"{address}/join?code={code}&next=/")
        page.wait_for_url(f"{address}/")
        page.click("nav a[href='/calibration']")
        page.wait_for_url(f"{address}/calibration*")
        yield page, errors, address
        browser.close()


METER = """() => { window.levels = [];
  new MutationObserver(() => window.levels.push(Number(document.getElementById('level').dataset.level)))
    .observe(document.getElementById('level'), { attributes: true, attributeFilter: ['data-level'] }); }"""


def other_tablet(browser: Any, address: str, code: str) -> Any:
    """A second tablet at the table, joined and on the chant step."""
    page = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{address}/join?code={code}&next=/calibration%23cue")
    page.wait_for_selector("#page[data-step='cue']")
    return page


def progress(page: Any) -> str:
    return str(page.inner_text("#progress-words"))


def shown(page: Any) -> str:
    """The step whose card is on screen (only one is)."""
    cards = [s.get_attribute("data-step") for s in page.query_selector_all("section.step") if s.is_visible()]
    assert len(cards) == 1, cards
    return str(cards[0])


def test_the_demo_table_is_set_up_step_by_step_from_a_tablet(tablet: tuple[Any, list[str], str],
                                                             demo: tuple[str, str, Path]) -> None:
    page, errors, _ = tablet
    chant = demo[2]
    # The demo's camera is measured and its table found already: the guide opens at the places.
    page.wait_for_selector("#page[data-step='layout']")
    assert progress(page) == "Step 3 of 7: Places" and shown(page) == "layout"
    assert page.get_attribute("#steps li[data-step='camera']", "data-done") == "true"
    assert page.get_attribute("#steps li[data-step='table']", "data-done") == "true"
    page.wait_for_function("document.getElementById('live')?.naturalWidth === 640")  # the rendered camera, live
    assert page.is_hidden("#no-camera")
    assert page.inner_text("#tap-prompt").startswith("Tap r0: room slot 0")
    assert page.is_visible("#skip") and page.is_hidden("#next")  # not done yet: skipped, not passed
    assert page.inner_text("#step-layout .found") == "not saved yet: tap each place on the picture"

    # Back: a step that is done offers Next, not Skip; the first step has no Back.
    page.click("#back")
    assert progress(page) == "Step 2 of 7: Table" and shown(page) == "table"
    assert page.is_visible("#next") and page.is_hidden("#skip")
    assert page.inner_text("#step-table .found") == "the table is found"  # (with a ✓ drawn before it)
    assert page.get_attribute("#step-table .found", "data-done") == "true"
    page.click("#find-table")  # the demo's table has its printed markers laid at their places
    page.wait_for_selector("#message:has-text('table found from markers')")
    page.click("#back")
    assert progress(page) == "Step 1 of 7: Camera" and page.is_disabled("#back")
    page.click("#next")
    page.click("#next")
    assert shown(page) == "layout"

    # Skip the places, the wands and the tip switches: each is marked skipped in the progress.
    for step in ("layout", "wands", "tips"):
        assert shown(page) == step
        page.click("#skip")
    assert progress(page) == "Step 6 of 7: Chant" and page.is_hidden("#camera-view")
    assert page.get_attribute("#steps li[data-step='wands']", "data-skipped") == "true"

    # The chant, from the Pi's microphone: the meter follows it on the tablet; Stop enrols the take.
    other = page.other_tablet()  # a second tablet at the table, on the chant step too
    assert other.is_enabled("#record")
    for tablet_page in (page, other):  # every level each meter shows, as it shows it
        tablet_page.evaluate(METER)
    page.click("#record")
    page.wait_for_selector("#record[data-recording='true']")
    assert page.inner_text("#record") == "Stop and enrol"
    # The second tablet sees that the Pi is recording, and its meter, but can neither start nor stop it.
    other.wait_for_selector("#record-note:has-text('another tablet is recording on the Pi')")
    assert other.is_disabled("#record") and other.get_attribute("#record", "data-recording") == "false"
    said = len(read_wav(chant)) / 16000
    page.wait_for_function(f"Number(document.getElementById('record-seconds').dataset.seconds) > {said + 0.3}",
                           timeout=30_000)  # all three said
    for tablet_page in (page, other):
        levels = tablet_page.evaluate("window.levels")
        loud = [k for k, level in enumerate(levels) if level > 0.05]
        assert loud and min(levels[loud[0]:]) < 0.02, levels  # loud in a chant, low between
    other.context.close()
    assert page.inner_text("#record-seconds").startswith("recording on the Pi: ")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "setup-chant.png"))
    page.click("#record")
    page.wait_for_selector("#message:has-text('3 takes of group')", timeout=30_000)
    assert page.inner_text("#message") == "3 takes of group's \"In-can-to!\" enrolled"
    page.wait_for_selector("#steps li[data-step='cue'][data-done='true']")
    assert page.is_visible("#next") and page.inner_text("#record") == "Record on the Pi"

    # On to the check, skipped too, and the summary says what was done and what was skipped.
    page.click("#next")
    assert progress(page) == "Step 7 of 7: Check"
    page.click("#skip")
    assert progress(page) == "Setup finished" and shown(page) == "done"
    summary = page.inner_text("#done-list")
    assert "Chant: done, the chant is recorded" in summary and "Wands: skipped" in summary
    page.screenshot(path=str(SCREENSHOTS / "setup-done.png"))
    # On a phone every step fits the screen: nothing scrolls sideways.
    page.set_viewport_size({"width": 390, "height": 844})
    for step in ("camera", "table", "layout", "wands", "tips", "cue", "check"):
        page.click(f"#steps li[data-step='{step}'] button")
        page.wait_for_selector(f"#page[data-step='{step}']")
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= 390, f"the {step} step is {wide} px wide on a phone"
    page.click("#steps li[data-step='check'] button")
    page.click("#skip")
    page.set_viewport_size({"width": 1024, "height": 768})
    # Opened again later, the tablet is where it was.
    page.reload()
    page.wait_for_selector("#page[data-step='done']")
    words = page.inner_text("main")
    assert "python -m" not in words and "/tmp" not in words and ".json" not in words  # no commands, no paths
    assert errors == []
