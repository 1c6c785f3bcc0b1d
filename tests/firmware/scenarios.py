# Scripted hub scenarios that run unchanged under MicroPython and CPython.
#
# Each scenario drives the real hub logic with a fake tick source (which wraps like the Pico's
# ticks_us) and a fake pin bank, and prints every line the hub sends as `OUT <scenario> <line>`.
# The pytest side parses these lines with the host's protocol parser and checks them; the same
# checks run on both interpreters. Keep this file MicroPython-compatible.

import hub

TICKS_PERIOD = 1 << 30


class Ticks:
    """A ticks_us() that wraps every 2**30 us like the Pico's; `real` is the unwrapped time."""

    def __init__(self, start):
        self.real = start

    def ticks_us(self):
        return self.real % TICKS_PERIOD

    def ticks_diff(self, new, old):
        half = TICKS_PERIOD // 2
        return ((new - old + half) % TICKS_PERIOD) - half


class Bank:
    def __init__(self):
        self.mask = 0

    def read(self):
        return self.mask

    def press(self, bit, down):
        if down:
            self.mask |= 1 << bit
        else:
            self.mask &= ~(1 << bit)


class Leds:
    def __init__(self, count):
        self.lit = [False] * count
        self.changes = 0

    def show(self, index, on):
        if self.lit[index] != on:
            self.changes += 1
        self.lit[index] = on


class Rig:
    """A hub on a bench: scan every `scan_us`, with pin changes and host lines scheduled in time."""

    def __init__(self, name, start=0, scan_us=50):
        self.name = name
        self.ticks = Ticks(start)
        self.start = start
        self.scan_us = scan_us
        self.bank = Bank()
        self.leds = Leds(8)
        self.host_seq = 0
        self.hub = hub.Hub(self.bank, self.leds, self.ticks.ticks_us, self.ticks.ticks_diff,
                           self.out, boot_id="beef")
        self.plan = []

    def out(self, line):
        print("OUT " + self.name + " " + line.decode().strip())

    def note(self, text):
        print("NOTE " + self.name + " " + text)

    def at(self, t_us, action):
        self.plan.append((t_us, action))

    def pin(self, t_us, bit, down):
        self.at(t_us, lambda: self.bank.press(bit, down))

    def send(self, t_us, body):
        self.at(t_us, lambda: self.send_now(body))

    def send_now(self, body):
        self.hub.feed(hub.frame(self.host_seq, body))
        self.host_seq += 1

    def run_until(self, t_us):
        """Scan up to hub time t_us (counted from `start`), applying planned actions on the way."""
        self.plan.sort(key=lambda item: item[0])
        while self.ticks.real - self.start <= t_us:
            now = self.ticks.real - self.start
            while self.plan and self.plan[0][0] <= now:
                self.plan.pop(0)[1]()
            self.hub.poll()
            self.ticks.real += self.scan_us


def bouncy_press(rig, t_us, bit):
    # A real contact: three short touches, then it holds (for 40 ms), then bounces on release.
    for offset, down in ((0, True), (60, False), (120, True), (170, False), (230, True),
                         (40000, False), (40080, True), (40130, False)):
        rig.pin(t_us + offset, bit, down)


def scenario_hello():
    rig = Rig("hello")
    rig.send(1000, "HELLO 1")
    rig.run_until(2000)


def scenario_bounce():
    rig = Rig("bounce")
    bouncy_press(rig, 10000, 2)          # wand 3
    rig.run_until(100000)


def scenario_spike():
    rig = Rig("spike")
    rig.pin(10000, 4, True)              # wand 5: a 100 us spike from a kicked cable
    rig.pin(10100, 4, False)
    rig.pin(20000, 8, True)              # the cue line too
    rig.pin(20100, 8, False)
    rig.run_until(60000)


def scenario_race_tie():
    rig = Rig("race_tie")
    rig.send(1000, "ARM 7 5,6,7,8,1,2,3,4")
    rig.pin(20000, 1, True)              # wands 2 and 5 in the same scan
    rig.pin(20000, 4, True)
    rig.pin(20010, 6, True)              # wand 7 lands in the next scan: not tied
    rig.run_until(60000)


def scenario_race_first():
    rig = Rig("race_first")
    rig.send(1000, "ARM 8 -")
    rig.pin(30000, 6, True)              # wand 7
    rig.pin(30051, 0, True)              # wand 1, one scan later
    rig.run_until(60000)


def scenario_lockout():
    rig = Rig("lockout")
    rig.pin(10000, 3, True)              # wand 4 jumps the gun
    rig.pin(30000, 3, False)
    rig.send(100000, "ARM 9 - 500")
    rig.pin(200000, 3, True)             # still locked out (until 510 ms)
    rig.pin(300000, 5, True)             # wand 6: first fair press
    rig.run_until(400000)


def scenario_straddle():
    # Wand 5 touches 100 us before the race is armed; debouncing confirms it just after.
    rig = Rig("straddle")
    rig.pin(49900, 4, True)
    rig.send(50000, "ARM 6 - 300")
    rig.pin(70000, 4, False)
    rig.pin(100000, 4, True)             # again, still inside its lockout
    rig.pin(200000, 1, True)             # wand 2 wins
    rig.run_until(300000)


