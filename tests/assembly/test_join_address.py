"""The address the join code's QR code carries: the Pi's mDNS name while avahi announces it, else the
address its default route leaves by, else another interface's; loopback only when there is nothing
else, and then it says so."""
from __future__ import annotations

import ipaddress
import socket
from pathlib import Path

import pytest

from companion.night_at_the_table import address
from companion.night_at_the_table.address import JoinAddress, interface_addresses, join_address, routed_address


def no_mdns() -> None:
    return None


def test_the_default_routes_address_wins_over_other_interfaces() -> None:
    found = join_address(mdns=no_mdns, routed=lambda: "192.168.4.7", interfaces=lambda: ["127.0.0.1", "10.0.0.2"])
    assert found == JoinAddress("192.168.4.7", "192.168.4.7")
    assert found.url(8000, "/join") == "http://192.168.4.7:8000/join"


def test_without_a_default_route_an_interface_that_is_not_loopback() -> None:
    found = join_address(mdns=no_mdns, routed=lambda: None, interfaces=lambda: ["127.0.0.1", "10.42.0.1"])
    assert found.host == "10.42.0.1" and not found.alone


def test_a_loopback_route_is_never_taken_for_the_lan() -> None:
    found = join_address(mdns=no_mdns, routed=lambda: "127.0.1.1", interfaces=lambda: ["127.0.0.1", "172.16.0.9"])
    assert found.host == "172.16.0.9"


def test_loopback_only_when_it_is_the_only_one_and_then_it_says_so() -> None:
    found = join_address(mdns=no_mdns, routed=lambda: None, interfaces=lambda: ["127.0.0.1"])
    assert found == JoinAddress("127.0.0.1", "127.0.0.1", alone=True)


def test_the_mdns_name_goes_in_the_qr_code_and_the_number_beside_it() -> None:
    found = join_address(mdns=lambda: "incanto.local", routed=lambda: "192.168.4.7", interfaces=list)
    assert found.url(8000) == "http://incanto.local:8000/" and found.lan_url(8000) == "http://192.168.4.7:8000/"
    assert found.url(80) == "http://incanto.local/"


def test_the_mdns_name_is_the_hostname_while_avahi_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(address, "AVAHI_PID", tmp_path / "pid")
    monkeypatch.setattr(socket, "gethostname", lambda: "Incanto")
    assert address.mdns_name() is None
    (tmp_path / "pid").write_text("412\n")
    assert address.mdns_name() == "incanto.local"


def test_an_ipv6_address_is_bracketed() -> None:
    assert JoinAddress("fd00::5", "fd00::5").url(8000) == "http://[fd00::5]:8000/"


def test_this_machines_interfaces_are_read_from_the_kernel() -> None:
    """The real look-ups: loopback is among the interfaces, and the routed address is never loopback."""
    assert "127.0.0.1" in interface_addresses()
    routed = routed_address()
    if routed is None:
        pytest.skip("this machine has no default route")
    assert not ipaddress.ip_address(routed).is_loopback
    assert join_address(mdns=no_mdns).host == routed
