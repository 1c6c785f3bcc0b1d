"""The camera's question in Debian's Chromium: one look and one tap per wand, at phone and tablet size.

The rendered table is the camera and the real pipeline reads it; two wands are held between two
tokens, so the table is asked about both. The question must be the only thing on the controls, with
nothing over its buttons (the reading banner showing), each tap marked at once on every tablet, a
second cue during it joining it, and the casting made once, when the last wand is answered.
"""
from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

from companion.cue import Cue
from companion.night_at_the_table.rendered import RenderedTable
from companion.status import StatusBoard
from companion.tableside import TableSide, TableSideConfig
from companion.tableside.places import standard_places
from companion.web.settings import Settings

from .conftest import IN_CHROMIUM

pytestmark = IN_CHROMIUM
SIZES = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 1024, "height": 768}}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PAIRS = (("r1", "r2"), ("r4", "r5"))  # side by side in the room: a wand held between is the camera's to ask


@pytest.fixture
def game_name() -> str:
    return "incantibus"


@pytest.fixture
def seeing(app: FastAPI, status: StatusBoard, tmp_path: Path) -> Iterator[tuple[TableSide, RenderedTable]]:
    """The table side wired to the display as ``serve`` wires it, the rendered table as its camera."""
    table = app.state.table
    view = table.view()
    rendered = RenderedTable(standard_places(), [p["name"] for p in view["players"]], view["wands"])
    rendered.lay_out(list(view["legal"]["tokens"]))
    config = TableSideConfig(hub="none", camera="render", mic=False,
                             calibration=rendered.save_calibration(tmp_path / "calibration.json"))
    with TableSide(table, status, config, publish=app.state.hub.publish, opener=lambda: rendered) as side:
        deadline = time.monotonic() + 20
        while not side.camera.sees and time.monotonic() < deadline:
            time.sleep(0.05)
        assert side.camera.sees, status.snapshot()
        yield side, rendered


def readings(side: TableSide, count: int) -> Any:
    """The reader's latest reading once it has finished ``count`` in all."""
    with side.reader.finished:
        assert side.reader.finished.wait_for(lambda: side.reader.count >= count, timeout=30)
        return side.reader.last


def open_controls(chromium: Any, server: str, size: dict[str, int], code: str) -> tuple[Any, Any, list[str]]:
    context = chromium.new_context(viewport=size, has_touch=size["width"] < 600)
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/join?code={code}")
    page.wait_for_url("**/controls")
    page.wait_for_selector('#connection[data-state="live"]')
    page.wait_for_selector("main > section")
    return context, page, errors


def uncovered(page: Any, selector: str) -> None:
    """Every element matching ``selector``, scrolled to, lies in the viewport, clear of the banner, and is
    the top element at its centre: a finger landing on it presses it."""
    buttons = page.query_selector_all(selector)
    assert buttons, selector
    banner = page.query_selector(".notice-banner")
    for button in buttons:
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        seen = page.viewport_size
        edge = 0.5  # px: a box scrolled to the viewport's edge may end a fraction of a pixel past it
        assert box and box["x"] >= -edge and box["y"] >= -edge and box["x"] + box["width"] <= seen["width"] + edge \
            and box["y"] + box["height"] <= seen["height"] + edge, (button.inner_text(), box, seen)
        shown = banner.bounding_box() if banner and banner.is_visible() else None
        if shown:
            apart = (box["x"] + box["width"] <= shown["x"] or shown["x"] + shown["width"] <= box["x"]
                     or box["y"] + box["height"] <= shown["y"] or shown["y"] + shown["height"] <= box["y"])
            assert apart, (button.inner_text(), box, shown)
        on_top = button.evaluate("""b => { const r = b.getBoundingClientRect();
            const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
            return hit === b || b.contains(hit); }""")
        assert on_top, button.inner_text()


