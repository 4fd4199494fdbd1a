"""Schema migrations: numbered SQL files in storage/sqlite/migrations/, applied in order at start-up, each in a
transaction.

A migration file is `NNNN_name.sql` (0001, 0002, … without gaps). The database records the last applied number in
`PRAGMA user_version` (cheap to read: it sits in the file header) and each application in `schema_migrations`.
`PRAGMA application_id` marks the file as a Boardroom store, so another program's SQLite file is never touched.

Before anything is written, the file is checked: a file that is not an SQLite database, is corrupt, belongs to
another program or was written by a newer Boardroom is refused with a `StoreFileError` naming it, and left as it was.
Re-running is harmless: a migration whose number is not above `user_version` is skipped (checked again inside the
write transaction, so two processes starting at once cannot both apply it).
"""

import re
import sqlite3
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

from storage.errors import SchemaTooNew, StoreFileError

APPLICATION_ID = 0x42524D31
"""'BRM1': written into every Boardroom store's header."""

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
_SQLITE_MAGIC = b"SQLite format 3\x00"


@dataclass(frozen=True)
class Migration:
    number: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        return split_statements(self.sql)


@cache
def load_migrations(directory: Path = MIGRATIONS_DIR) -> tuple[Migration, ...]:
    """The migration files in order; numbered 1…n without gaps or a clear error for the developer."""
    found: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        match = _FILE_NAME.match(path.name)
        if not match:
            raise RuntimeError(f"{path}: migration files must be named NNNN_name.sql")
        found.append(Migration(int(match.group(1)), match.group(2), path.read_text(encoding="utf-8")))
    numbers = [m.number for m in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"{directory}: migrations must be numbered 0001, 0002, … without gaps (found {numbers})")
    return tuple(found)


def latest_version(migrations: tuple[Migration, ...] | None = None) -> int:
    return len(migrations if migrations is not None else load_migrations())


def split_statements(sql: str) -> list[str]:
    """Split a script into complete statements (triggers' BEGIN … END bodies stay whole)."""
    statements: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            text = _strip_comments(buffer).strip()
            if text:
                statements.append(text)
            buffer = ""
    if _strip_comments(buffer).strip():
        raise RuntimeError(f"incomplete SQL statement at the end of a migration: {buffer.strip()[:80]!r}")
    return statements


def _strip_comments(sql: str) -> str:
    return "\n".join(line for line in sql.splitlines() if not line.lstrip().startswith("--"))


def check_file(path: Path, create: bool) -> None:
    """Refuse, before SQLite opens it, a path that cannot hold a store (without changing anything)."""
    if path.is_dir():
        raise StoreFileError(str(path), "is a directory, not a database file")
    if not path.exists():
        if not create:
            raise StoreFileError(str(path), "no such database file (and creating one was not allowed)")
        if not path.parent.is_dir():
            raise StoreFileError(str(path), f"cannot create the database: folder {path.parent} does not exist")
        check_folder_writable(path)
        return
    try:
        with path.open("rb") as f:
            head = f.read(100)
    except OSError as exc:
        raise StoreFileError(str(path), f"cannot be read ({exc.strerror or exc})") from None
    if not head:
        return  # an empty file is an empty database to SQLite
    if not head.startswith(_SQLITE_MAGIC):
        raise StoreFileError(str(path), "is not an SQLite database (wrong file header); refusing to touch it")
    if len(head) < 100:
        raise StoreFileError(str(path), "is truncated or corrupt (shorter than an SQLite header)")
    check_folder_writable(path)


READ_ONLY_HINT = (
    "Boardroom writes to the database and, beside it, to its -wal and -shm files: check the permissions of the file "
    "and its folder, and that the disk isn't mounted read-only"
)


def check_folder_writable(path: Path) -> None:
    """The folder must take new files (SQLite's -wal and -shm): tried with a real file, since permission bits say
    nothing to root and nothing about a read-only mount."""
    try:
        with tempfile.TemporaryFile(dir=path.parent, prefix=".boardroom-probe-"):
            pass
    except OSError as exc:
        raise StoreFileError(
            str(path), f"is in a folder I can't write to ({exc.strerror or exc}). {READ_ONLY_HINT}."
        ) from None


def check_writable(conn: sqlite3.Connection, label: str) -> None:
    """A database SQLite could only open read-only serves reads and fails every move: refuse it at start-up. The
    probe writes nothing (an update of no row, rolled back) but needs a writable file."""
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("UPDATE games SET id = id WHERE 0")
        finally:
            conn.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:
        raise StoreFileError(label, f"is read-only ({exc}). {READ_ONLY_HINT}.") from None


def inspect(conn: sqlite3.Connection, label: str, known: int) -> int:
    """Read-only checks before any write; returns the file's schema version (0: new, empty database)."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if app_id not in (0, APPLICATION_ID):
        raise StoreFileError(label, f"is an SQLite database of another program (application id {app_id:#x})")
    if app_id == 0:
        tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if tables:
            raise StoreFileError(label, "is an SQLite database of another program (it is not a Boardroom store)")
    if version > known:
        raise SchemaTooNew(label, version, known)
    return version


def migrate(conn: sqlite3.Connection, label: str, migrations: tuple[Migration, ...] | None = None) -> int:
    """Apply the pending migrations, each in one IMMEDIATE transaction; returns the schema version now in force.

    `conn` must be in autocommit mode (isolation_level=None) so that the transactions here are the only ones."""
    migrations = migrations if migrations is not None else load_migrations()
    known = latest_version(migrations)
    inspect(conn, label, known)
    for migration in migrations:
        conn.execute("BEGIN IMMEDIATE")
        try:
            current = inspect(conn, label, known)
            if current >= migration.number:
                conn.execute("ROLLBACK")
                continue
            if current != migration.number - 1:
                raise StoreFileError(label, f"schema version {current} cannot take migration {migration.number}")
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            for statement in migration.statements():
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.number, migration.name, datetime.now(UTC).isoformat(timespec="microseconds")),
            )
            conn.execute(f"PRAGMA user_version = {migration.number:d}")
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID:d}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    return conn.execute("PRAGMA user_version").fetchone()[0]
