"""Fixtures: a fresh store per test on each backend (`backend`: a real SQLite file — WAL needs one — or this
worker's PostgreSQL database, emptied), and the toy game.

`store` and `target` (what `open_store` is given: the file, or the database's URL) run every test that uses them
on both backends. A test of one backend's own layout names it: `@pytest.mark.parametrize("backend", ["sqlite"])`.
`db_path` is always the SQLite file (for the SQLite-only tests that open it with sqlite3)."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import GameStore, open_store
from tests.storage.toy_game import ToyDraw

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "boardroom.sqlite3"


@pytest.fixture
def target(backend: str, db_path: Path, request: pytest.FixtureRequest) -> str | Path:
    """Where the test's store lives: the SQLite file, or the URL of an emptied PostgreSQL database."""
    if backend == "sqlite":
        return db_path
    return request.getfixturevalue("fresh_postgres")


@pytest.fixture
async def store(target: str | Path) -> AsyncIterator[GameStore]:
    s = await open_store(target)
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
def toy() -> ToyDraw:
    return ToyDraw()
