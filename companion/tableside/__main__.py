"""``python -m companion.tableside bench [--castings N] [--json]``: the table side on the simulated table.

The command keeps its name, but the bench needs a whole night (store, display's table, table side),
so it lives with the rest of the assembly in ``companion.night_at_the_table.bench``; this entry point
is the one module of the table side that may reach up to it."""
from __future__ import annotations

import sys

if __name__ == "__main__":
    argv = sys.argv[1:]
    if argv[:1] != ["bench"]:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    from companion.night_at_the_table.bench import main as bench
    sys.exit(bench(argv[1:]))
