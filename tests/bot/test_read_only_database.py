"""A database Boardroom can't write to stops start-up with one line (issue 10, fault 3), instead of passing it and
answering every move with "Sorry — something went wrong". Made read-only as a server would: permission bits for an
ordinary user; for root (whom permission bits don't stop) an immutable file or a read-only mount."""

import contextlib
import os
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.__main__ import run
from bot.settings import Settings
from storage import StoreFileError, open_store
from tests.bot.toygame import Toy


def settings_for(path: Path) -> Settings:
    return Settings(_env_file=None, discord_token="good-token", database_path=path)  # type: ignore[call-arg]


async def make_database(path: Path) -> None:
    store = await open_store(path)
    await store.close()


@contextlib.contextmanager
def read_only_file(path: Path) -> Iterator[None]:
    if os.geteuid() != 0:
        path.chmod(0o444)
        yield
        path.chmod(0o644)
        return
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("root, and this filesystem has no immutable flag: no way to make a file read-only for root here")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


@contextlib.asynccontextmanager
async def database_in_read_only_folder(folder: Path) -> AsyncIterator[Path]:
    """A database made in `folder`, then the folder made read-only (as a whole mount, for root)."""
    folder.mkdir()
    path = folder / "db.sqlite3"
    if os.geteuid() != 0:
        await make_database(path)
        folder.chmod(0o555)
        try:
            yield path
        finally:
            folder.chmod(0o755)
        return
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)], capture_output=True).returncode:
        pytest.skip("root without the right to mount: no way to make a folder read-only for root here")
    try:
        await make_database(path)
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        yield path
    finally:
        subprocess.run(["umount", str(folder)], check=True)


async def test_a_read_only_database_file_stops_start_up_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "db.sqlite3"
    await make_database(path)
    with read_only_file(path):
        with pytest.raises(StoreFileError, match="is read-only"):
            await open_store(path)
        code = await run(settings_for(path), games={"toy": Toy()})
    assert code == 2  # the file, not a passing failure: systemd does not restart on it
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(path) in err[0] and "read-only" in err[0] and "permissions" in err[0]


async def test_a_database_in_a_read_only_folder_stops_start_up_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with database_in_read_only_folder(tmp_path / "data") as path:
        code = await run(settings_for(path), games={"toy": Toy()})
    assert code == 2  # the file, not a passing failure: systemd does not restart on it
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "folder I can't write to" in err[0], err
