"""Shared by the vision tests, which use rendered castings with seeds below the bench's held-out range."""
from __future__ import annotations

import pytest

from vision.config import VisionConfig, load_config


@pytest.fixture(scope="session")
def config() -> VisionConfig:
    return load_config()
