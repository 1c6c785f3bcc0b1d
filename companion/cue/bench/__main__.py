"""`python -m companion.cue.bench [--panel dev|held-out|spent] [--quick] [--talk-hours H] [--config FILE] [--jobs 2] [--cache DIR] [--json]`:
the spoken cue's figures."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from companion.cue import CueError
from companion.cue import config as cue_config
from companion.cue.bench import measure
from companion.cue.config import CueConfig
from companion.figures import print_figures


def main(argv: Sequence[str] | None = None) -> int:
    args = argparse.ArgumentParser(prog="python -m companion.cue.bench", description=__doc__)
    args.add_argument("--panel", choices=("held-out", "dev", "spent"), default="held-out",
                      help="held-out: the engine fixed in held_out.json (the headline); dev: the voices tuned on; "
                           "spent: the last held-out engine already spent, one the chant model never heard (tuning)")
    args.add_argument("--quick", action="store_true", help="three voices, two styles each, five minutes of each talk")
    args.add_argument("--talk-hours", type=_hours, default=None,
                      help="hours of table talk to listen to for false cues, and as long of near misses "
                           "(default a game night, 4; with --quick five minutes)")
    args.add_argument("--config", help="cue settings JSON to measure instead of the defaults (for tuning on the dev panel)")
    args.add_argument("--jobs", type=int, choices=(1, 2), default=1,
                      help="2: listen to the two long talks in processes of their own, beside the chants")
    args.add_argument("--cache", type=Path, default=None,
                      help="keep the synthesised speech in this folder for the next run (tuning; default a fresh one)")
    args.add_argument("--json", action="store_true", help="print one JSON object")
    parsed = args.parse_args(argv)
    try:
        config = cue_config.load(parsed.config) if parsed.config else CueConfig()
    except CueError as e:
        args.error(str(e))
    print_figures(measure(parsed.quick, parsed.panel, parsed.talk_hours, config, parsed.jobs, parsed.cache), parsed.json)
    return 0


def _hours(text: str) -> float:
    """A length of talk: more than none, at most a long night (argparse names the bad value)."""
    try:
        hours = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of hours") from None
    if not 0 < hours <= 12:
        raise argparse.ArgumentTypeError(f"{text!r} hours: give more than 0 and at most 12")
    return hours


if __name__ == "__main__":
    sys.exit(main())
