"""The wand-hub line protocol, host side: a parser fed bytes, knowing nothing of ports or threads.

Lines look like `@<seq> <KIND> <args...>*<CRC-16 hex>\\n` (firmware/PROTOCOL.md). The parser
checks framing, checksum and the shape of every message, rejects and counts anything else with a
reason, and hands each good line to `handle_event(seq, message, raw)`.
"""
from __future__ import annotations

import binascii

import time
from collections import Counter
from dataclasses import dataclass
from collections.abc import Callable

from companion.errors import IncantoError
from companion.inputs.events import EarlyPress, Press, RaceArmed, RaceWon, Release, TipLifted, TipPressed

PROTOCOL_VERSION = 1
SEQ_MOD = 65536
MAX_LINE = 96
MAX_WANDS = 8
LED_OFF, LED_STEADY, LED_BLINK = 0, 1, 2   # the modes of `LED <wand> <mode>`
LED_MODES = (LED_OFF, LED_STEADY, LED_BLINK)


class HubLineError(IncantoError, ValueError):
    """A line from the hub that cannot be trusted; `reason` is a short key for counting."""

    def __init__(self, reason: str, detail: str) -> None:
        self.reason = reason
        super().__init__(detail)


# Protocol-level messages (the game never sees these) --------------------------------------------

@dataclass(frozen=True)
class Hello:
    protocol: int
    firmware: str
    wands: int
    boot_id: str


@dataclass(frozen=True)
class Heartbeat:
    hub_us: int


@dataclass(frozen=True)
class Pong:
    token: str
    hub_us: int


@dataclass(frozen=True)
class HubTime:
    hub_us: int


@dataclass(frozen=True)
class CuePressed:
    hub_us: int


@dataclass(frozen=True)
class Disarmed:
    race: int


@dataclass(frozen=True)
class Lost:
    """The hub could not resend `count` lines starting at `first`: whatever they held is gone."""

    first: int
    count: int


@dataclass(frozen=True)
class HubError:
    command_seq: str
    reason: str


@dataclass(frozen=True)
class Ack:
    text: str


