"""Incanto's vision tools.

    python -m vision bench [--json] [--quick|--heldout] accuracy and speed on rendered castings (--heldout:
                                                       fresh seeds from a secret, told after the run)
    python -m vision watch --source SOURCE [--out DIR]  the annotated view, on screen or into DIR
    python -m vision markers [--json] [--quick]        the wand-marker options compared
    python -m vision record --source SPEC --out DIR     keep a night's frames, cues and profile
    python -m vision read --recording DIR [--json]      read every casting of a recording again
"""
from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    if command == "bench":
        from vision.bench import main as bench
        return bench(rest)
    if command == "watch":
        from vision.watch import main as watch
        return watch(rest)
    if command == "markers":
        from vision.bench.markers import main as markers
        return markers(rest)
    if command in ("record", "read"):
        from vision import record_cli
        return record_cli.record(rest) if command == "record" else record_cli.read(rest)
    print(f"unknown command {command!r}\n{__doc__}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
