"""The hub's table-driven CRC (firmware/hub.py) and the host's ``binascii.crc_hqx`` agree on random
lines, under CPython and under the real MicroPython interpreter the Pico runs."""
from __future__ import annotations

import binascii
import random
from pathlib import Path

import pytest

from companion.inputs.protocol import crc16

from .conftest import HUB, run_cpython, run_micropython

SAMPLES = 200


def samples() -> list[bytes]:
    rng = random.Random(20261201)
    return [b""] + [rng.randbytes(rng.randrange(1, 120)) for _ in range(SAMPLES)]


def crc_script(folder: Path, data: list[bytes]) -> Path:
    """A module for the interpreter: prints the hub's CRC of each sample, as the scenarios print lines."""
    path = folder / "crc_samples.py"
    path.write_text("import hub\nDATA = [\n" + "".join(f"    bytes.fromhex({d.hex()!r}),\n" for d in data) + "]\n\n"
                    "def run_all():\n    for i, d in enumerate(DATA):\n        print('OUT crc %d %04X' % (i, hub.crc16(d)))\n"
                    "    print('DONE')\n")
    return path


@pytest.mark.parametrize("run", [run_cpython, run_micropython], ids=["cpython", "micropython"])
def test_the_hubs_crc_is_binascii_crc_hqx(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data = samples()
    out = run("crc_samples", [HUB, crc_script(tmp_path, data)])
    hub = [line.split()[3] for line in out.splitlines() if line.startswith("OUT crc ")]
    assert hub == [f"{binascii.crc_hqx(d, 0xFFFF):04X}" for d in data]
    assert hub == [f"{crc16(d):04X}" for d in data]


def test_the_crc_is_ccitt_false() -> None:
    """The published check value of CRC-16/CCITT-FALSE: the hub and the host speak the same CRC."""
    assert crc16(b"123456789") == 0x29B1
