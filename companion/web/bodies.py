"""What every request body must be before a route sees it: plain text keys and values, keys of a sane
length, nesting of a sane depth. Refused with a 422 naming the field, before anything is stored.

JSON may carry a lone surrogate (``"\\ud800"``): Python reads it into a ``str`` that no UTF-8 file,
database or answer can hold. A key can be any length; nothing Incanto knows has a key of more than a
few words.
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, model_validator

from companion.errors import short_repr  # repr escapes a lone surrogate: the message is always valid text

MAX_KEY_CHARS = 64
MAX_DEPTH = 32  # any body; the engine holds an action to its own, smaller depth


class Body(BaseModel):
    """Base of every request body: unknown fields refused, and every key and string plain text."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _plain(cls, data: Any) -> Any:
        if (problem := plain_problem(data)) is not None:
            raise ValueError(problem)
        return data


def plain_problem(value: Any, where: str = "", depth: int = 0) -> str | None:
    """The first thing in ``value`` that is not plain JSON text, naming where it is; None if none."""
    if depth > MAX_DEPTH:
        return f"{short_repr(where)} is nested deeper than {MAX_DEPTH} levels"
    if isinstance(value, str):
        return None if _is_text(value) else f"{short_repr(where or 'the body')} is not valid text (a lone surrogate)"
    if isinstance(value, dict):
        return _dict_problem(value, where, depth)
    if isinstance(value, list):
        return next((p for n, item in enumerate(value) if (p := plain_problem(item, _at(where, n), depth + 1))), None)
    return None


def _dict_problem(value: dict[Any, Any], where: str, depth: int) -> str | None:
    for key, item in value.items():
        key = str(key)
        if not _is_text(key):
            return f"key {short_repr(key)} in {short_repr(where or 'the body')} is not valid text (a lone surrogate)"
        if len(key) > MAX_KEY_CHARS:
            return f"key {short_repr(key)} in {short_repr(where or 'the body')} is {len(key)} characters; at most {MAX_KEY_CHARS}"
        if (problem := plain_problem(item, _at(where, key), depth + 1)) is not None:
            return problem
    return None


def _at(where: str, key: object) -> str:
    return f"{where}.{key}" if where else str(key)


def _is_text(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
