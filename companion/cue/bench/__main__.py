"""`python -m companion.cue.bench [--panel dev|held-out] [--quick] [--json]`: the spoken cue's figures."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from companion.cue.bench import measure
from companion.figures import print_figures


def main(argv: Sequence[str] | None = None) -> int:
    args = argparse.ArgumentParser(prog="python -m companion.cue.bench", description=__doc__)
    args.add_argument("--panel", choices=("held-out", "dev"), default="held-out",
                      help="held-out: the engine fixed in held_out.json (the headline); dev: the voices tuned on")
    args.add_argument("--quick", action="store_true", help="three voices and five minutes of each talk")
    args.add_argument("--json", action="store_true", help="print one JSON object")
    parsed = args.parse_args(argv)
    print_figures(measure(parsed.quick, parsed.panel), parsed.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
