"""`python -m companion.cue.train [--out PATH] [--voices N] [--seed S] [--cache DIR]`: rebuild the chant model."""
from __future__ import annotations

import sys
import time
from collections.abc import Sequence

import numpy as np

from companion.cue.model import SHIPPED
from companion.cue.train import command, examples, fit, kept_aside, options, training_voices, utterances, written


def main(argv: Sequence[str] | None = None) -> int:
    parsed = options(command("python -m companion.cue.train", __doc__ or "", SHIPPED, "model", 40), argv)
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
    chants, bar, others = kept_aside(x, y, g, len(voices), rng, lambda xs, ys: fit(xs, ys, rng, epochs=parsed.epochs))
    print(f"voices kept aside: chants over the 1 %-false bar {np.mean(chants > bar):.3f} "
          f"({len(chants)} chants, {others} others)", flush=True)
    model = fit(x, y, rng, epochs=parsed.epochs)
    return written(model, parsed.out, started)


if __name__ == "__main__":
    sys.exit(main())
