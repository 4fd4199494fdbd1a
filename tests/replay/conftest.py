"""Fixtures: the storage tests' fresh file-backed store, its path and the toy game."""

from tests.storage.conftest import db_path, store, toy

__all__ = ["db_path", "store", "toy"]
