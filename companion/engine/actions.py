"""Typed actions: every action a game accepts is declared as a model, and only a validated action is
stored.

A game declares each of its actions as a subclass of ``ActionModel`` with a literal ``type`` and joins
them in a discriminated union (``actions_of``). ``parse_action`` first bounds the raw input (size and
nesting, before any model walks it), then validates it against the union and returns the game's own
model, which the rules check and apply. Unknown keys, wrong types and over-deep nesting are refused
with a ``MalformedAction`` that names the key. What the engine stores is the model's ``payload``:
plain JSON with only the declared keys that were given, exactly as Incanto has always stored it.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, TypeVar, Union

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

from companion.errors import MalformedAction, short_repr

Proposal = dict[str, Any]
"""An action as it arrives from a camera, a button, a tablet or a script, and as it is stored: a JSON
object with a ``"type"``, not yet validated (arriving) or the payload of a model (stored)."""

MAX_ACTION_BYTES = 8192  # the largest legal action (a 4-wand casting with payments) is a few hundred bytes
MAX_ACTION_DEPTH = 6  # an action is an object of lists of objects at the most; more is junk
MAX_WORD = 64  # a name, a place, a token id or a kind: longer is junk

Word = Annotated[str, StringConstraints(min_length=1, max_length=MAX_WORD)]
"""A short string of an action: a player's name, a place (``r3``), a token id, a kind, a card."""


class ActionPart(BaseModel):
    """Base of every declared action and of the parts inside one (a choice, a card): unknown keys
    refused, values never coerced, never changed."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    def as_json(self) -> dict[str, Any]:
        """As the table wrote it: the declared keys that were given."""
        return self.model_dump(mode="json", exclude_unset=True)


class ActionModel(ActionPart):
    """Base of every declared action: a part with a ``type``."""

    type: str  # each action narrows it to its own literal

    def payload(self) -> Proposal:
        """The JSON the log keeps: the declared keys that were given, and always the type."""
        dumped = self.as_json()
        dumped["type"] = self.type  # a literal default is never "set", but the type is always stored
        return dumped


A = TypeVar("A", bound=ActionModel)


def actions_of(*models: type[ActionModel]) -> TypeAdapter[Any]:
    """The adapter of a game's actions: one union told apart by each model's ``type`` literal."""
    union: Any = Union[tuple(models)]  # noqa: UP007 - built at run time from a tuple
    tagged: Any = Annotated[union, Field(discriminator="type")]  # a type made at run time: Any to a checker
    return TypeAdapter(tagged)


def parse_action(adapter: TypeAdapter[A], raw: object, max_depth: int = MAX_ACTION_DEPTH) -> A:
    """``raw`` validated against ``adapter``: the game's own model of the action."""
    check_bounds(raw, max_depth)
    try:
        return adapter.validate_python(raw)
    except ValidationError as exc:
        raise MalformedAction(describe(exc)) from None


def check_bounds(raw: object, max_depth: int = MAX_ACTION_DEPTH, max_bytes: int = MAX_ACTION_BYTES,
                 what: str = "action") -> None:
    """Refuse input too big or too deep to be an action, naming the key where it goes too deep."""
    if not isinstance(raw, Mapping):
        raise MalformedAction(f"an {what} is a JSON object with a string 'type', not {short_repr(raw)}" if what == "action"
                              else f"a {what} is a JSON object, not {short_repr(raw)}")
    _check_depth(raw, max_depth, "", what)
    try:
        size = len(json.dumps(raw, ensure_ascii=False).encode("utf-8", "surrogatepass"))
    except (TypeError, ValueError) as exc:
        raise MalformedAction(f"{what} must be plain JSON: {exc}") from None
    if size > max_bytes:
        biggest = max(raw, key=lambda k: len(str(k)) + len(json.dumps(raw[k], ensure_ascii=False, default=str)))
        raise MalformedAction(f"{what} is {size} bytes, more than {max_bytes}; key {short_repr(biggest)} is the largest")


def _check_depth(value: object, budget: int, where: str, what: str) -> None:
    # Iterative walks would do too, but nothing deeper than the budget is ever entered, so the
    # recursion is bounded by the budget whatever the input.
    if isinstance(value, Mapping | list | tuple):
        if budget <= 0:
            raise MalformedAction(f"{what} key {short_repr(where or 'type')} is nested deeper than an {what} can be"
                                  if what == "action" else f"{what} key {short_repr(where)} is nested too deep")
        items = value.items() if isinstance(value, Mapping) else enumerate(value)
        for key, item in items:
            _check_depth(item, budget - 1, f"{where}.{key}" if where else str(key), what)


MAX_PROBLEMS = 8  # problems named in one message; a junk object may have hundreds


def describe(exc: ValidationError, what: str = "action", tagged: bool = True) -> str:
    """Every problem of a validation error on one line, each naming its key. ``tagged``: the first
    step of each location is the union's type tag, not a key the proposer wrote."""
    errors = exc.errors(include_url=False)
    parts = [_problem(error, what, error["loc"][1:] if tagged else error["loc"]) for error in errors[:MAX_PROBLEMS]]
    if len(errors) > MAX_PROBLEMS:
        parts.append(f"and {len(errors) - MAX_PROBLEMS} more")
    return "; ".join(parts)


def _problem(error: Any, what: str, loc: tuple[int | str, ...]) -> str:
    where = short_repr(".".join(str(p) for p in loc) or "type")
    if error["type"] == "extra_forbidden":
        return f"{what} key {where} is unknown"
    if error["type"] == "union_tag_invalid":
        return f"{what} 'type' {short_repr(error['input'].get('type'))} is unknown; {error['ctx']['expected_tags']}"
    if error["type"] == "union_tag_not_found":
        return f"{what} has no string 'type'"
    if error["type"] == "value_error":  # a validator's own message, which names the value already
        return f"{what} key {where}: {error['ctx']['error']}"
    return f"{what} key {where}: {error['msg']} (got {short_repr(error['input'])})"
