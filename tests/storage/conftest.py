"""Fixtures: a fresh file-backed store per test (WAL needs a real file) and the toy game."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import GameStore, open_store
from tests.storage.toy_game import ToyDraw


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "boardroom.sqlite3"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[GameStore]:
    s = await open_store(db_path)
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
def toy() -> ToyDraw:
    return ToyDraw()
