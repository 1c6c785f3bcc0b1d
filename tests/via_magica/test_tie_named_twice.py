"""A call of the same instant names each wand once: a duplicated player is refused, never stored."""
from __future__ import annotations

import pytest

from companion.errors import IllegalAction
from via_magica_helpers import play, script


@pytest.mark.parametrize("tie", [["Tom", "Tom"], ["Tom", "Paola", "Tom"], ["Paola", "Tom", "Paola"]])
def test_a_tie_naming_a_player_twice_is_refused(tie: list[str]) -> None:
    lines = script("paola_45_points")
    lines[9] = {"type": "incantatum", "first": "Tom", "tie": tie}
    with pytest.raises(IllegalAction) as refused:
        play(lines)
    assert refused.value.problems[0].rule == "incantatum-tie" and "named twice" in str(refused.value)
