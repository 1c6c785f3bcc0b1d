"""``incanto install`` (``sudo make install``): the Pi boots into a table.

Writes the service (``incanto.service``: ``incanto serve`` with its night in ``/var/lib/incanto``,
restarted on failure) and, when a screen is attached, the kiosk (an autostart entry of the desktop
that shows the board, with the join code and its QR code, full screen in Chromium). On the Pi itself
(``--root /``, the default) it then enables and starts the service; under another root (``--root DIR``
or ``DESTDIR=DIR``, for an image being built or a test) it only writes the files, with the links
``systemctl enable`` would make, and prints the commands it left for the Pi.
"""
from __future__ import annotations

import argparse
import grp
import os
import pwd
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from companion.night_at_the_table import CannotStart, screen

TEMPLATE_EXEC = "/opt/incanto/bin/incanto"  # where the shipped unit and entry say Incanto lives
SERVICE, KIOSK = "incanto.service", "incanto-kiosk.desktop"
UNIT_DIR, WANTS, AUTOSTART = Path("etc/systemd/system"), Path("etc/systemd/system/multi-user.target.wants"), Path("etc/xdg/autostart")
GROUPS = ("dialout", "video", "audio", "gpio")  # the hub's serial port, the camera, the speaker and mic, the LED
USER_NAME = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")


@dataclass
class Plan:
    """What an install writes (path under the root -> text), links to make, and commands to run."""

    files: dict[Path, str] = field(default_factory=dict)
    links: dict[Path, str] = field(default_factory=dict)
    commands: list[list[str]] = field(default_factory=list)


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="incanto install", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", type=Path, default=Path(os.environ.get("DESTDIR") or "/"),
                        help="install under this folder instead of / (default: $DESTDIR, else /)")
    parser.add_argument("--user", help="the account the service runs as (default: the owner of this Incanto's "
                                       "virtualenv, so the service can read it; root's: 'incanto')")
    parser.add_argument("--exec", dest="executable", type=Path, default=default_executable(),
                        help="the incanto command the service runs (default: this one, %(default)s)")
    parser.add_argument("--kiosk", choices=("auto", "yes", "no"), default="auto",
                        help="the board full screen on the Pi's own screen (auto: when a screen is attached)")
    return parser.parse_args(argv)


def default_executable() -> Path:
    """The ``incanto`` beside the running Python: the virtualenv this Incanto is installed in."""
    return Path(sys.executable).parent / "incanto"


def default_user(executable: Path) -> str:
    owner = pwd.getpwuid(executable.parent.stat().st_uid).pw_name if executable.parent.exists() else "root"
    return "incanto" if owner == "root" else owner


def plan(executable: Path, user: str, kiosk: bool, groups: tuple[str, ...] = GROUPS) -> Plan:
    """The files of an install, checked: an executable path that is not absolute or a user name that
    is not one are refused, naming the value."""
    if not executable.is_absolute():
        raise CannotStart(f"the incanto command must be an absolute path, not {str(executable)!r}")
    if not USER_NAME.match(user):
        raise CannotStart(f"{user!r} is not a user name")
    shipped = resources.files("companion.night_at_the_table") / "data"
    unit = (shipped / SERVICE).read_text().replace(TEMPLATE_EXEC, str(executable))
    unit = re.sub(r"(?m)^User=.*$", f"User={user}", unit)
    unit = re.sub(r"(?m)^SupplementaryGroups=.*$", f"SupplementaryGroups={' '.join(groups)}", unit)
    made = Plan({UNIT_DIR / SERVICE: unit}, {WANTS / SERVICE: f"../{SERVICE}"})
    if kiosk:
        made.files[AUTOSTART / KIOSK] = (shipped / KIOSK).read_text().replace(TEMPLATE_EXEC, str(executable))
    return made


def write(made: Plan, root: Path) -> list[Path]:
    """Every file and link under ``root``; returns what was written."""
    written = []
    for path, text in made.files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        target.chmod(0o644)
        written.append(target)
    for path, points_at in made.links.items():
        link = root / path
        link.parent.mkdir(parents=True, exist_ok=True)
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(points_at)
        written.append(link)
    return written


def on_the_pi(user: str) -> list[list[str]]:
    """What installing on the running system does after writing: the account, then the service."""
    commands = []
    try:
        pwd.getpwnam(user)
    except KeyError:
        commands.append(["useradd", "--system", "--home-dir", "/var/lib/incanto", "--groups", ",".join(existing_groups()), user])
    return commands + [["systemctl", "daemon-reload"], ["systemctl", "enable", "--now", SERVICE]]


def existing_groups() -> tuple[str, ...]:
    """Of the groups the service wants, those this system has (``gpio`` only exists on Raspberry Pi OS)."""
    found = []
    for name in GROUPS:
        try:
            grp.getgrnam(name)
        except KeyError:
            continue
        found.append(name)
    return tuple(found)


def main(argv: list[str]) -> int:
    args = parse(argv)
    try:
        return install(args)
    except CannotStart as e:
        print(f"incanto install: {e}", file=sys.stderr)
        return 2


def install(args: argparse.Namespace) -> int:
    real = args.root.resolve() == Path("/")
    if real and os.geteuid() != 0:
        raise CannotStart("installing the service needs root: run 'sudo make install' (or --root DIR to write the files elsewhere)")
    if real and not args.executable.exists():
        raise CannotStart(f"no incanto command at {str(args.executable)!r}: give --exec PATH")
    user = args.user or default_user(args.executable)
    screens = screen.attached()
    kiosk = args.kiosk == "yes" or (args.kiosk == "auto" and bool(screens))
    made = plan(args.executable, user, kiosk, existing_groups() if real else GROUPS)
    for path in write(made, args.root):
        print(f"wrote {path}")
    commands = on_the_pi(user) if real else []
    for command in commands:
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise CannotStart(f"{' '.join(command)} failed: {done.stderr.strip().splitlines()[-1:] or done.returncode}")
    print(summary(kiosk, screens, real, user))
    return 0


def summary(kiosk: bool, screens: list[str], real: bool, user: str) -> str:
    lines = [f"the service runs as {user!r}, its night in /var/lib/incanto"]
    if kiosk:
        lines.append("the board shows full screen on the Pi's screen after the next login to the desktop")
    else:
        lines.append(f"no kiosk ({'no screen attached' if not screens else 'not asked for'}): "
                     "'incanto status' prints the join code, and the speaker says it at start")
    if not real:
        lines.append("on the Pi: systemctl daemon-reload && systemctl enable --now incanto.service")
    elif shutil.which("chromium") is None and shutil.which("chromium-browser") is None and kiosk:
        lines.append("Chromium is not installed: sudo apt install chromium (the kiosk needs it)")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
