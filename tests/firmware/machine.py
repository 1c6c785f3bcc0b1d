# A stand-in for MicroPython's `machine` module, for checking firmware/main.py's pin mapping.
# MicroPython-compatible; only what main.py touches.


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    made = {}

    def __init__(self, number, mode=-1, pull=-1, value=None):
        self.number = number
        self.mode = mode
        self.pull = pull
        self.level = value
        Pin.made[number] = self

    def value(self, level=None):
        if level is None:
            return self.level
        self.level = level


class Registers:
    def __init__(self):
        self.words = {}

    def __getitem__(self, address):
        return self.words.get(address, 0)

    def __setitem__(self, address, word):
        self.words[address] = word


mem32 = Registers()
