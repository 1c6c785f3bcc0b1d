"""``python -m companion.tableside bench [--castings N] [--json]``: the table side on the simulated table."""
from __future__ import annotations

import sys

from companion.tableside.bench import main as bench

if __name__ == "__main__":
    argv = sys.argv[1:]
    if argv[:1] != ["bench"]:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(bench(argv[1:]))
