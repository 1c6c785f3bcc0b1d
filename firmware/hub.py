# Incanto wand hub: debouncing, fair races and the line protocol, with no hardware in sight.
#
# This module runs unchanged under MicroPython on the Pico and under CPython (the simulated hub
# and the tests). Everything that touches hardware is handed in: an input bank that reports which
# buttons are down, an LED bank, a microsecond tick source and a writer for the USB serial line.
# Keep it plain: no dataclasses, no typing imports, no f-strings with `=`.

PROTOCOL_VERSION = 1
FIRMWARE_VERSION = "0.2.0"     # 0.2.0: tip switches (TIPS, T, U)

SEQ_MOD = 65536            # sequence numbers wrap here; the host compares them modulo SEQ_MOD
RING_SIZE = 256            # recent lines kept for RESEND
MAX_LINE = 96              # longest line either side may send, newline excluded
MAX_WANDS = 8
CUE_BIT = 8                # bit of the input mask that carries the cue button
TIP_BIT = 9                # bits TIP_BIT.. TIP_BIT+7 carry the tip switches of wands 1..8

CONFIRM_US = 200           # a change must hold this long: rejects spikes picked up by long cables
HOLDOFF_US = 8000          # contact bounce after a confirmed change is ignored for this long
LOCKOUT_US = 500000        # a wand pressed while no race is armed cannot win for this long
HEARTBEAT_US = 1000000
BLINK_US = 150000


