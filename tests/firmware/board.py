# Checks firmware/main.py's board wiring with a stand-in `machine`: which register bits become
# which wand, and which pins are pulled up or driven. Prints `OUT board <text>` lines.
# MicroPython-compatible.

import machine
import main
import hub


def say(text):
    print("OUT board " + text)


def run_all():
    bank = main.PinBank()
    leds = main.LedBank()
    for number in main.WAND_BUTTON_PINS + (main.CUE_BUTTON_PIN,):
        pin = machine.Pin.made[number]
        say("input %d pull_up %d" % (number, pin.pull == machine.Pin.PULL_UP))
    # Pull-ups: every line high means nothing is pressed.
    machine.mem32[main.SIO_GPIO_IN] = 0xFFFFFFFF
    say("idle %d" % bank.read())
    for index, number in enumerate(main.WAND_BUTTON_PINS):
        machine.mem32[main.SIO_GPIO_IN] = 0xFFFFFFFF & ~(1 << number)
        say("wand %d mask %d" % (index + 1, bank.read()))
    machine.mem32[main.SIO_GPIO_IN] = 0xFFFFFFFF & ~(1 << main.CUE_BUTTON_PIN)
    say("cue mask %d cue_bit %d" % (bank.read(), 1 << hub.CUE_BIT))
    leds.show(2, True)
    say("led3 pin %d level %d" % (main.WAND_LED_PINS[2], machine.Pin.made[main.WAND_LED_PINS[2]].level))
    say("boot_id %d" % len(main.make_boot_id()))
    print("DONE")
