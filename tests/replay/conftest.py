"""Fixtures: the storage tests' fresh store, its path and the toy game — on SQLite only: replaying a game is the same
above either backend, and the storage contract (tests/storage) runs on both."""

import pytest

from tests.storage.conftest import db_path, store, target, toy


@pytest.fixture
def backend() -> str:
    return "sqlite"


__all__ = ["backend", "db_path", "store", "target", "toy"]
