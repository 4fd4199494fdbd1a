"""The SQLite side of `storage.records` (`store.records`): players' records in the tables of migration 0007.

A part of `SQLiteStore` on the store's shared connection (`Database.run` runs a function in its thread), kept in a
module of its own so that the records' SQL stays apart from the games'. A player's stats are kept as running
sums, added to as each game is recorded (one upsert per player), so that recording stays cheap however many games a
player has; a rebuild clears them with the rest and adds every game again.
"""

import json
from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from storage.models import now_utc
from storage.records import GameResult, Placement, PlayerStats, Rating, Records, SeatResult
from storage.sqlite.database import Conn, Database
from storage.sqlite.rows import db_time

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
    "INSERT INTO player_stats (player_id, guild_id, kind, played, finished, won, rank_sum, seats_sum, left_, moves,"
    " answers, answer_s, turns, missed, last_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (player_id, guild_id, kind) DO UPDATE SET played = played + excluded.played,"
    " finished = finished + excluded.finished, won = won + excluded.won, rank_sum = rank_sum + excluded.rank_sum,"
    " seats_sum = seats_sum + excluded.seats_sum, left_ = left_ + excluded.left_, moves = moves + excluded.moves,"
    " answers = answers + excluded.answers, answer_s = answer_s + excluded.answer_s,"
    " turns = turns + excluded.turns, missed = missed + excluded.missed, last_at = max(last_at, excluded.last_at)"
)


def _result(row: tuple[Any, ...]) -> GameResult:
    return GameResult(
        game_id=row[0],
        guild_id=row[1],
        kind=row[2],
        thread_id=row[3],
        started_at=datetime.fromisoformat(row[4]),
        ended_at=datetime.fromisoformat(row[5]),
        outcome=row[6],
        rated=bool(row[7]),
        rating_done=bool(row[8]),
        moves=row[9],
        seats=[SeatResult.model_validate(s) for s in json.loads(row[10])],
    )


def _placement(row: tuple[Any, ...]) -> Placement:
    return Placement(
        game_id=row[0],
        seat=row[1],
        player_id=row[2],
        name=row[3],
        bot=bool(row[4]),
        held=bool(row[5]),
        rank=row[6],
        score=row[7],
        moves=row[8],
        answers=row[9],
        answer_s=row[10],
        turns=row[11],
        missed=row[12],
        mu=row[13],
        sigma=row[14],
    )


def _rating(row: tuple[Any, ...]) -> Rating:
    return Rating(
        guild_id=row[0],
        kind=row[1],
        player=row[2],
        player_id=row[3],
        name=row[4],
        bot=bool(row[5]),
        mu=row[6],
        sigma=row[7],
        ordinal=row[8],
        games=row[9],
        wins=row[10],
        updated_at=datetime.fromisoformat(row[11]),
    )


def _stats(player_id: int, row: tuple[Any, ...]) -> PlayerStats:
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
        last_at=datetime.fromisoformat(row[12]),
    )


def stats_rows(result: GameResult, placements: Sequence[Placement]) -> list[tuple[Any, ...]]:
    """What one game adds to each of its people's stats (computer players have none): one row per person."""
    by_person: dict[int, list[Placement]] = {}
    for p in placements:
        if p.player_id is not None and not p.bot:
            by_person.setdefault(p.player_id, []).append(p)
    rows = []
    seat_count = len(result.seats)
    for player_id, parts in by_person.items():
        held = [p for p in parts if p.held]
        placed = [p for p in held if result.outcome == "finished" and p.rank is not None]
        best = min((p.rank for p in placed if p.rank is not None), default=None)
        rows.append(
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
                sum(p.answer_s for p in parts),
                sum(p.turns for p in parts),
                sum(p.missed for p in parts),
                db_time(result.ended_at),
            )
        )
    return rows


