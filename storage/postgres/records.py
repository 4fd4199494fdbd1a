"""The PostgreSQL side of `storage.records` (`store.records`): players' records in the tables of migration 0001
(SQLite's 0007). A player's stats are running sums, added to as each game is recorded (one upsert per player)."""

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from storage.jsontext import dump_json
from storage.models import now_utc
from storage.postgres.database import Conn, Database, transaction
from storage.records import GameResult, Placement, PlayerStats, Rating, Records, SeatResult

_RESULT_COLUMNS = "game_id, guild_id, kind, thread_id, started_at, ended_at, outcome, rated, rating_done, moves, seats"
_PLACEMENT_COLUMNS = (
    "game_id, seat, player_id, name, bot, held, rank, score, moves, answers, answer_s, turns, missed, mu, sigma"
)
_RATING_COLUMNS = "guild_id, kind, player, player_id, name, bot, mu, sigma, ordinal, games, wins, updated_at"
_STATS_SUMS = (
    "sum(played), sum(finished), sum(won), sum(rank_sum), sum(seats_sum), sum(left_), sum(moves), sum(answers),"
    " sum(answer_s), sum(turns), sum(missed), max(last_at)"
)
_ADD_STATS = (
    "INSERT INTO player_stats AS p (player_id, guild_id, kind, played, finished, won, rank_sum, seats_sum, left_,"
    " moves, answers, answer_s, turns, missed, last_at)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)"
    " ON CONFLICT (player_id, guild_id, kind) DO UPDATE SET played = p.played + excluded.played,"
    " finished = p.finished + excluded.finished, won = p.won + excluded.won,"
    " rank_sum = p.rank_sum + excluded.rank_sum, seats_sum = p.seats_sum + excluded.seats_sum,"
    " left_ = p.left_ + excluded.left_, moves = p.moves + excluded.moves, answers = p.answers + excluded.answers,"
    " answer_s = p.answer_s + excluded.answer_s, turns = p.turns + excluded.turns,"
    " missed = p.missed + excluded.missed, last_at = greatest(p.last_at, excluded.last_at)"
)
_PUT_RATING = (
    f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
    " ON CONFLICT (guild_id, kind, player) DO UPDATE SET player_id = excluded.player_id, name = excluded.name,"
    " bot = excluded.bot, mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal,"
    " games = excluded.games, wins = excluded.wins, updated_at = excluded.updated_at"
)


def _result(row: Any) -> GameResult:
    return GameResult(
        game_id=row[0],
        guild_id=row[1],
        kind=row[2],
        thread_id=row[3],
        started_at=row[4],
        ended_at=row[5],
        outcome=row[6],
        rated=row[7],
        rating_done=row[8],
        moves=row[9],
        seats=[SeatResult.model_validate(s) for s in row[10]],
    )


def _placement(row: Any) -> Placement:
    return Placement(**{name.strip(): row[i] for i, name in enumerate(_PLACEMENT_COLUMNS.split(","))})


def _rating(row: Any) -> Rating:
    return Rating(**{name.strip(): row[i] for i, name in enumerate(_RATING_COLUMNS.split(","))})


def _stats(player_id: int, row: Any) -> PlayerStats:
    return PlayerStats(
        player_id=player_id,
        kind=row[0],
        played=row[1],
        finished=row[2],
        won=row[3],
        rank_sum=row[4],
        seats_sum=row[5],
        left=row[6],
        moves=row[7],
        answers=row[8],
        answer_s=row[9],
        turns=row[10],
        missed=row[11],
        last_at=row[12],
    )


