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
    for number in main.WAND_BUTTON_PINS + (main.CUE_BUTTON_PIN,) + main.WAND_TIP_PINS:
        pin = machine.Pin.made[number]
        say("input %d pull_up %d" % (number, pin.pull == machine.Pin.PULL_UP))
    used = (main.WAND_BUTTON_PINS + (main.CUE_BUTTON_PIN,) + main.WAND_TIP_PINS + main.WAND_LED_PINS
            + (main.STATUS_LED_PIN,))
    say("pins %d distinct %d" % (len(used), len(set(used))))
    # Pull-ups: every line high means nothing is pressed.
    machine.mem32[main.SIO_GPIO_IN] = 0xFFFFFFFF
    say("idle %d" % bank.read())
    for index, number in enumerate(main.WAND_BUTTON_PINS):
        machine.mem32[main.SIO_GPIO_IN] = 0xFFFFFFFF & ~(1 << number)
        say("wand %d mask %d" % (index + 1, bank.read()))
    machine.mem32[main.SIO_GPIO_IN] = 0xFFFFFFFF & ~(1 << main.CUE_BUTTON_PIN)
    say("cue mask %d cue_bit %d" % (bank.read(), 1 << hub.CUE_BIT))
    for index, number in enumerate(main.WAND_TIP_PINS):
        machine.mem32[main.SIO_GPIO_IN] = 0xFFFFFFFF & ~(1 << number)
        say("tip %d mask %d tip_bit %d" % (index + 1, bank.read(), 1 << (hub.TIP_BIT + index)))
    # A press and a tip in the same register read land in the same mask.
    machine.mem32[main.SIO_GPIO_IN] = 0xFFFFFFFF & ~(1 << main.WAND_BUTTON_PINS[1]) & ~(1 << main.WAND_TIP_PINS[1])
    say("together wand 2 tip 2 mask %d" % bank.read())
    leds.show(2, True)
    say("led3 pin %d level %d" % (main.WAND_LED_PINS[2], machine.Pin.made[main.WAND_LED_PINS[2]].level))
    say("boot_id %d" % len(main.make_boot_id()))
    print("DONE")