def scenario_held_through_arm():
    rig = Rig("held")
    rig.pin(1000, 1, True)               # wand 2 held down from long before the race
    rig.send(700000, "ARM 3 -")
    rig.pin(800000, 2, True)             # wand 3 presses after arming
    rig.run_until(900000)


def scenario_disarm():
    rig = Rig("disarm")
    rig.send(1000, "ARM 4 -")
    rig.send(2000, "DISARM 4")
    rig.pin(10000, 0, True)
    rig.run_until(30000)


def scenario_resend():
    rig = Rig("resend")
    rig.pin(10000, 0, True)
    rig.pin(30000, 0, False)
    rig.send(50000, "RESEND 2 2")        # the press and release again, byte for byte
    rig.send(60000, "RESEND 60000 3")    # never sent: reported lost
    rig.run_until(70000)


def scenario_ring_overwrite():
    rig = Rig("overwrite", scan_us=1000)
    for index in range(hub.RING_SIZE):
        rig.pin(10000 + index * 40000, 0, True)
        rig.pin(30000 + index * 40000, 0, False)
    end = 10000 + hub.RING_SIZE * 40000
    rig.send(end, "RESEND 0 10")
    rig.run_until(end + 1000)


def scenario_commands():
    rig = Rig("commands")
    rig.send(1000, "PING abc")
    rig.send(2000, "TIME")
    rig.send(3000, "LED 3 1")
    rig.send(4000, "LED 9 1")
    rig.send(5000, "FLY 1")
    rig.send(6000, "ARM x")
    rig.at(7000, lambda: rig.hub.feed(b"@5 PING x*0000\n"))
    rig.at(8000, lambda: rig.hub.feed(b"\x00\xff garbage\n"))
    rig.at(9000, lambda: rig.hub.feed(b"x" * 200))
    rig.at(9500, lambda: feed_bytewise(rig, hub.frame(9, "PING bytewise")))
    rig.run_until(10000)
    rig.note("led3 %d" % rig.leds.lit[2])


def feed_bytewise(rig, line):
    # main.py hands the hub one byte at a time, as USB delivers them.
    for index in range(len(line)):
        rig.hub.feed(line[index:index + 1])


def scenario_blink():
    rig = Rig("blink", scan_us=1000)
    rig.send(1000, "LED 2 2")
    rig.run_until(1000000)
    rig.note("blink_changes %d" % rig.leds.changes)


def scenario_cue():
    rig = Rig("cue")
    bouncy_press(rig, 5000, hub.CUE_BIT)
    rig.run_until(60000)


def scenario_wrap():
    # Start 5 ms before the tick counter wraps: stamps must keep counting up across the wrap.
    rig = Rig("wrap", start=TICKS_PERIOD - 5000)
    rig.pin(2000, 0, True)
    rig.pin(20000, 0, False)
    rig.pin(40000, 1, True)
    rig.run_until(60000)


def scenario_seq_wrap():
    rig = Rig("seq_wrap")
    rig.hub.seq = hub.SEQ_MOD - 2
    rig.pin(10000, 0, True)
    rig.pin(30000, 0, False)
    rig.pin(50000, 0, True)
    rig.run_until(70000)


def tip(wand):
    return hub.TIP_BIT + wand - 1


def scenario_tips_unasked():
    # A host that never sent TIPS (one older than tip switches) hears nothing of them.
    rig = Rig("tips_unasked")
    bouncy_press(rig, 10000, tip(3))
    rig.run_until(60000)


def scenario_tips():
    rig = Rig("tips")
    rig.pin(5000, tip(6), True)          # wand 6 rests on a token before the host asks
    rig.send(20000, "TIPS")
    bouncy_press(rig, 30000, tip(3))     # wand 3 touches down, lifts 40 ms later
    rig.pin(100000, tip(5), True)        # wand 5: a 100 us spike is no touch
    rig.pin(100100, tip(5), False)
    rig.send(150000, "TIPS 1")           # refused: TIPS takes no argument
    rig.run_until(200000)


def scenario_tips_no_race():
    # A tip touching down is not a button press: it neither wins, nor locks out, nor comes early.
    rig = Rig("tips_no_race")
    rig.send(1000, "TIPS")
    rig.pin(5000, tip(4), True)          # wand 4 rests its tip before the race...
    rig.send(10000, "ARM 2 -")
    rig.pin(20000, tip(2), True)         # ...wand 2's tip lands first in the race
    rig.pin(30000, 3, True)              # wand 4's button: a clean win
    rig.pin(30000, tip(1), True)         # wand 1's tip in that same scan
    rig.run_until(60000)


SCENARIOS = (scenario_hello, scenario_bounce, scenario_spike, scenario_race_tie,
             scenario_race_first, scenario_lockout, scenario_straddle, scenario_held_through_arm, scenario_disarm,
             scenario_resend, scenario_ring_overwrite, scenario_commands, scenario_blink,
             scenario_cue, scenario_wrap, scenario_seq_wrap, scenario_tips_unasked, scenario_tips,
             scenario_tips_no_race)


def run_all():
    for scenario in SCENARIOS:
        scenario()
    print("DONE")