class SQLiteRecords(Records):
    """`Records` on the store's SQLite connection."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def games_to_record(self, *, limit: int = 100) -> list[int]:
        def run(conn: Conn) -> list[int]:
            rows = conn.execute(
                "SELECT g.id FROM games AS g WHERE g.status IN ('finished', 'abandoned') AND g.seed IS NOT NULL"
                " AND NOT EXISTS (SELECT 1 FROM game_results AS r WHERE r.game_id = g.id)"
                " ORDER BY g.finished_at, g.id LIMIT ?",
                (limit,),
            )
            return [r[0] for r in rows.fetchall()]

        return await self._db.run(run)

    async def put_result(
        self, result: GameResult, placements: Sequence[Placement], *, now: datetime | None = None
    ) -> bool:
        seats = json.dumps([s.model_dump(exclude_defaults=True) for s in result.seats], separators=(",", ":"))
        result_row = (
            result.game_id,
            result.guild_id,
            result.kind,
            result.thread_id,
            db_time(result.started_at),
            db_time(result.ended_at),
            result.outcome,
            int(result.rated),
            int(result.rating_done),
            result.moves,
            seats,
            db_time(now or now_utc()),
        )
        placement_rows = [
            (
                p.game_id,
                p.seat,
                p.player_id,
                p.name,
                int(p.bot),
                int(p.held),
                p.rank,
                p.score,
                p.moves,
                p.answers,
                p.answer_s,
                p.turns,
                p.missed,
                p.mu,
                p.sigma,
            )
            for p in placements
        ]
        stats = stats_rows(result, placements)

        def run(conn: Conn) -> bool:
            conn.execute("BEGIN IMMEDIATE")
            try:
                if conn.execute("SELECT 1 FROM game_results WHERE game_id = ?", (result.game_id,)).fetchone():
                    conn.execute("ROLLBACK")
                    return False
                conn.execute(
                    f"INSERT INTO game_results ({_RESULT_COLUMNS}, recorded_at) VALUES ({', '.join('?' * 12)})",
                    result_row,
                )
                conn.executemany(
                    f"INSERT INTO placements ({_PLACEMENT_COLUMNS}) VALUES ({', '.join('?' * 15)})", placement_rows
                )
                conn.executemany(_ADD_STATS, stats)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            return True

        return await self._db.run(run)

    async def game_result(self, game_id: int) -> GameResult | None:
        def run(conn: Conn) -> GameResult | None:
            row = conn.execute(f"SELECT {_RESULT_COLUMNS} FROM game_results WHERE game_id = ?", (game_id,)).fetchone()
            return None if row is None else _result(row)

        return await self._db.run(run)

    async def placements(self, game_id: int) -> list[Placement]:
        def run(conn: Conn) -> list[Placement]:
            rows = conn.execute(
                f"SELECT {_PLACEMENT_COLUMNS} FROM placements WHERE game_id = ? ORDER BY held DESC, seat, rowid",
                (game_id,),
            )
            return [_placement(r) for r in rows.fetchall()]

        return await self._db.run(run)

    async def history(self, guild_id: int, *, offset: int = 0, limit: int = 10) -> tuple[list[GameResult], int]:
        def run(conn: Conn) -> tuple[list[GameResult], int]:
            total = conn.execute("SELECT count(*) FROM game_results WHERE guild_id = ?", (guild_id,)).fetchone()[0]
            rows = conn.execute(
                f"SELECT {_RESULT_COLUMNS} FROM game_results WHERE guild_id = ?"
                " ORDER BY ended_at DESC, game_id DESC LIMIT ? OFFSET ?",
                (guild_id, limit, offset),
            )
            return [_result(r) for r in rows.fetchall()], total

        return await self._db.run(run)

    async def results_to_rate(self, *, limit: int = 100) -> list[GameResult]:
        def run(conn: Conn) -> list[GameResult]:
            rows = conn.execute(
                f"SELECT {_RESULT_COLUMNS} FROM game_results WHERE rated = 1 AND rating_done = 0"
                " ORDER BY ended_at, game_id LIMIT ?",
                (limit,),
            )
            return [_result(r) for r in rows.fetchall()]

        return await self._db.run(run)

    async def ratings_of(self, guild_id: int, kind: str, players: Collection[str]) -> dict[str, Rating]:
        keys = list(players)

        def run(conn: Conn) -> dict[str, Rating]:
            if not keys:
                return {}
            rows = conn.execute(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND kind = ?"
                f" AND player IN ({', '.join('?' * len(keys))})",
                (guild_id, kind, *keys),
            )
            return {r[2]: _rating(r) for r in rows.fetchall()}

        return await self._db.run(run)

    async def put_ratings(
        self, game_id: int, ratings: Sequence[Rating], placements: Sequence[tuple[int, str, float, float]]
    ) -> bool:
        rows = [
            (
                r.guild_id,
                r.kind,
                r.player,
                r.player_id,
                r.name,
                int(r.bot),
                r.mu,
                r.sigma,
                r.ordinal,
                r.games,
                r.wins,
                db_time(r.updated_at),
            )
            for r in ratings
        ]

        def run(conn: Conn) -> bool:
            conn.execute("BEGIN IMMEDIATE")
            try:
                marked = conn.execute(
                    "UPDATE game_results SET rating_done = 1 WHERE game_id = ? AND rated = 1 AND rating_done = 0",
                    (game_id,),
                ).rowcount
                if not marked:
                    conn.execute("ROLLBACK")
                    return False
                conn.executemany(
                    f"INSERT OR REPLACE INTO ratings ({_RATING_COLUMNS}) VALUES ({', '.join('?' * 12)})", rows
                )
                conn.executemany(
                    "UPDATE placements SET mu = ?, sigma = ? WHERE game_id = ? AND seat = ? AND held = 1",
                    [(mu, sigma, game_id, seat) for seat, _key, mu, sigma in placements],
                )
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            return True

        return await self._db.run(run)

    async def top_ratings(self, guild_id: int, kind: str, *, limit: int = 10) -> list[Rating]:
        def run(conn: Conn) -> list[Rating]:
            rows = conn.execute(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND kind = ?"
                " ORDER BY ordinal DESC, games DESC, player LIMIT ?",
                (guild_id, kind, limit),
            )
            return [_rating(r) for r in rows.fetchall()]

        return await self._db.run(run)

    async def player_ratings(self, player_id: int, guild_id: int | None = None) -> list[Rating]:
        def run(conn: Conn) -> list[Rating]:
            sql = f"SELECT {_RATING_COLUMNS} FROM ratings WHERE player_id = ? AND bot = 0"
            params: tuple[Any, ...] = (player_id,)
            if guild_id is not None:
                sql += " AND guild_id = ?"
                params += (guild_id,)
            rows = conn.execute(sql + " ORDER BY kind, guild_id", params)
            return [_rating(r) for r in rows.fetchall()]

        return await self._db.run(run)

    async def player_stats(self, player_id: int, guild_id: int | None = None) -> list[PlayerStats]:
        def run(conn: Conn) -> list[PlayerStats]:
            sql = f"SELECT kind, {_STATS_SUMS} FROM player_stats WHERE player_id = ?"
            params: tuple[Any, ...] = (player_id,)
            if guild_id is not None:
                sql += " AND guild_id = ?"
                params += (guild_id,)
            rows = conn.execute(sql + " GROUP BY kind ORDER BY kind", params)
            return [_stats(player_id, r) for r in rows.fetchall()]

        return await self._db.run(run)

    async def clear(self) -> None:
        def run(conn: Conn) -> None:
            conn.execute("BEGIN IMMEDIATE")
            try:
                for table in ("ratings", "player_stats", "placements", "game_results"):
                    conn.execute(f"DELETE FROM {table}")
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

        await self._db.run(run)
