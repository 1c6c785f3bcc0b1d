"""Mapping hub microseconds onto the host clock with the minimum filter."""
from __future__ import annotations

from companion.inputs.hubclock import HubClock


def test_the_least_delayed_sample_sets_the_offset() -> None:
    clock = HubClock()
    # Hub time 0 is host time 100.0; transport adds 3 ms, 0.5 ms, 9 ms.
    for hub_us, delay in ((1_000_000, 0.003), (2_000_000, 0.0005), (3_000_000, 0.009)):
        clock.sample(hub_us, 100.0 + hub_us / 1e6 + delay)
    assert abs(clock.to_host(5_000_000, fallback=0.0) - 105.0005) < 1e-9


def test_without_samples_the_fallback_is_used_and_a_reset_forgets() -> None:
    clock = HubClock()
    assert clock.to_host(1, fallback=42.0) == 42.0
    clock.sample(0, 10.0)
    clock.reset()
    assert clock.count == 0 and clock.to_host(1, fallback=7.0) == 7.0


def test_old_samples_leave_the_window() -> None:
    clock = HubClock(window=2)
    clock.sample(0, 10.0)            # offset 10.0, then the hub clock drifts: offsets 10.5
    clock.sample(1_000_000, 11.5)
    clock.sample(2_000_000, 12.5)
    assert clock.to_host(0, fallback=0.0) == 10.5
