"""The whole PostgreSQL database (`store.maintenance`): its schema version, the integrity check (real queries), and
restoring an exported game as is. Backups are PostgreSQL's own business (`pg_dump`, or the server's base backups
and WAL archive): `backup` refuses with a message that says so, and never pretends to have made one."""

from pathlib import Path

from storage.errors import BackupUnsupported, InvalidOperation
from storage.models import SEED_MAX, SEED_MIN, ExportedGame, GameRecord, now_utc
from storage.parts import Maintenance
from storage.postgres.database import Conn, Database, transaction
from storage.postgres.rows import GAME_COLUMNS, INSERT_LOG, INSERT_SEAT, fetch_game, log_values, options_json
from storage.postgres.seats import check_seats, seat_values

BACKUP_REFUSAL = (
    "this bot keeps its games in PostgreSQL ({label}): Boardroom makes no backup files of it. Back it up with "
    "PostgreSQL's own tools where the database runs, e.g. `pg_dump --format=custom --file=boardroom.dump "
    '"$DATABASE_URL"` (see docs/postgres.md)'
)

_CHECKS = {
    "a game's version differs from its log": (
        "SELECT g.id FROM games g LEFT JOIN (SELECT game_id, count(*) AS n, max(seq) AS top FROM action_log"
        " GROUP BY game_id) l ON l.game_id = g.id"
        " WHERE coalesce(l.n, 0) <> g.version OR coalesce(l.top, 0) <> g.version"
        " OR ((g.seed IS NOT NULL) <> (g.state IS NOT NULL)) ORDER BY g.id"
    ),
    "a timer of a game that is over": (
        "SELECT DISTINCT t.game_id FROM timers t JOIN games g ON g.id = t.game_id"
        " WHERE g.status IN ('finished', 'abandoned') ORDER BY 1"
    ),
    "a seat of a started game outside 0…seat_count-1": (
        "SELECT DISTINCT s.game_id FROM seats s JOIN games g ON g.id = s.game_id"
        " WHERE g.seat_count IS NOT NULL AND s.seat >= g.seat_count ORDER BY 1"
    ),
}


class PostgresMaintenance(Maintenance):
    def __init__(self, db: Database) -> None:
        self._db = db

    @property
    def schema_version(self) -> int:
        return self._db.schema_version

    async def backup(self, dest: Path) -> None:
        raise BackupUnsupported(BACKUP_REFUSAL.format(label=self._db.label))

    async def check_integrity(self) -> list[str]:
        """The store's own invariants, checked by queries over every game (the server checksums its pages itself
        when the cluster was initialised with data checksums; `pg_amcheck` checks the indexes)."""

        async def run(conn: Conn) -> list[str]:
            problems: list[str] = []
            for what, sql in _CHECKS.items():
                problems += [f"game {r[0]}: {what}" for r in await conn.fetch(sql)]
            return problems

        return await self._db.run(run)

    async def restore(self, exported: ExportedGame, snapshot: str | None, *, keep_id: bool = True) -> GameRecord:
        if exported.seed is not None and snapshot is None:
            raise InvalidOperation("a started game needs its snapshot")
        if exported.seed is not None and not SEED_MIN <= exported.seed <= SEED_MAX:
            raise InvalidOperation("the seed must fit a signed 64-bit integer")
        check_seats(exported.seats, contiguous=exported.seed is not None)
        stamp = now_utc()

        async def run(conn: Conn) -> GameRecord:
            async def body() -> GameRecord:
                free = keep_id and await conn.fetchval("SELECT 1 FROM games WHERE id = $1", exported.id) is None
                values = (
                    exported.kind,
                    exported.guild_id,
                    exported.channel_id,
                    exported.thread_id,
                    exported.status,
                    options_json(exported.options),
                    exported.seed,
                    exported.seat_count,
                    exported.setup_at,
                    exported.version,
                    exported.created_by,
                    exported.created_at,
                    stamp,
                    exported.finished_at,
                    snapshot,
                )
                columns = GAME_COLUMNS.split(", ", 1)[1]
                marks = ", ".join(f"${i}" for i in range(1, 16))
                if free:
                    game_id = await conn.fetchval(
                        f"INSERT INTO games (id, {columns}, state) VALUES ($16, {marks}) RETURNING id",
                        *values,
                        exported.id,
                    )
                    # Keep the identity ahead of the ids restored as they were.
                    await conn.execute(
                        "SELECT setval(pg_get_serial_sequence('games', 'id'), greatest((SELECT max(id) FROM games),"
                        " (SELECT last_value FROM games_id_seq)))"
                    )
                else:
                    game_id = await conn.fetchval(
                        f"INSERT INTO games ({columns}, state) VALUES ({marks}) RETURNING id", *values
                    )
                if exported.seats:
                    await conn.executemany(
                        INSERT_SEAT, [seat_values(game_id, s, exported.created_at) for s in exported.seats]
                    )
                if exported.log:
                    await conn.executemany(INSERT_LOG, [log_values(game_id, e.seq, e) for e in exported.log])
                return await fetch_game(conn, game_id)

            return await transaction(conn, body)

        return await self._db.run(run)
