"""Joining from a phone, in Debian's Chromium: the QR code on the Pi's own screen (the board at
localhost) carries the Pi's address on the table's network, a phone that follows it lands on the
controls, and Enter on the join page's keyboard submits the code."""
from __future__ import annotations

import ipaddress
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import cv2
import numpy as np
import pytest
from fastapi import FastAPI

from companion.night_at_the_table import show_join_address
from companion.night_at_the_table.address import JoinAddress, join_address
from companion.web.serve import running
from companion.web.settings import Settings

from .conftest import IN_CHROMIUM

pytestmark = IN_CHROMIUM
PHONE = {"width": 390, "height": 844}
PI_SCREEN = {"width": 1280, "height": 720}


@pytest.fixture
def on_the_network() -> JoinAddress:
    where = join_address()
    if where.alone:
        pytest.skip("this machine is on no network: there is no address but loopback to put in the QR code")
    return where


@pytest.fixture
def listening(app: FastAPI, on_the_network: JoinAddress) -> Iterator[int]:
    """The display on every interface, as ``serve`` runs it on the Pi; yields its port."""
    with running(app, "0.0.0.0", 0) as local:
        port = int(local.rsplit(":", 1)[1])
        show_join_address(app, "0.0.0.0", port)
        yield port


def read_qr(page: Any) -> str:
    """Decode the QR code as a phone's camera would: from the pixels on the screen. OpenCV's classic
    detector misses about one code in a hundred drawn at this size (which one depends on the random
    port and join code), as a phone's first frame sometimes does; a phone tries again, and so does this:
    both of OpenCV's detectors, at three magnifications."""
    shot = page.locator('[data-part="join"] svg').screenshot()
    picture = cv2.imdecode(np.frombuffer(shot, np.uint8), cv2.IMREAD_GRAYSCALE)
    for detector in (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()):
        for scale in (2, 1, 3):
            seen = cv2.copyMakeBorder(cv2.resize(picture, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST),
                                      40, 40, 40, 40, cv2.BORDER_CONSTANT, value=255)
            text, _, _ = detector.detectAndDecode(seen)
            if text:
                return str(text)
    raise AssertionError("the QR code on the board could not be read")


def test_the_qr_code_on_the_pis_screen_takes_a_phone_to_the_controls(chromium: Any, listening: int,
                                                                       settings: Settings) -> None:
    screen = chromium.new_context(viewport=PI_SCREEN)
    board = screen.new_page()
    board.goto(f"http://127.0.0.1:{listening}/")  # the kiosk on the Pi itself
    board.wait_for_selector('[data-part="join"] svg')
    url = read_qr(board)
    parts = urlsplit(url)
    assert parts.hostname is not None and not ipaddress.ip_address(parts.hostname).is_loopback, url
    assert parts.port == listening and parts.path == "/join" and parse_qs(parts.query)["code"] == [settings.join_code]
    assert board.inner_text('[data-part="join-url"]') == url
    screen.close()

    phone = chromium.new_context(viewport=PHONE)
    page = phone.new_page()
    page.goto(url)
    page.wait_for_url("**/controls")
    page.wait_for_selector('#connection[data-state="live"]')
    phone.close()


def test_enter_on_the_join_page_submits_the_code(chromium: Any, listening: int, on_the_network: JoinAddress,
                                                 settings: Settings) -> None:
    phone = chromium.new_context(viewport=PHONE)
    page = phone.new_page()
    page.goto(on_the_network.lan_url(listening, "/join"))
    page.fill("#code", "000000")
    page.press("#code", "Enter")
    page.wait_for_selector("#join-message:has-text(\"'000000' is not the one shown on the display\")")
    page.fill("#code", settings.join_code)
    page.press("#code", "Enter")
    page.wait_for_url("**/controls")
    phone.close()
