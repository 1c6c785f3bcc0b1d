"""The hub's tip switches, from the link's side: asked for after every greeting, and what the hub
answered on the status (told, or refused by firmware older than tip switches: reflash it).

The switches' states themselves travel as ``TipPressed``/``TipLifted`` events like any press.
"""
from __future__ import annotations

from collections.abc import Callable

from companion.inputs.protocol import HubError
from companion.inputs.status import InputStatus

REFLASH = "reflash the hub with mpremote (hardware.md, 'Flashing the hub')"


class TipsAsk:
    """``wanted``: ask the hub (TIPS) after every greeting: tip states heard before it (a pulled
    cable, a restart) are stale. ``send(body)``: a command, returning its host sequence number."""

    def __init__(self, wanted: bool, send: Callable[[str], int], status: InputStatus) -> None:
        self.wanted, self.send, self.status = wanted, send, status
        self._asked: str | None = None    # the host sequence number of the last TIPS

    def greeted(self) -> None:
        if self.wanted:
            self.ask()

    def ask(self) -> None:
        """TIPS: every wand's tip switch now, then each change (PROTOCOL.md, "Tip switches")."""
        self._asked = str(self.send("TIPS"))
        self.status.update(tip_switches="asked")

    def told(self) -> None:
        """The hub's `OK TIPS`: every wand's state has been sent."""
        self.status.update(tip_switches="told")

    def refused(self, error: HubError) -> bool:
        """True when the hub's ERR was its answer to TIPS: firmware from before tip switches."""
        if error.command_seq != self._asked or error.reason != "unknown_command":
            return False
        self.status.update(tip_switches="unsupported")
        self.status.problem(f"hub firmware {self.status.firmware!r} has no tip switches: the camera reads "
                            f"the wands alone; {REFLASH}")
        return True
