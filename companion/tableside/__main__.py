"""``python -m companion.tableside bench [--castings N] [--json]``: the table side on the simulated table.
``python -m companion.tableside lights [--castings N] [--json]``: what the wands' LEDs cost a casting.

The commands keep their names, but the benches need the simulated table (and the first a whole
night), so they live with the rest of the assembly in ``companion.night_at_the_table``; this entry
point is the one module of the table side that may reach up to it."""
from __future__ import annotations

import sys

if __name__ == "__main__":
    argv = sys.argv[1:]
    if argv[:1] == ["lights"]:
        from companion.night_at_the_table.lights_bench import main as lights
        sys.exit(lights(argv[1:]))
    if argv[:1] != ["bench"]:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    from companion.night_at_the_table.bench import main as bench
    sys.exit(bench(argv[1:]))
