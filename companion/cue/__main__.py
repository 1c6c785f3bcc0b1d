"""`python -m companion.cue enrol --player NAME [--wav FILE ... [--near-miss-wav FILE ...]]` records a
player's chant and near misses; `python -m companion.cue listen [--wav FILE]` prints every cue heard."""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

import numpy as np

from companion.cue import CueError
from companion.cue import config as cue_config
from companion.cue import templates
from companion.cue.config import CueConfig
from companion.cue.detector import ChantDetector, Verdict
from companion.cue.enrol import NEAR_MISS_PROMPTS, cut_takes, enrol_player, takes_from_wavs
from companion.cue.microphone import Microphone, MicrophoneError, WavSource


def _config(args: argparse.Namespace) -> CueConfig:
    config = cue_config.load(args.config) if args.config else CueConfig()
    return config.model_copy(update={"templates_dir": Path(args.templates)}) if args.templates else config


def _enrol(args: argparse.Namespace) -> int:
    config = _config(args)
    if args.wav:
        takes = takes_from_wavs(args.wav, config.voice)
        near = takes_from_wavs(args.near_miss_wav, config.voice) if args.near_miss_wav else []
    else:
        takes, near = _record(args, config)
    book = enrol_player(args.player, takes, config, near)
    for warning in book.warnings + (() if near else (NO_NEAR_MISSES,)):
        print(f"warning: {warning}", file=sys.stderr)
    print(json.dumps({"player": args.player, "takes": len(takes), "near_misses": len(near), "players": book.players,
                      "threshold": round(book.threshold, 3), "folder": str(config.templates_dir)}))
    return 0


NO_NEAR_MISSES = ("no near misses enrolled: words like \"Incantibus\" may be taken for the cue; "
                  "add --near-miss-wav with recordings of " + ", ".join(NEAR_MISS_PROMPTS))


def _record(args: argparse.Namespace, config: CueConfig) -> tuple[list[np.ndarray], list[np.ndarray]]:
    print(f"Say \"In-can-to!\" {args.takes} times with a breath between: in your everyday voice, then lower and"
          " slower, then higher and quicker, then everyday again, as you might call it in the game.", flush=True)
    with Microphone(args.device) as mic:
        takes = cut_takes(mic, args.takes, config.voice, on_take=lambda k: print(f"  take {k} heard", flush=True))
        print("Now say each of these once, with a breath between, as you say them at the table: "
              + ", ".join(f'"{w}"' for w in NEAR_MISS_PROMPTS), flush=True)
        near = cut_takes(mic, len(NEAR_MISS_PROMPTS), config.voice, on_take=lambda k: print(f"  word {k} heard", flush=True))
    return takes, near


def _listen(args: argparse.Namespace) -> int:
    config = _config(args)
    book = templates.load(config.templates_dir)
    if not book.templates:
        raise CueError(f"no chant enrolled in {str(config.templates_dir)!r}: run `python -m companion.cue enrol` first")
    detector = ChantDetector(book, config)
    detector.when_cue = lambda cue: print(json.dumps(asdict(cue)), flush=True)
    if args.verbose:
        detector.when_phrase = _print_verdict
    if args.wav:
        for block, t in WavSource(args.wav, t0=0.0).blocks():
            detector.hear(block, t)
        detector.flush()
        return 0
    with Microphone(args.device) as mic:
        for block, t in mic.blocks():
            detector.hear(block, t)
    return 0


def _print_verdict(verdict: Verdict) -> None:
    print(f"# phrase ending {verdict.phrase.t_end:.3f}: nearest {verdict.player!r} at {verdict.distance:.2f}"
          f" -> {'chant' if verdict.is_chant else 'not the chant'}", file=sys.stderr, flush=True)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="python -m companion.cue", description=__doc__)
    commands = top.add_subparsers(dest="command", required=True)
    for name in ("enrol", "listen"):
        sub = commands.add_parser(name)
        sub.add_argument("--templates", help="chant book folder (default: $INCANTO_CUE_TEMPLATES or var/cue/templates)")
        sub.add_argument("--config", help="cue settings JSON")
        sub.add_argument("--device", default=None, help="sound card (sounddevice name or number)")
    enrol = commands.choices["enrol"]
    enrol.add_argument("--player", required=True)
    enrol.add_argument("--wav", nargs="+", help="WAV files holding the chant's takes instead of the microphone")
    enrol.add_argument("--near-miss-wav", nargs="+", help="WAV files of the same player saying " + ", ".join(NEAR_MISS_PROMPTS))
    enrol.add_argument("--takes", type=int, default=4, help="takes to record from the microphone")
    listen = commands.choices["listen"]
    listen.add_argument("--wav", help="listen to a WAV file instead of the microphone")
    listen.add_argument("--verbose", action="store_true", help="also print every phrase and its distance")
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return _enrol(args) if args.command == "enrol" else _listen(args)
    except (CueError, MicrophoneError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
