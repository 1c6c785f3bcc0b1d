"""How every ``bench`` command prints its figures: one JSON object with ``--json`` (the interface
others measure with), else one aligned line per figure for a person."""
from __future__ import annotations

import json
from typing import Any
from collections.abc import Mapping


def print_figures(figures: Mapping[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(figures))
        return
    width = max((len(key) for key in figures), default=0)
    for key, value in figures.items():
        print(f"{key:>{width}}: {json.dumps(value) if isinstance(value, (dict, list)) else value}")