HubMessage = (Hello | Heartbeat | Pong | HubTime | CuePressed | Disarmed | Lost | HubError | Ack
              | Press | Release | RaceArmed | RaceWon | EarlyPress | TipPressed | TipLifted)


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): ``binascii.crc_hqx`` from 0xFFFF, in C. The
    firmware keeps its own table (MicroPython's binascii has no crc_hqx); a test holds them equal."""
    return binascii.crc_hqx(data, 0xFFFF)


def frame(seq: int, body: str) -> bytes:
    """A host command line: `@<seq> <body>*<CRC>\\n`."""
    inner = f"{seq % SEQ_MOD} {body}".encode("ascii")
    return b"@" + inner + b"*" + f"{crc16(inner):04X}".encode() + b"\n"


def unframe(line: bytes) -> tuple[int, list[str]]:
    """(seq, words) of one line without its newline; HubLineError names what is wrong."""
    if len(line) > MAX_LINE:
        raise HubLineError("too_long", f"line of {len(line)} bytes is longer than {MAX_LINE}: {line[:24]!r}...")
    if not line.startswith(b"@"):
        reason = "old_firmware" if b"HELLO" in line else "no_frame_start"
        raise HubLineError(reason, f"line without frame start '@': {line[:40]!r}")
    inner, star, check = line[1:].rpartition(b"*")
    if not star or len(check) != 4:
        raise HubLineError("no_checksum", f"line without a 4-digit checksum: {line[:40]!r}")
    try:
        sent = int(check, 16)
        words = inner.decode("ascii").split()
    except (ValueError, UnicodeDecodeError):
        raise HubLineError("unreadable", f"line is not ASCII text: {line[:40]!r}") from None
    if sent != crc16(inner):
        raise HubLineError("bad_checksum", f"checksum {check.decode()!r} does not match {crc16(inner):04X} in {line[:40]!r}")
    if len(words) < 2 or not words[0].isdigit() or int(words[0]) >= SEQ_MOD:
        raise HubLineError("bad_sequence", f"no valid sequence number in {line[:40]!r}")
    return int(words[0]), words[1:]


# Message shapes ---------------------------------------------------------------------------------

def _int(word: str) -> int:
    if not word.lstrip("-").isdigit():
        raise ValueError(word)
    return int(word)


def _stamp(word: str) -> int:
    """A hub time: microseconds since the hub booted, never negative."""
    if not word.isdigit():
        raise ValueError(word)
    return int(word)


def _tie(word: str) -> tuple[int, ...]:
    return () if word == "-" else tuple(_int(w) for w in word.split(","))


class MessageDecoder:
    """Turns the words of a checked line into a message, given the hub's wand count."""

    def __init__(self, wands: int = MAX_WANDS) -> None:
        self.wands = wands

    def decode(self, kind: str, args: list[str], host_t: float) -> HubMessage:
        builder = getattr(self, f"_kind_{kind.lower()}", None) if kind.isalpha() else None
        if builder is None:
            raise HubLineError("unknown_kind", f"unknown message kind {kind!r}")
        try:
            message: HubMessage = builder(args, host_t)
        except HubLineError:
            raise
        except (ValueError, IndexError) as exc:
            raise HubLineError("bad_arguments", f"bad arguments {args!r} for {kind!r}") from exc
        return message

    def wand(self, word: str) -> int:
        wand = _int(word)
        if not 1 <= wand <= self.wands:
            raise HubLineError("unknown_wand", f"hub reported wand {wand!r}, but it has wands 1-{self.wands}")
        return wand

    def _exactly(self, args: list[str], count: int) -> list[str]:
        if len(args) != count:
            raise ValueError(f"expected {count} arguments, got {len(args)}")
        return args

    def _kind_hello(self, args: list[str], host_t: float) -> Hello:
        # Only the version is read strictly: an old hub must still be recognised as old.
        version = _int(args[0])
        rest = args[1:] + ["?"] * 3
        wands = _int(rest[1]) if rest[1].isdigit() else 0
        return Hello(version, rest[0], wands, rest[2])

    def _kind_p(self, args: list[str], host_t: float) -> Press:
        wand, stamp = self._exactly(args, 2)
        return Press(self.wand(wand), _int(stamp), host_t)

    def _kind_r(self, args: list[str], host_t: float) -> Release:
        wand, stamp = self._exactly(args, 2)
        return Release(self.wand(wand), _int(stamp), host_t)

    def _kind_t(self, args: list[str], host_t: float) -> TipPressed:
        wand, stamp = self._exactly(args, 2)
        return TipPressed(self.wand(wand), _stamp(stamp), host_t)

    def _kind_u(self, args: list[str], host_t: float) -> TipLifted:
        wand, stamp = self._exactly(args, 2)
        return TipLifted(self.wand(wand), _stamp(stamp), host_t)

    def _kind_cue(self, args: list[str], host_t: float) -> CuePressed:
        return CuePressed(_int(self._exactly(args, 1)[0]))

    def _kind_hb(self, args: list[str], host_t: float) -> Heartbeat:
        return Heartbeat(_int(self._exactly(args, 1)[0]))

    def _kind_pong(self, args: list[str], host_t: float) -> Pong:
        token, stamp = self._exactly(args, 2)
        return Pong(token, _int(stamp))

    def _kind_time(self, args: list[str], host_t: float) -> HubTime:
        return HubTime(_int(self._exactly(args, 1)[0]))

    def _kind_armed(self, args: list[str], host_t: float) -> RaceArmed:
        race, stamp = self._exactly(args, 2)
        return RaceArmed(_int(race), _int(stamp))

    def _kind_disarmed(self, args: list[str], host_t: float) -> Disarmed:
        return Disarmed(_int(self._exactly(args, 1)[0]))

    def _kind_win(self, args: list[str], host_t: float) -> RaceWon:
        race, wand, stamp, tie = self._exactly(args, 4)
        tied = _tie(tie)
        for other in tied:
            self.wand(str(other))
        return RaceWon(self.wand(wand), _int(stamp), tied, _int(race))

    def _kind_early(self, args: list[str], host_t: float) -> EarlyPress:
        race, wand, stamp = self._exactly(args, 3)
        return EarlyPress(_int(race), self.wand(wand), _int(stamp))

    def _kind_lost(self, args: list[str], host_t: float) -> Lost:
        first, count = self._exactly(args, 2)
        return Lost(_int(first), _int(count))

    def _kind_err(self, args: list[str], host_t: float) -> HubError:
        command, reason = self._exactly(args, 2)
        return HubError(command, reason)

    def _kind_ok(self, args: list[str], host_t: float) -> Ack:
        return Ack(" ".join(args))


# The parser -------------------------------------------------------------------------------------

class HubProtocol:
    """Fed bytes with `data_received`; calls `handle_event(seq, message, raw)` for every good line.

    Garbage (no frame start, bad checksum, runaway lines, unknown kinds or wands) is dropped and
    counted in `rejected` by reason; `last_problem` says what the last one was. A '@' always
    starts a new frame, so a frame that follows garbage on the same line still gets through.
    """

    def __init__(self, handle_event: Callable[[int, HubMessage, bytes], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.handle_event = handle_event or self._ignore
        self.clock = clock
        self.decoder = MessageDecoder()
        self.rejected: Counter[str] = Counter()
        self.last_problem: str | None = None
        self.lines_ok = 0
        self._buffer = bytearray()

    @property
    def garbage(self) -> int:
        return sum(self.rejected.values())

    def data_received(self, data: bytes) -> None:
        for piece in _split_keeping_newlines(data):
            self._take(piece)

    def connection_lost(self) -> None:
        """The port went away: a half frame in the buffer can never be finished."""
        if self._buffer:
            self._reject(HubLineError("half_frame", f"half a frame when the port closed: {bytes(self._buffer[:40])!r}"))
        self._buffer.clear()

    def _take(self, piece: bytes) -> None:
        if piece.endswith(b"\n"):
            self._buffer += piece[:-1]
            line = bytes(self._buffer).rstrip(b"\r")
            self._buffer.clear()
            if line:
                self._line(line)
            return
        self._buffer += piece
        if len(self._buffer) > MAX_LINE:
            self._overflow()

    def _overflow(self) -> None:
        # Drop the runaway bytes but keep a frame that may have begun after them.
        start = self._buffer.rfind(b"@")
        keep = start >= 0 and len(self._buffer) - start <= MAX_LINE
        self._reject(HubLineError("too_long", f"runaway line without newline: {bytes(self._buffer[:24])!r}..."))
        del self._buffer[:start if keep else len(self._buffer)]

    def _line(self, line: bytes) -> None:
        # A new '@' mid-line means the bytes before it were garbage (or half a frame).
        start = line.rfind(b"@")
        if start > 0:
            self._reject(HubLineError("half_frame", f"garbage before a frame: {line[:min(start, 40)]!r}"))
            line = line[start:]
        try:
            seq, words = unframe(line)
            message = self.decoder.decode(words[0], words[1:], self.clock())
        except HubLineError as exc:
            self._reject(exc)
            return
        if isinstance(message, Hello) and message.protocol == PROTOCOL_VERSION:
            self.decoder.wands = message.wands
        self.lines_ok += 1
        self.handle_event(seq, message, line)

    def _reject(self, problem: HubLineError) -> None:
        self.rejected[problem.reason] += 1
        self.last_problem = str(problem)

    @staticmethod
    def _ignore(seq: int, message: HubMessage, raw: bytes) -> None:
        pass


def _split_keeping_newlines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True) if b"\n" in data else [data]
