"""``incanto kiosk``: the board full screen on the Pi's own screen, started by the desktop's autostart
entry that ``incanto install`` writes. It waits for the display to answer (the service may still be
starting), then becomes Chromium in kiosk mode on ``http://127.0.0.1:PORT/`` (the display listens on
IPv4; ``localhost`` would try IPv6 first): the Pi's own screen, so the board shows the join code and its
QR code."""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from companion.night_at_the_table import CannotStart, data_dir
from companion.night_at_the_table import settings as night_settings

BROWSERS = ("chromium", "chromium-browser")  # Debian's name, and Raspberry Pi OS's before Bookworm
KIOSK_FLAGS = ("--kiosk", "--noerrdialogs", "--disable-infobars", "--no-first-run", "--disable-session-crashed-bubble",
               "--disable-features=Translate", "--password-store=basic", "--check-for-update-interval=31536000")


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="incanto kiosk", description=__doc__)
    parser.add_argument("--data-dir", type=Path, default=Path("/var/lib/incanto"),
                        help="the service's data directory, for the port in its settings.json (default %(default)s)")
    parser.add_argument("--port", type=int, help="the display's port (default: the settings file's, else 8000)")
    parser.add_argument("--browser", help="the browser to run (default: chromium, else chromium-browser)")
    parser.add_argument("--wait", type=float, default=120.0, help="seconds to wait for the display (default %(default)s)")
    return parser.parse_args(argv)


def port_of(folder: Path, given: int | None) -> int:
    if given is not None:
        return given
    path = folder / data_dir.SETTINGS
    shown = night_settings.read(path if path.exists() else None).get("display", {})
    return int(shown.get("port", 8000))


def browser_command(browser: str, url: str) -> list[str]:
    return [browser, *KIOSK_FLAGS, url]


def wait_for_display(url: str, seconds: float, step_s: float = 0.5) -> bool:
    """True once the display answers at ``url``; False after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                return bool(answer.status == 200)
        except (urllib.error.URLError, OSError):
            if time.monotonic() >= deadline:
                return False
            time.sleep(step_s)


def main(argv: list[str]) -> int:
    args = parse(argv)
    try:
        browser = args.browser or next((b for b in BROWSERS if shutil.which(b)), None)
        if browser is None:
            raise CannotStart("Chromium is not installed: sudo apt install chromium")
        url = f"http://127.0.0.1:{port_of(args.data_dir, args.port)}/"
    except CannotStart as e:
        print(f"incanto kiosk: {e}", file=sys.stderr)
        return 2
    if not wait_for_display(url, args.wait):
        print(f"incanto kiosk: the display did not answer at {url} (is the incanto service running? "
              "systemctl status incanto)", file=sys.stderr)
        return 1
    os.execvp(browser, browser_command(browser, url))
