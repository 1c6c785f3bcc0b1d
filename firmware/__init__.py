"""The wand hub's MicroPython firmware, shipped with Incanto as package data.

Only ``hub.py`` and ``main.py`` go onto the Pico (hardware.md, "Flashing the hub"); this file makes
the folder a package so an installed Incanto finds the very code the Pico runs
(``companion.inputs.firmware``) without a checkout.
"""
