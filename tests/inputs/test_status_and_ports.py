"""Finding the hub, the status page snapshot, and the bench's parts that must not invent presses."""
from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

import pytest

from companion.inputs import bench
from companion.inputs.link import Backoff, find_hub_port
from companion.inputs.status import InputStatus


def test_the_hub_is_found_by_its_usb_ids() -> None:
    ports = [SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403, pid=0x6001),
             SimpleNamespace(device="/dev/ttyACM1", vid=0x2E8A, pid=0x0005)]
    with mock.patch("serial.tools.list_ports.comports", return_value=ports):
        assert find_hub_port() == "/dev/ttyACM1"
        assert find_hub_port(0x1234, 0x5678) is None


def test_backoff_grows_to_a_cap_and_resets() -> None:
    backoff = Backoff(0.05, 0.4)
    assert [backoff.take() for _ in range(6)] == [0.05, 0.1, 0.2, 0.4, 0.4, 0.4]
    backoff.reset()
    assert backoff.take() == 0.05


def test_status_snapshot_is_plain_json_and_records_problems() -> None:
    status = InputStatus()
    status.problem("hub port '/dev/ttyACM0' vanished")
    status.update(garbage=3, garbage_by_reason={"bad_checksum": 3})
    snapshot = status.snapshot()
    assert json.loads(json.dumps(snapshot)) == snapshot
    assert snapshot["last_error"] == "hub port '/dev/ttyACM0' vanished"
    assert snapshot["garbage_by_reason"] == {"bad_checksum": 3}
    with pytest.raises(AttributeError, match="'colour'"):
        status.update(colour="red")


def test_random_bytes_through_the_pty_invent_no_press(tmp_path: Path) -> None:
    figures = bench.measure_garbage(tmp_path, total=8000)
    assert figures["garbage_phantom_presses"] == 0
    assert figures["garbage_presses_lost"] == 0
    assert figures["garbage_real_presses"] == 2
    assert figures["garbage_lines_rejected"] > 0


def test_missing_cue_figures_are_null_with_a_reason(capsys: pytest.CaptureFixture[str]) -> None:
    with mock.patch.dict("sys.modules", {"companion.cue.bench": None}):
        assert bench.cue_figures() == dict.fromkeys(bench.CUE_KEYS)
    assert "cue figures unavailable" in capsys.readouterr().err


def test_each_press_sent_is_matched_to_when_it_was_made() -> None:
    made = bench.made_times([0.0, 0.1, 0.2, 0.3], wands=2)
    assert made == {1: [0.0, 0.2], 2: [0.1, 0.3]}
    assert bench.made_order([(2, 5), (1, 6), (1, 9), (2, 11)], made) == [0.1, 0.0, 0.2, 0.3]


def test_the_driven_hub_in_its_own_process_delivers_every_scheduled_press(tmp_path: Path) -> None:
    """The bench's press stream: the simulated hub in a process of its own, pressed on a schedule."""
    figures = bench.measure_stream(tmp_path, rate=20, seconds=1.0)
    assert figures["presses_made"] == figures["presses_sent_by_hub"] == 20
    assert figures["presses_lost"] == 0 and figures["press_to_event_ms_p99"] is not None
