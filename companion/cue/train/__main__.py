"""`python -m companion.cue.train [--out PATH] [--voices N] [--seed S] [--cache DIR]`: rebuild the chant model."""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from companion.cue.model import SHIPPED
from companion.cue.train import examples, fit, training_voices, utterances


def main(argv: Sequence[str] | None = None) -> int:
    args = argparse.ArgumentParser(prog="python -m companion.cue.train", description=__doc__)
    args.add_argument("--out", type=Path, default=SHIPPED, help="where the model goes (default: the package's own)")
    args.add_argument("--voices", type=int, default=40, help="espeak-ng voices (accent and variant pairs) besides festival's")
    args.add_argument("--seed", type=int, default=1)
    args.add_argument("--cache", type=Path, default=Path("var/cue/train-speech"), help="synthesised speech, kept for the next run")
    args.add_argument("--epochs", type=int, default=40)
    parsed = args.parse_args(argv)
    if parsed.voices < 2:
        args.error(f"--voices {parsed.voices!r}: give at least 2")
    started = time.perf_counter()
    rng = np.random.default_rng(parsed.seed)
    voices = training_voices(rng, parsed.voices)
    print(f"synthesising {len(voices)} voices into {parsed.cache}", flush=True)
    said = list(utterances(voices, parsed.cache, rng, progress=True))
    talk = [u.audio for u in said if not u.chant]
    rows: list[np.ndarray] = []
    labels: list[bool] = []
    groups: list[int] = []
    for u in said:
        for vector, chant in examples(u, talk, rng):
            rows.append(vector)
            labels.append(chant)
            groups.append(voices.index(u.voice))
    x, y, g = np.array(rows), np.array(labels, dtype=np.float64), np.array(groups)
    print(f"{len(y)} phrases, {int(y.sum())} of them the chant ({time.perf_counter() - started:.0f} s)", flush=True)
    held = np.isin(g, rng.choice(len(voices), size=max(1, len(voices) // 7), replace=False))
    check = fit(x[~held], y[~held], rng, epochs=parsed.epochs)
    scores = check.logits(x[held])
    negatives = np.sort(scores[y[held] == 0])
    bar = negatives[int(0.99 * (len(negatives) - 1))] if len(negatives) else 0.0
    print(f"voices kept aside: chants over the 1 %-false bar {np.mean(scores[y[held] == 1] > bar):.3f} "
          f"({int(y[held].sum())} chants, {len(negatives)} others)", flush=True)
    model = fit(x, y, rng, epochs=parsed.epochs)
    parsed.out.parent.mkdir(parents=True, exist_ok=True)
    model.save(parsed.out)
    print(f"saved {parsed.out} ({parsed.out.stat().st_size // 1024} KiB) in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
