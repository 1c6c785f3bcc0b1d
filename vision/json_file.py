"""Reading one of Incanto's small JSON files (configuration, places, taps) with a one-line refusal
that names the file, whatever is wrong with it: missing, a folder, unreadable, not text, not JSON."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def read_json(path: Path, what: str, error: type[Exception], missing: str | None = None) -> Any:
    """The JSON value in ``path``; otherwise ``error`` saying which ``what`` and why (``missing``: the
    words for a file that is not there, e.g. which command writes it)."""
    name = repr(str(path))
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(missing or f"no {what} at {name}") from None
    except IsADirectoryError:
        raise error(f"{what} {name} is a folder, not a file") from None
    except UnicodeDecodeError:
        raise error(f"{what} {name} is not text") from None
    except json.JSONDecodeError as e:
        raise error(f"{what} {name} is not valid JSON: {e}") from None
    except RecursionError:  # JSON nested thousands of levels deep: no file of Incanto's is
        raise error(f"{what} {name} is nested too deeply to be one of Incanto's files") from None
    except OSError as e:
        raise error(f"{what} {name} cannot be read: {e.strerror or e}") from None
