from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the test game module beside this file

from stones import RULES  # noqa: E402

from companion import games  # noqa: E402


@pytest.fixture
def stones():
    return RULES


@pytest.fixture
def with_stones(monkeypatch):
    """Register the test game with the registry, as a real game module would be."""
    monkeypatch.setitem(games.MODULES, "stones", "stones")
    return RULES
