# The hub's board when the firmware runs in the MicroPython interpreter under Node.js, behind a real
# serial port (serve_hub.mjs): the input mask set from outside, the LEDs and the serial line handed to
# the JavaScript host (module `host`). Only the board is simulated; hub.py runs as on the Pico.
# MicroPython-compatible.

import time

import host
import hub


class Inputs:
    def __init__(self):
        self.mask = 0

    def read(self):
        return self.mask


class Leds:
    """The wand LED pins: each change of level is told to the host with the hub's time."""

    def __init__(self, count):
        self.levels = [0] * count

    def show(self, index, on):
        level = 1 if on else 0
        if self.levels[index] != level:
            self.levels[index] = level
            host.led(index + 1, level, the_hub.clock.us)


def write(line):
    host.write(line.decode())


inputs = Inputs()
leds = None
the_hub = None
_modes = ""


def start(n_wands, boot_id):
    global leds, the_hub
    leds = Leds(n_wands)
    the_hub = hub.Hub(inputs, leds, time.ticks_us, time.ticks_diff, write, n_wands=n_wands, boot_id=boot_id)


def step():
    """One pass of main.py's loop; the LED modes the firmware holds are told whenever they change."""
    global _modes
    the_hub.poll()
    modes = " ".join([str(m) for m in the_hub.led_modes])
    if modes != _modes:
        _modes = modes
        host.modes(modes)


def feed(text):
    the_hub.feed(text.encode())
