"""Settings read from a JSON file into a pydantic model, every problem reported at once.

A bad file is refused whole, with one line per problem naming the key and what it may be, so the
person at the table fixes everything in one go instead of one key per start:

    settings.json: display.port: must be less than or equal to 65535 (got 70000)
    settings.json: table.hoob: not a setting here; the settings are 'camera', 'hub', ...
"""
from __future__ import annotations

import json
import re
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from companion.errors import IncantoError, short_repr

Model = TypeVar("Model", bound=BaseModel)


class SettingsError(IncantoError, ValueError):
    """Settings that cannot be used: ``problems`` holds one line per bad key, the message all of them."""

    def __init__(self, problems: list[str] | str, where: str = "") -> None:
        problems = [problems] if isinstance(problems, str) else problems
        self.problems = [f"{where}: {p}" if where else p for p in problems]
        super().__init__("\n".join(self.problems))


def load(model: type[Model], path: Path, error: type[SettingsError] = SettingsError) -> Model:
    """The file at ``path`` as ``model``; ``error`` naming the file and every bad key otherwise."""
    return validate(model, read_json(path, error), repr(str(path)), error)


def read_json(path: Path, error: type[SettingsError] = SettingsError) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"no such file {str(path)!r}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise error(f"cannot be read: {e}", repr(str(path))) from None
    except json.JSONDecodeError as e:
        raise error(f"not JSON: {e}", repr(str(path))) from None
    except RecursionError:  # nested thousands of levels deep: no settings file is
        raise error("nested too deeply to be a settings file", repr(str(path))) from None


def validate(model: type[Model], data: Any, where: str = "", error: type[SettingsError] = SettingsError,
             names: Mapping[str, str] | None = None) -> Model:
    """``data`` as ``model``, or ``error`` listing every problem; ``names`` calls a key by another name
    where the value came from elsewhere (``{"display.port": "--port"}``)."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise error(problems(e, model, names), where) from None


def problems(error: ValidationError, model: type[BaseModel], names: Mapping[str, str] | None = None) -> list[str]:
    """One line per error: the dotted key, what is wrong with it in words, and the value given."""
    return [_problem(e, model, names or {}) for e in error.errors(include_url=False)]


def _problem(e: Any, model: type[BaseModel], names: Mapping[str, str]) -> str:
    key = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in e["loc"]).lstrip(".") or "the file"
    key = names.get(key, key)
    if e["type"] == "extra_forbidden":
        known = ", ".join(repr(k) for k in _known_keys(model, e["loc"][:-1]))
        return f"{key}: not a setting here; the settings are {known}"
    if e["type"] == "missing":
        return f"{key}: missing (it is required)"
    return f"{key}: {_words(e['msg'])} (got {short_repr(e.get('input'))})"


def _words(message: str) -> str:
    """pydantic's message in the file's terms ("must be a valid number"), without its inner names."""
    message = message.removeprefix("Value error, ").replace(" after validation", "")
    message = re.sub(r" or instance of \w+", "", message)
    if message.startswith("Input should be "):
        return "must be " + message.removeprefix("Input should be ")
    return message[:1].lower() + message[1:]


def _known_keys(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    """The keys the file may use at ``loc`` (as the file spells them): the fields of the model there,
    through nested models and the maps and lists that hold them (``places.r0`` is a place's)."""
    here: Any = model
    for part in loc:
        if _is_model(here):
            field = next((f for name, f in here.model_fields.items() if part in (name, f.alias)), None)
            here = field.annotation if field is not None else None
        else:  # a key of a map or an index of a list: the model its values are
            here = next((a for a in _inner(here) if _is_model(a)), None)
        if here is None:
            break
    if not _is_model(here):
        here = next((a for a in _inner(here) if _is_model(a)), model) if here is not None else model
    return sorted(f.alias or name for name, f in here.model_fields.items())


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _inner(annotation: Any) -> list[Any]:
    """Every type inside ``annotation`` (``dict[str, Place] | None`` -> str, Place, None...)."""
    found = []
    for arg in typing.get_args(annotation):
        found += [arg, *_inner(arg)]
    return found