def stats_rows(result: GameResult, placements: Sequence[Placement]) -> list[tuple[Any, ...]]:
    """What one game adds to each of its people's stats (computer players have none): one row per person."""
    by_person: dict[int, list[Placement]] = {}
    for p in placements:
        if p.player_id is not None and not p.bot:
            by_person.setdefault(p.player_id, []).append(p)
    found = []
    seat_count = len(result.seats)
    for player_id, parts in by_person.items():
        held = [p for p in parts if p.held]
        placed = [p for p in held if result.outcome == "finished" and p.rank is not None]
        best = min((p.rank for p in placed if p.rank is not None), default=None)
        found.append(
            (
                player_id,
                result.guild_id or 0,
                result.kind,
                1,
                1 if placed else 0,
                1 if best == 1 else 0,
                best or 0,
                seat_count if placed else 0,
                0 if held else 1,
                sum(p.moves for p in parts),
                sum(p.answers for p in parts),
                float(sum(p.answer_s for p in parts)),
                sum(p.turns for p in parts),
                sum(p.missed for p in parts),
                result.ended_at,
            )
        )
    return found


class PostgresRecords(Records):
    def __init__(self, db: Database) -> None:
        self._db = db

    async def games_to_record(self, *, limit: int = 100) -> list[int]:
        async def run(conn: Conn) -> list[int]:
            found = await conn.fetch(
                "SELECT g.id FROM games AS g WHERE g.status IN ('finished', 'abandoned') AND g.seed IS NOT NULL"
                " AND NOT EXISTS (SELECT 1 FROM game_results AS r WHERE r.game_id = g.id)"
                " ORDER BY g.finished_at, g.id LIMIT $1",
                limit,
            )
            return [r[0] for r in found]

        return await self._db.run(run)

    async def put_result(
        self, result: GameResult, placements: Sequence[Placement], *, now: datetime | None = None
    ) -> bool:
        seats = dump_json([s.model_dump(exclude_defaults=True) for s in result.seats])
        result_row = (
            result.game_id,
            result.guild_id,
            result.kind,
            result.thread_id,
            result.started_at,
            result.ended_at,
            result.outcome,
            result.rated,
            result.rating_done,
            result.moves,
            seats,
            now or now_utc(),
        )
        placement_rows = [
            (
                p.game_id,
                p.seat,
                p.player_id,
                p.name,
                p.bot,
                p.held,
                p.rank,
                p.score,
                p.moves,
                p.answers,
                float(p.answer_s),
                p.turns,
                p.missed,
                p.mu,
                p.sigma,
            )
            for p in placements
        ]
        stats = stats_rows(result, placements)

        async def run(conn: Conn) -> bool:
            async def body() -> bool:
                inserted = await conn.execute(
                    f"INSERT INTO game_results ({_RESULT_COLUMNS}, recorded_at)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (game_id) DO NOTHING",
                    *result_row,
                )
                if inserted != "INSERT 0 1":
                    return False
                if placement_rows:
                    await conn.executemany(
                        f"INSERT INTO placements ({_PLACEMENT_COLUMNS})"
                        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
                        placement_rows,
                    )
                if stats:
                    await conn.executemany(_ADD_STATS, stats)
                return True

            return await transaction(conn, body)

        return await self._db.run(run)

    async def game_result(self, game_id: int) -> GameResult | None:
        async def run(conn: Conn) -> GameResult | None:
            row = await conn.fetchrow(f"SELECT {_RESULT_COLUMNS} FROM game_results WHERE game_id = $1", game_id)
            return None if row is None else _result(row)

        return await self._db.run(run)

    async def placements(self, game_id: int) -> list[Placement]:
        async def run(conn: Conn) -> list[Placement]:
            found = await conn.fetch(
                f"SELECT {_PLACEMENT_COLUMNS} FROM placements WHERE game_id = $1 ORDER BY held DESC, seat, n", game_id
            )
            return [_placement(r) for r in found]

        return await self._db.run(run)

    async def history(self, guild_id: int, *, offset: int = 0, limit: int = 10) -> tuple[list[GameResult], int]:
        async def run(conn: Conn) -> tuple[list[GameResult], int]:
            total = await conn.fetchval("SELECT count(*) FROM game_results WHERE guild_id = $1", guild_id)
            found = await conn.fetch(
                f"SELECT {_RESULT_COLUMNS} FROM game_results WHERE guild_id = $1"
                " ORDER BY ended_at DESC, game_id DESC LIMIT $2 OFFSET $3",
                guild_id,
                limit,
                offset,
            )
            return [_result(r) for r in found], total

        return await self._db.run(run)

    async def results_to_rate(self, *, limit: int = 100) -> list[GameResult]:
        async def run(conn: Conn) -> list[GameResult]:
            found = await conn.fetch(
                f"SELECT {_RESULT_COLUMNS} FROM game_results WHERE rated AND NOT rating_done"
                " ORDER BY ended_at, game_id LIMIT $1",
                limit,
            )
            return [_result(r) for r in found]

        return await self._db.run(run)

    async def ratings_of(self, guild_id: int, kind: str, players: Collection[str]) -> dict[str, Rating]:
        keys = list(players)
        if not keys:
            return {}

        async def run(conn: Conn) -> dict[str, Rating]:
            found = await conn.fetch(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND kind = $2 AND player = ANY($3::text[])",
                guild_id,
                kind,
                keys,
            )
            return {r[2]: _rating(r) for r in found}

        return await self._db.run(run)

    async def put_ratings(
        self, game_id: int, ratings: Sequence[Rating], placements: Sequence[tuple[int, str, float, float]]
    ) -> bool:
        rating_rows = [
            (
                r.guild_id,
                r.kind,
                r.player,
                r.player_id,
                r.name,
                r.bot,
                r.mu,
                r.sigma,
                r.ordinal,
                r.games,
                r.wins,
                r.updated_at,
            )
            for r in ratings
        ]

        async def run(conn: Conn) -> bool:
            async def body() -> bool:
                marked = await conn.execute(
                    "UPDATE game_results SET rating_done = true WHERE game_id = $1 AND rated AND NOT rating_done",
                    game_id,
                )
                if marked != "UPDATE 1":
                    return False
                if rating_rows:
                    await conn.executemany(_PUT_RATING, rating_rows)
                if placements:
                    await conn.executemany(
                        "UPDATE placements SET mu = $1, sigma = $2 WHERE game_id = $3 AND seat = $4 AND held",
                        [(mu, sigma, game_id, seat) for seat, _key, mu, sigma in placements],
                    )
                return True

            return await transaction(conn, body)

        return await self._db.run(run)

    async def top_ratings(self, guild_id: int, kind: str, *, limit: int = 10) -> list[Rating]:
        async def run(conn: Conn) -> list[Rating]:
            found = await conn.fetch(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = $1 AND kind = $2"
                " ORDER BY ordinal DESC, games DESC, player LIMIT $3",
                guild_id,
                kind,
                limit,
            )
            return [_rating(r) for r in found]

        return await self._db.run(run)

    async def player_ratings(self, player_id: int, guild_id: int | None = None) -> list[Rating]:
        async def run(conn: Conn) -> list[Rating]:
            found = await conn.fetch(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE player_id = $1 AND NOT bot"
                " AND ($2::bigint IS NULL OR guild_id = $2) ORDER BY kind, guild_id",
                player_id,
                guild_id,
            )
            return [_rating(r) for r in found]

        return await self._db.run(run)

    async def player_stats(self, player_id: int, guild_id: int | None = None) -> list[PlayerStats]:
        async def run(conn: Conn) -> list[PlayerStats]:
            found = await conn.fetch(
                f"SELECT kind, {_STATS_SUMS} FROM player_stats WHERE player_id = $1"
                " AND ($2::bigint IS NULL OR guild_id = $2) GROUP BY kind ORDER BY kind",
                player_id,
                guild_id,
            )
            return [_stats(player_id, r) for r in found]

        return await self._db.run(run)

    async def clear(self) -> None:
        async def run(conn: Conn) -> None:
            await conn.execute("TRUNCATE ratings, player_stats, placements, game_results")

        await self._db.run(run)
