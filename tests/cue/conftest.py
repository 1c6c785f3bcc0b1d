"""Shared synthetic players for the cue tests: espeak-ng speech made once per test session."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.cue.bench import Scene, enrol_chorus, talk_pool
from companion.cue.config import CueConfig
from companion.cue.templates import ChantBook

PLAYERS = ("en-us", "en+f3", "en-gb-scotland", "en-029+f5")


@pytest.fixture(scope="session")
def scene(tmp_path_factory: pytest.TempPathFactory) -> Scene:
    return Scene(tmp_path_factory.mktemp("cue-speech"), PLAYERS)


@pytest.fixture(scope="session")
def book_dir(tmp_path_factory: pytest.TempPathFactory, scene: Scene) -> Path:
    folder = tmp_path_factory.mktemp("chant-book")
    enrol_chorus(scene, folder)
    return folder


@pytest.fixture(scope="session")
def book(book_dir: Path) -> ChantBook:
    from companion.cue import templates

    return templates.load(book_dir)


@pytest.fixture(scope="session")
def chatter(scene: Scene) -> list[np.ndarray]:
    return talk_pool(scene)


@pytest.fixture
def config(book_dir: Path) -> CueConfig:
    return CueConfig(templates_dir=book_dir)
