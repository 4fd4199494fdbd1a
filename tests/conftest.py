"""The whole suite's set-up: the message catalogs compiled from their sources before any test speaks Dutch or
German (`make test` compiles them too; this keeps a plain `pytest` honest after a `.po` changed); `store_factory`,
several connections to one database (several bot processes)."""

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.i18n import catalogs
from storage import GameStore, open_store


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput") and catalogs.stale():  # the controller only: workers share the files
        catalogs.compile_all()


StoreFactory = Callable[[], Awaitable[GameStore]]


@pytest.fixture
async def store_factory(tmp_path: Path) -> AsyncIterator[StoreFactory]:
    """Opens connections to ONE database, as several bot processes would (each call: a store of its own, closed at
    the end of the test). The database is an SQLite file today; the PostgreSQL backend parametrises this fixture
    (one fresh database per test) so that the multi-process tests run on both."""
    opened: list[GameStore] = []
    path = tmp_path / "data" / "shared.sqlite3"
    path.parent.mkdir(parents=True, exist_ok=True)

    async def make() -> GameStore:
        opened.append(await open_store(path))
        return opened[-1]

    try:
        yield make
    finally:
        for store in opened:
            await store.close()