# Written out here, not taken from a library: MicroPython's binascii has no crc_hqx, and a 256-entry
# table is the fast way on a Pico. The host uses binascii.crc_hqx; tests/firmware/test_crc.py holds
# the two equal on random data under both interpreters.
def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16(data):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of a bytes-like object."""
    crc = 0xFFFF
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _CRC_TABLE[((crc >> 8) ^ byte) & 0xFF]
    return crc


def frame(seq, body):
    """One protocol line: b'@<seq> <body>*<CRC16 hex>\\n', the CRC taken over '<seq> <body>'."""
    inner = (str(seq) + " " + body).encode()
    return b"@" + inner + b"*" + ("%04X" % crc16(inner)).encode() + b"\n"


def unframe(line):
    """Split a line (without its newline) into (seq, words), or raise ValueError naming the fault."""
    if len(line) > MAX_LINE:
        raise ValueError("line too long")
    if not line.startswith(b"@"):
        raise ValueError("no frame start")
    star = line.rfind(b"*")
    if star < 0 or len(line) - star != 5:
        raise ValueError("no checksum")
    inner = line[1:star]
    try:
        sent = int(line[star + 1:].decode(), 16)
        words = inner.decode().split()
    except (ValueError, UnicodeError):
        raise ValueError("unreadable frame") from None
    if sent != crc16(inner):
        raise ValueError("bad checksum")
    if len(words) < 2 or not words[0].isdigit() or int(words[0]) >= SEQ_MOD:
        raise ValueError("bad sequence number")
    return int(words[0]), words[1:]


class Clock:
    """Extends a wrapping tick counter (ticks_us wraps every 2**30 us on the Pico) to a plain count.

    Must be read at least once per half wrap period (about 9 minutes); the scan loop reads it
    thousands of times a second.
    """

    def __init__(self, ticks_us, ticks_diff):
        self._ticks_us = ticks_us
        self._ticks_diff = ticks_diff
        self._last = ticks_us()
        self.us = 0

    def now(self):
        tick = self._ticks_us()
        self.us += self._ticks_diff(tick, self._last)
        self._last = tick
        return self.us


class Debouncer:
    """One button contact. A change counts once the contact has held for CONFIRM_US, and is stamped
    with the scan that saw its first touch, so debouncing never delays or skews a timestamp.
    A touch that does not hold (a spike) is forgotten once the line has been back for CONFIRM_US;
    after a confirmed change, bounce is ignored for HOLDOFF_US."""

    def __init__(self, confirm_us=CONFIRM_US, holdoff_us=HOLDOFF_US):
        self.down = False
        self._confirm_us = confirm_us
        self._holdoff_us = holdoff_us
        self._first = -1        # first touch of the change being watched
        self._run = -1          # start of the current unbroken run in the new state
        self._back = -1         # when the line last fell back to the settled state
        self._quiet_until = 0

    def sample(self, down, now_us):
        """Feed one reading; returns the stamp of a newly confirmed change, or -1."""
        if now_us < self._quiet_until:
            return -1
        if down == self.down:
            self._fall_back(now_us)
            return -1
        if self._first < 0:
            self._first = now_us
        if self._run < 0 or self._back >= 0:
            self._run, self._back = now_us, -1
        if now_us - self._run < self._confirm_us:
            return -1
        stamp = self._first
        self.down = down
        self._first = self._run = self._back = -1
        self._quiet_until = now_us + self._holdoff_us
        return stamp

    def settling(self):
        """True while a change has been seen but not yet confirmed or forgotten."""
        return self._first >= 0

    def settled(self, down, now_us):
        """True once `down` is the confirmed state and its bounce holdoff is over."""
        return self.down == down and now_us >= self._quiet_until

    def _fall_back(self, now_us):
        if self._first < 0:
            return
        if self._back < 0:
            self._back = now_us
        elif now_us - self._back >= self._confirm_us:
            self._first = self._run = self._back = -1


class Race:
    """A first-to-press race, decided by hub timestamps.

    Tie rule: presses stamped with the same microsecond (seen in the same scan of the pins) tie;
    among tied wands the one that comes first in `order` (the seating order the host sends with
    ARM, e.g. the Catcher and then clockwise) wins, and every tied wand is reported.
    """

    def __init__(self, race_id, armed_us, order, locked_until):
        self.race_id = race_id
        self.armed_us = armed_us
        self.order = order
        self.locked_until = locked_until
        self.entries = []

    def eligible(self, wand, stamp_us):
        return stamp_us >= self.armed_us and stamp_us >= self.locked_until.get(wand, 0)

    def offer(self, wand, stamp_us):
        """Record a press; returns False if the wand is locked out (pressed too early)."""
        if not self.eligible(wand, stamp_us):
            return False
        self.entries.append((stamp_us, wand))
        return True

    def decide(self):
        """After a scan: (winner, stamp, tied wands) if any press entered, else None."""
        if not self.entries:
            return None
        first = min(stamp for stamp, _ in self.entries)
        tied = [wand for stamp, wand in self.entries if stamp == first]
        tied.sort(key=self._rank)
        return tied[0], first, tied

    def _rank(self, wand):
        if wand in self.order:
            return self.order.index(wand)
        return len(self.order) + wand


class Ring:
    """The last RING_SIZE lines sent, by sequence number, so a host can ask for them again."""

    def __init__(self, size=RING_SIZE):
        self._seqs = [-1] * size
        self._lines = [b""] * size

    def put(self, seq, line):
        slot = seq % len(self._seqs)
        self._seqs[slot] = seq
        self._lines[slot] = line

    def get(self, seq):
        slot = seq % len(self._seqs)
        if self._seqs[slot] == seq:
            return self._lines[slot]
        return None


class Hub:
    """The hub: scans inputs, reports presses, runs races, answers the host.

    inputs.read() -> int: bit i set while wand i+1 is held down, bit CUE_BIT for the cue button,
    bit TIP_BIT+i while wand i+1's tip bead is pressed against something (its tip switch closed).
    leds.show(index, on): index 0..n_wands-1.
    write(bytes): the serial line; an OSError (host gone) is survived, the ring keeps the line.
    """

    def __init__(self, inputs, leds, ticks_us, ticks_diff, write, n_wands=MAX_WANDS,
                 boot_id="0000", lockout_us=LOCKOUT_US):
        self.inputs = inputs
        self.leds = leds
        self.clock = Clock(ticks_us, ticks_diff)
        self.write = write
        self.n_wands = n_wands
        self.boot_id = boot_id
        self.lockout_us = lockout_us
        self.seq = 0
        self.ring = Ring()
        self.debouncers = [Debouncer() for _ in range(n_wands + 1)]
        self.tips = [Debouncer() for _ in range(n_wands)]
        self.tip_stamps = [0] * n_wands     # first contact of each tip's last confirmed change
        self.tips_on = False                # T/U lines only once the host asked (TIPS): see PROTOCOL.md
        self._all_tips = (1 << n_wands) - 1
        self._tips_down = 0                 # tips whose switch is confirmed closed, bit i for wand i+1
        self._tips_settling = 0             # tips with a change seen but not yet confirmed or forgotten
        self.locked_until = {}
        self.race = None
        self.led_modes = [0] * n_wands
        self.write_failures = 0
        self._inbox = b""
        self._next_heartbeat = 0
        self.emit(self.hello_body())

    # Sending -----------------------------------------------------------------------------------

    def emit(self, body):
        line = frame(self.seq, body)
        self.ring.put(self.seq, line)
        self.seq = (self.seq + 1) % SEQ_MOD
        self._send(line)

    def _send(self, line):
        try:
            self.write(line)
        except OSError:
            self.write_failures += 1

    def hello_body(self):
        return "HELLO %d %s %d %s" % (PROTOCOL_VERSION, FIRMWARE_VERSION, self.n_wands, self.boot_id)

    # Scanning ----------------------------------------------------------------------------------

    def poll(self):
        """One pass of the main loop: scan the pins, settle a race, blink LEDs, heartbeat."""
        now = self.clock.now()
        self.scan(self.inputs.read(), now)
        self._blink(now)
        if now >= self._next_heartbeat:
            self._next_heartbeat = now + HEARTBEAT_US
            self.emit("HB %d" % now)

    def scan(self, mask, now):
        # Every input of one scan is stamped with the same time: that is what makes a tie a tie.
        for index in range(self.n_wands):
            stamp = self.debouncers[index].sample(bool(mask & (1 << index)), now)
            if stamp >= 0:
                self._changed(index + 1, self.debouncers[index].down, stamp)
        cue = self.debouncers[self.n_wands]
        stamp = cue.sample(bool(mask & (1 << CUE_BIT)), now)
        if stamp >= 0 and cue.down:
            self.emit("CUE %d" % stamp)
        self._scan_tips(mask, now)
        self._settle_race()

    def _scan_tips(self, mask, now):
        # Same register read, same stamp as the buttons; a tip never enters a race. Nearly every
        # scan finds no tip moving and none settling: skipping those keeps the scan as short as it
        # was before tip switches (a Pico runs this thousands of times a second).
        seen = (mask >> TIP_BIT) & self._all_tips
        if seen == self._tips_down and not self._tips_settling:
            return
        for index in range(self.n_wands):
            tip = self.tips[index]
            stamp = tip.sample(bool(seen & (1 << index)), now)
            self._note_tip(index, tip)
            if stamp >= 0:
                self.tip_stamps[index] = stamp
                if self.tips_on:
                    self.emit(self.tip_body(index))

    def _note_tip(self, index, tip):
        bit = 1 << index
        self._tips_down = (self._tips_down | bit) if tip.down else (self._tips_down & ~bit)
        self._tips_settling = (self._tips_settling | bit) if tip.settling() else (self._tips_settling & ~bit)

    def tip_body(self, index):
        """T (pressed) or U (up, in the air) for wand index+1, stamped with its last change."""
        kind = "T" if self.tips[index].down else "U"
        return "%s %d %d" % (kind, index + 1, self.tip_stamps[index])

    def _changed(self, wand, down, stamp):
        if not down:
            self.emit("R %d %d" % (wand, stamp))
            return
        self.emit("P %d %d" % (wand, stamp))
        # A press from before the race was armed (even one confirmed just after) locks the wand out.
        if self.race is None or stamp < self.race.armed_us:
            self.locked_until[wand] = stamp + self.lockout_us
        if self.race is not None and not self.race.offer(wand, stamp):
            self.emit("EARLY %d %d %d" % (self.race.race_id, wand, stamp))

    def _settle_race(self):
        if self.race is None:
            return
        result = self.race.decide()
        if result is None:
            return
        winner, stamp, tied = result
        tie = ",".join([str(w) for w in tied]) if len(tied) > 1 else "-"
        self.emit("WIN %d %d %d %s" % (self.race.race_id, winner, stamp, tie))
        self.race = None

    def _blink(self, now):
        phase = (now // BLINK_US) % 2
        for index in range(self.n_wands):
            if self.led_modes[index] == 2:
                self.leds.show(index, phase == 0)

    # Host commands -----------------------------------------------------------------------------

    def feed(self, data):
        """Bytes from the host; complete lines are executed, a runaway line is dropped."""
        self._inbox += data
        while True:
            end = self._inbox.find(b"\n")
            if end < 0:
                break
            line = self._inbox[:end].strip()
            self._inbox = self._inbox[end + 1:]
            if line:
                self.command(line)
        if len(self._inbox) > MAX_LINE:
            self._inbox = b""
            self.emit("ERR - toolong")

    def command(self, line):
        try:
            hseq, words = unframe(line)
        except ValueError as exc:
            self.emit("ERR - " + str(exc).replace(" ", "_"))
            return
        handler = getattr(self, "cmd_" + words[0].lower(), None) if words[0].isalpha() else None
        if handler is None:
            self.emit("ERR %d unknown_command" % hseq)
            return
        try:
            handler(words[1:])
        except (ValueError, IndexError):
            self.emit("ERR %d bad_arguments" % hseq)

    def cmd_hello(self, args):
        self.emit(self.hello_body())

    def cmd_ping(self, args):
        self.emit("PONG %s %d" % (args[0], self.clock.now()))

    def cmd_time(self, args):
        self.emit("TIME %d" % self.clock.now())

    def cmd_arm(self, args):
        # ARM <race> [<order: wands comma separated>|-] [<lockout ms>]
        race_id = int(args[0])
        order = []
        if len(args) > 1 and args[1] != "-":
            order = [int(w) for w in args[1].split(",")]
        if len(args) > 2:
            self.lockout_us = int(args[2]) * 1000
        now = self.clock.now()
        self.race = Race(race_id, now, order, self.locked_until)
        self.emit("ARMED %d %d" % (race_id, now))

    def cmd_disarm(self, args):
        race_id = int(args[0])
        if self.race is not None and self.race.race_id == race_id:
            self.race = None
        self.emit("DISARMED %d" % race_id)

    def cmd_led(self, args):
        # LED <wand> <0|1|2>: off, on, blink
        wand, mode = int(args[0]), int(args[1])
        if not 1 <= wand <= self.n_wands or mode not in (0, 1, 2):
            raise ValueError("led")
        self.led_modes[wand - 1] = mode
        self.leds.show(wand - 1, mode == 1)
        self.emit("OK LED %d %d" % (wand, mode))

    def cmd_tips(self, args):
        # TIPS: report the tip switches from now on, starting with every wand's state as it is.
        # Off until asked, so a host that predates tip switches never sees a kind it cannot read.
        if args:
            raise ValueError("tips")
        self.tips_on = True
        for index in range(self.n_wands):
            self.emit(self.tip_body(index))
        self.emit("OK TIPS")

    def cmd_resend(self, args):
        # RESEND <first seq> <count>: lines still in the ring are sent again byte for byte;
        # every run of lines that is gone is named in one LOST line.
        first, count = int(args[0]) % SEQ_MOD, int(args[1])
        if not 0 < count <= SEQ_MOD:
            raise ValueError("count")
        run_start, run_length = first, 0
        if count > RING_SIZE:
            # Lines that far back have been overwritten already: no need to look.
            run_length = count - RING_SIZE
            first, count = (first + run_length) % SEQ_MOD, RING_SIZE
        for offset in range(count):
            seq = (first + offset) % SEQ_MOD
            line = self.ring.get(seq)
            if line is None:
                if run_length == 0:
                    run_start = seq
                run_length += 1
                continue
            self._report_lost(run_start, run_length)
            run_length = 0
            self._send(line)
        self._report_lost(run_start, run_length)

    def _report_lost(self, first, count):
        if count:
            self.emit("LOST %d %d" % (first, count))
