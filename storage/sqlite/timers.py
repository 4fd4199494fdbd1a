"""The timers of the SQLite store (`store.timers`): each game's timers are a JSON list in its games row
(`storage.sqlite.timerlist`), with `next_due` indexed for the scheduler.

A game whose row is damaged (a malformed page) is skipped by the scans of all games' timers and remembered in
`damaged_games`, instead of stopping the timers of every game after it.
"""

import sqlite3
from collections.abc import Callable, Collection, Iterator, Sequence
from datetime import datetime
from typing import Any

from storage.errors import GameNotFound
from storage.models import Claim, NewTimer, TimerRecord, now_utc
from storage.parts import Timers
from storage.sqlite import timerlist
from storage.sqlite.database import Conn, Database, corrupt, transaction
from storage.sqlite.rows import db_time, in_list


def write_timers(conn: Conn, game_id: int, change: Callable[[list[TimerRecord], int], list[Any]]) -> list[int]:
    """Read-modify-write a game's timer list outside a commit. `change(current, next_number)` returns the new list
    as TimerRecords (kept) and (number, NewTimer) pairs (new); returns the ids of the new ones."""
    row = conn.execute("SELECT timer_seq, timers FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise GameNotFound(f"there is no game {game_id}")
    seq, text = row
    wanted = change(timerlist.parse(game_id, text), seq + 1)
    now = db_time(now_utc())
    items, new_ids = [], []
    for entry in wanted:
        if isinstance(entry, TimerRecord):
            items.append(timerlist.record_item(entry))
        else:
            number, timer = entry
            new_ids.append(timerlist.timer_id(game_id, number))
            seq = max(seq, number)
            items.append(timerlist.item(new_ids[-1], timer, now))
    listed, next_due = timerlist.build(items)
    conn.execute(
        "UPDATE games SET timer_seq = ?, timers = ?, next_due = ? WHERE id = ?", (seq, listed, next_due, game_id)
    )
    return new_ids


def _timer_rows(conn: Conn, where: str, params: tuple[Any, ...], damaged: set[int]) -> Iterator[tuple[int, str, str]]:
    """(game, timers, next_due) of the games with timers `where` says, soonest first. The order comes from the
    `games_next_due` index alone; each game's timers are then read from its own row, so a game whose row is
    damaged is skipped (and added to `damaged`) instead of stopping the timers of every game after it."""
    for game_id, next_due in conn.execute(
        f"SELECT id, next_due FROM games WHERE {where} ORDER BY next_due, id", params
    ):
        try:
            row = conn.execute("SELECT timers FROM games WHERE id = ?", (game_id,)).fetchone()
        except sqlite3.DatabaseError as exc:
            if not corrupt(exc):
                raise
            damaged.add(game_id)
            continue
        if row is not None:
            yield game_id, row[0], next_due


class SQLiteTimers(Timers):
    def __init__(self, db: Database) -> None:
        self._db = db
        self._damaged: set[int] = set()  # games the timer scans found damaged (`damaged_games`)

    async def add(self, game_id: int, timers: Sequence[NewTimer], *, now: datetime | None = None) -> list[int]:
        def run(conn: Conn) -> list[int]:
            return transaction(
                conn, lambda: write_timers(conn, game_id, lambda current, n: [*current, *enumerate(timers, n)])
            )

        return await self._db.run(run, game=game_id)

    async def of_game(self, game_id: int) -> list[TimerRecord]:
        def run(conn: Conn) -> list[TimerRecord]:
            row = conn.execute("SELECT timers FROM games WHERE id = ?", (game_id,)).fetchone()
            return [] if row is None else timerlist.parse(game_id, row[0])

        return await self._db.run(run, game=game_id)

    @property
    def damaged_games(self) -> frozenset[int]:
        return frozenset(self._damaged)

    async def soonest(self) -> TimerRecord | None:
        def run(conn: Conn) -> TimerRecord | None:
            for game_id, listed, _ in _timer_rows(conn, "next_due IS NOT NULL", (), self._damaged):
                return timerlist.parse(game_id, listed)[0]
            return None

        return await self._db.run(run)

    async def due(self, until: datetime, *, limit: int = 100) -> list[TimerRecord]:
        bound = db_time(until)

        def run(conn: Conn) -> list[TimerRecord]:
            due: list[TimerRecord] = []
            for game_id, listed, next_due in _timer_rows(conn, "next_due <= ?", (bound,), self._damaged):
                if len(due) >= limit and db_time(due[limit - 1].due_at) < next_due:
                    break  # every later game's timers come after the ones we have
                due += [t for t in timerlist.parse(game_id, listed) if db_time(t.due_at) <= bound]
                due.sort(key=lambda t: (t.due_at, t.id))
            return due[:limit]

        return await self._db.run(run)

    async def delete(self, timer_id: int) -> bool:
        game_id = timerlist.game_of(timer_id)

        def run(conn: Conn) -> bool:
            def body() -> bool:
                row = conn.execute("SELECT timers FROM games WHERE id = ?", (game_id,)).fetchone()
                if row is None or all(t.id != timer_id for t in timerlist.parse(game_id, row[0])):
                    return False
                write_timers(conn, game_id, lambda current, _: [t for t in current if t.id != timer_id])
                conn.execute("DELETE FROM timer_claims WHERE timer_id = ?", (timer_id,))
                return True

            return transaction(conn, body)

        return await self._db.run(run)

    async def clear(self, game_id: int, *, kinds: Collection[str] | None = None) -> int:
        def run(conn: Conn) -> int:
            removed: list[int] = []

            def change(current: list[TimerRecord], _: int) -> list[Any]:
                kept = [t for t in current if kinds is not None and t.kind not in kinds]
                removed.append(len(current) - len(kept))
                return kept

            transaction(conn, lambda: write_timers(conn, game_id, change))
            return removed[0]

        return await self._db.run(run, game=game_id)

    async def claim(self, timer_ids: Collection[int], claim: Claim, *, now: datetime) -> list[int]:
        wanted = list(dict.fromkeys(timer_ids))
        if not wanted:
            return []
        owner, until, bound = claim.owner, db_time(claim.until), db_time(now)
        games = sorted({timerlist.game_of(t) for t in wanted})

        def run(conn: Conn) -> list[int]:
            def body() -> list[int]:
                # Claims whose lease ran out are free again; the claims of timers that commits have since removed
                # go with them (a timer id is never used again).
                conn.execute("DELETE FROM timer_claims WHERE claimed_until <= ?", (bound,))
                pending: set[int] = set()
                for game_id, listed in conn.execute(
                    f"SELECT id, timers FROM games WHERE id IN {in_list(games)}", games
                ).fetchall():
                    pending.update(t.id for t in timerlist.parse(game_id, listed))
                claimed: list[int] = []
                for timer_id in wanted:
                    if timer_id not in pending:
                        continue  # gone: a commit replaced it, or it fired
                    row = conn.execute(
                        "INSERT INTO timer_claims (timer_id, claimed_by, claimed_until) VALUES (?, ?, ?)"
                        " ON CONFLICT (timer_id) DO UPDATE SET claimed_until = excluded.claimed_until"
                        " WHERE claimed_by = excluded.claimed_by RETURNING timer_id",
                        (timer_id, owner, until),
                    ).fetchone()
                    if row is not None:
                        claimed.append(timer_id)
                return claimed

            # One write transaction: SQLite's writers take turns, so of two owners racing, one finds the other's
            # claim in place (the INSERT's conflict) and gets nothing.
            return transaction(conn, body)

        return await self._db.run(run)