@pytest.mark.parametrize("size", SIZES)
def test_a_two_wand_question_is_answered_from_the_pictures_candidates(
        chromium: Any, server: str, settings: Settings, seeing: tuple[TableSide, RenderedTable],
        size: str) -> None:
    side, rendered = seeing
    table = side.table
    view = table.view()
    legal = view["legal"]["targets"]
    players = view["legal"]["players"]
    assert all(p in legal[q] for q in players[:2] for pair in PAIRS for p in pair), legal
    one, page, errors = open_controls(chromium, server, SIZES[size], settings.join_code)
    two, other, other_errors = open_controls(chromium, server, SIZES["tablet"], settings.join_code)  # another tablet

    # Lera and Kirill hold their wands between two tokens; the others point at theirs.
    asked = dict(zip(players[:2], PAIRS))
    targets = {**asked, players[2]: "r0", players[3]: "r6"}
    start = rendered.point({view["wands"][p]: t for p, t in targets.items()})
    side.reader.on_cue(Cue("hub", start))
    first = readings(side, 1)
    assert first.outcome == "asked", first
    for p in (page, other):
        p.wait_for_selector(f'[data-question="{first.question_id}"]')
        p.wait_for_selector('.notice-banner[data-kind="reading"]:not([hidden])')  # the reading, on every tablet
    # The question is the only thing on the controls: no casting picker, no history, no cue button.
    assert page.eval_on_selector_all("main > section", "s => s.map(x => x.className)") == ["question"]
    assert page.query_selector('[data-do="cast"]') is None
    wands = page.query_selector_all(".asked-wand")
    assert [w.get_attribute("data-player") for w in wands] == sorted(players[:2], key=view["wands"].get)  # wand order
    for w in wands:  # one look: the camera's picture of the wand, loaded
        assert w.query_selector("img.wand-picture").evaluate("i => i.complete && i.naturalWidth") == 480
    names = page.eval_on_selector_all("button.answer", "bs => bs.map(b => b.innerText.trim())")
    assert names and not any(re.search(r"\b[rpbs]\d+\b", name) for name in names), names  # the game's words, no ids
    uncovered(page, "button.answer")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]  # never scrolled sideways

    # Lera's wand: the camera's first candidate. Marked at once here and on the other tablet.
    lera, kirill = players[:2]
    choice = page.get_attribute(f'.asked-wand[data-player="{lera}"] button.answer', "data-target")
    page.click(f'.asked-wand[data-player="{lera}"] button.answer[data-target="{choice}"]')
    for p in (page, other):
        p.wait_for_selector(f'.asked-wand[data-player="{lera}"][data-marked="yes"] '
                            f'button.answer[data-target="{choice}"][aria-pressed="true"]')
    assert table.view()["version"] == view["version"]  # nothing cast yet

    # A second cue while the table answers: it joins the question; nothing vanishes, the mark stays.
    side.reader.on_cue(Cue("hub", time.monotonic()))
    joined = readings(side, 2)
    assert (joined.outcome, joined.question_id) == ("joined", first.question_id)
    page.wait_for_function("m => document.querySelector('.notice-banner .notice-message').innerText === m",
                           arg=joined.message)
    assert len(table.questions.open()) == 1
    assert page.get_attribute(f'.asked-wand[data-player="{lera}"]', "data-marked") == "yes"
    uncovered(page, "button.answer")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"incantibus-question-{size}.png"), full_page=True)

    # A change of mind on Lera's wand, then Kirill's: the last tap makes the casting, once.
    other_choice = next(t for t in page.eval_on_selector_all(f'.asked-wand[data-player="{lera}"] button.answer',
                                                              "bs => bs.map(b => b.dataset.target)") if t != choice)
    page.click(f'.asked-wand[data-player="{lera}"] button.answer[data-target="{other_choice}"]')
    other.wait_for_selector(f'.asked-wand[data-player="{lera}"] button.answer[data-target="{other_choice}"][aria-pressed="true"]')
    kirill_choice = page.get_attribute(f'.asked-wand[data-player="{kirill}"] button.answer', "data-target")
    page.click(f'.asked-wand[data-player="{kirill}"] button.answer[data-target="{kirill_choice}"]')
    for p in (page, other):
        p.wait_for_function("v => window.incanto.model.game.version === v", arg=view["version"] + 1)
        p.wait_for_selector('[data-do="cast"], [data-part="history"]')  # the controls are back
    casts = [e["payload"] for e in table.history() if e["kind"] == "action" and e["payload"]["type"] == "cast"]
    answered = {lera: other_choice, kirill: kirill_choice}
    assert len(casts) == 1 and {p: casts[0]["targets"][p] for p in asked} == \
        {p: None if t == "none" else t for p, t in answered.items()}
    assert table.questions.open() == [] and dict(side.reader.outcomes) == {"asked": 1, "joined": 1}
    assert errors == [] and other_errors == []
    one.close()
    two.close()
