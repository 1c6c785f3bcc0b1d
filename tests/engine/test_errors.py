"""The one way a bad value is quoted in a message: whole when short, visibly cut when long."""
from __future__ import annotations

from companion.errors import SHORT, short_repr


def test_a_short_value_is_quoted_whole() -> None:
    assert short_repr("wand") == "'wand'"
    assert short_repr([1, 2]) == "[1, 2]"


def test_a_long_value_is_cut_with_an_open_end() -> None:
    shown = short_repr("q" * 15_000)
    assert len(shown) == SHORT and shown == "'" + "q" * (SHORT - 4) + "..."


def test_a_lone_surrogate_is_shown_escaped_so_the_message_is_valid_text() -> None:
    shown = short_repr("\ud800" * 40)
    assert shown.startswith("'\\ud800") and shown.endswith("...")
    shown.encode("utf-8")  # would raise on a raw surrogate
