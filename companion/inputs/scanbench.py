"""`python -m companion.inputs.scanbench --json`: what one scan of the hub's inputs costs.

The hub stamps every input of one scan with the same microsecond, so the scan's length is the width
of a tie; tip switches add eight inputs to it. Each figure is microseconds per `Hub.scan`, averaged
over SCANS scans, under the real MicroPython interpreter (WebAssembly, in Node.js; the Pico itself is
several times slower) and under CPython:

    scan_us_idle_<impl>          nothing pressed, nothing moving (nearly every scan of a night)
    scan_us_tips_bouncing_<impl> every tip switch chattering (a change every scan), the worst case
    scan_us_button_bouncing_<impl>  every button chattering, for comparison

MicroPython figures need `node` and the npm package `@micropython/micropython-webassembly-pyscript`
(`make venv`); without them only the CPython figures are printed.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from companion.figures import print_figures
from companion.inputs.firmware import hub_module, hub_source

SCANS = 20000
ROOT = Path(__file__).resolve().parents[2]
MICROPYTHON = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"

# Runs under both interpreters: `hub` is firmware/hub.py, `clock()` the interpreter's microseconds.
BENCH = """
class _Nothing:
    def read(self):
        return 0

    def show(self, index, on):
        pass


def _cost(masks, clock):
    the_hub = hub.Hub(_Nothing(), _Nothing(), lambda: 0, lambda a, b: a - b, lambda line: None)
    start = clock()
    for i in range(SCANS):
        the_hub.scan(masks[i % len(masks)], i * 50)
    return (clock() - start) / SCANS


def figures(clock):
    tips = ((1 << hub.MAX_WANDS) - 1) << hub.TIP_BIT
    buttons = (1 << hub.MAX_WANDS) - 1
    return {"idle": _cost([0], clock), "tips_bouncing": _cost([0, tips], clock),
            "button_bouncing": _cost([0, buttons], clock)}
"""

RUNNER = """
const [moduleUrl, hubFile, benchFile] = process.argv.slice(1);
const { readFileSync } = await import("node:fs");
const { loadMicroPython } = await import(moduleUrl);
const out = [];
const mp = await loadMicroPython({ heapsize: 4 * 1024 * 1024, stdout: (l) => out.push(l), linebuffer: true });
mp.FS.writeFile("/hub.py", readFileSync(hubFile, "utf8"));
mp.FS.writeFile("/scanbench.py", readFileSync(benchFile, "utf8"));
mp.runPython("import json, time, scanbench\\nprint(json.dumps(scanbench.figures(time.ticks_us)))");
process.stdout.write(out.join("\\n") + "\\n");
"""


def cpython() -> dict[str, float]:
    scope = {"hub": hub_module(), "SCANS": SCANS}
    exec(compile(BENCH, "scanbench", "exec"), scope)
    return dict(scope["figures"](lambda: time.perf_counter_ns() / 1000))  # type: ignore[operator]


def micropython() -> dict[str, float] | None:
    node = shutil.which("node")
    if node is None or not MICROPYTHON.is_file():
        return None
    with tempfile.TemporaryDirectory() as folder:
        bench = Path(folder) / "scanbench.py"
        bench.write_text(f"import hub\nSCANS = {SCANS}\n{BENCH}", encoding="utf-8")
        result = subprocess.run([node, "--input-type=module", "-e", RUNNER, MICROPYTHON.as_uri(), str(hub_source()),
                                 str(bench)], capture_output=True, text=True, timeout=300, check=True)
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


def measure() -> dict[str, float]:
    figures: dict[str, float] = {}
    for impl, found in (("micropython", micropython()), ("cpython", cpython())):
        for name, value in (found or {}).items():
            figures[f"scan_us_{name}_{impl}"] = round(value, 2)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.inputs.scanbench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="one JSON object")
    print_figures(measure(), parser.parse_args(argv).json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
