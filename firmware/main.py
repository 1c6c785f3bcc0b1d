# Incanto wand hub on a Raspberry Pi Pico: wires the real pins and the USB serial line into hub.py.
#
# Everything that decides anything lives in hub.py, which the tests run under MicroPython and
# CPython; this file only knows the board. Pin numbers match the wiring table in hardware.md.

import sys
import os
import select
import time

import machine

import hub

WAND_BUTTON_PINS = (2, 3, 4, 5, 6, 7, 8, 9)          # GP2..GP9, to ground through the wand button
WAND_LED_PINS = (10, 11, 12, 13, 14, 15, 16, 17)     # GP10..GP17, through the wand's resistor
CUE_BUTTON_PIN = 18                                  # GP18
WAND_TIP_PINS = (0, 1, 19, 20, 21, 22, 26, 27)       # GP0, GP1, GP19..GP22, GP26, GP27: tip switches
STATUS_LED_PIN = 25                                  # the Pico's own LED: lit while running
SIO_GPIO_IN = 0xD0000004                             # RP2040 register holding every input level


class PinBank:
    """All buttons and tip switches read in one register access, so presses in the same scan are
    truly simultaneous."""

    def __init__(self):
        # Pull-ups: a released button reads 1, a pressed one shorts the pin to ground. A wand with
        # no tip switch fitted (or unplugged) leaves its tip pin pulled up: never touching.
        self.pins = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP)
                     for n in WAND_BUTTON_PINS + (CUE_BUTTON_PIN,) + WAND_TIP_PINS]
        # (register bit, mask bit) for every input, worked out once rather than in every scan
        self.bits = ([(WAND_BUTTON_PINS[i], i) for i in range(len(WAND_BUTTON_PINS))]
                     + [(CUE_BUTTON_PIN, hub.CUE_BIT)]
                     + [(WAND_TIP_PINS[i], hub.TIP_BIT + i) for i in range(len(WAND_TIP_PINS))])

    def read(self):
        levels = machine.mem32[SIO_GPIO_IN]
        mask = 0
        for pin, bit in self.bits:
            if not levels & (1 << pin):
                mask |= 1 << bit
        return mask


class LedBank:
    def __init__(self):
        self.pins = [machine.Pin(n, machine.Pin.OUT, value=0) for n in WAND_LED_PINS]

    def show(self, index, on):
        self.pins[index].value(1 if on else 0)


def write_line(line):
    sys.stdout.buffer.write(line)


def make_boot_id():
    # New at every boot, so the host can tell a restarted hub from a reconnected one.
    try:
        return "%02x%02x" % tuple(os.urandom(2))
    except AttributeError:
        import random
        return "%04x" % random.getrandbits(16)


def main():
    machine.Pin(STATUS_LED_PIN, machine.Pin.OUT, value=1)
    the_hub = hub.Hub(PinBank(), LedBank(), time.ticks_us, time.ticks_diff, write_line,
                      boot_id=make_boot_id())
    host = select.poll()
    host.register(sys.stdin, select.POLLIN)
    while True:
        the_hub.poll()
        # Drain whatever the host sent without ever blocking the scan loop.
        while host.poll(0):
            the_hub.feed(sys.stdin.buffer.read(1))


# MicroPython runs main.py at boot as __main__; the tests import it to check the pin mapping.
if __name__ == "__main__":
    main()
