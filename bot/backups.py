"""Backups of the whole database: made on a schedule and on a moderator's word, named by time, the last few kept.

SQLite in WAL mode survives a killed process, but not a damaged WAL or a failing disk. A backup is a consistent
copy made while play goes on (`store.maintenance.backup`: `VACUUM INTO` from a connection of its own, checked before it
takes its name). Files are `boardroom-<kind>-<UTC time>.sqlite3` in `Settings.backups`; `auto` ones (every
`backup_every_hours`) and `manual` ones (`/mod backup`) are rotated separately, the last `backup_keep` of each
kept, so pressing `/mod backup` again and again never pushes the daily backups out. Restoring: stop the bot, copy
a backup over the database file (removing its `-wal` and `-shm` files), start the bot (see the README).
"""

import logging
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from storage import GameStore

log = logging.getLogger("boardroom.backups")
Kind = Literal["auto", "manual"]
NAME = re.compile(r"boardroom-(?P<kind>auto|manual)-(?P<when>\d{8}T\d{12}Z)\.sqlite3")


def backup_name(kind: Kind, when: datetime) -> str:
    return f"boardroom-{kind}-{when.astimezone(UTC).strftime('%Y%m%dT%H%M%S%fZ')}.sqlite3"


def backups(folder: Path, kind: Kind) -> list[Path]:
    """The backups of that kind in `folder`, oldest first."""
    if not folder.is_dir():
        return []
    found = [p for p in folder.iterdir() if (m := NAME.fullmatch(p.name)) and m["kind"] == kind]
    return sorted(found, key=lambda p: p.name)


def taken_at(path: Path) -> datetime:
    """When a backup was made, from its name."""
    match = NAME.fullmatch(path.name)
    assert match is not None
    return datetime.strptime(match["when"], "%Y%m%dT%H%M%S%fZ").replace(tzinfo=UTC)


async def make_backup(store: GameStore, folder: Path, kind: Kind, now: datetime, keep: int) -> Path:
    """One backup now; then the oldest of its kind beyond `keep` are removed. Raises `StorageError`."""
    dest = folder / backup_name(kind, now)
    await store.maintenance.backup(dest)
    for old in backups(folder, kind)[:-keep]:
        try:
            old.unlink()
        except OSError as exc:
            log.warning("could not remove the old backup %s: %s", old, exc)
    log.info("backup made", extra={"fields": {"file": str(dest), "kind": kind}})
    return dest
