"""The recorder: turns games that are over into records, and counts the rated ones for the ratings, exactly once.

Where a game ends: the service's commit that makes a game finished or abandoned (`MovePath.commit`) calls
`MovePath.on_game_over`, which is `Recorder.game_over`. The record is not written in that commit: deriving it
replays the game's whole log, which the final move should not wait for (under the game's lock). Instead the game's
row is the outbox: a started game that is over and has no result yet is "to record" (`store.records.games_to_record`,
one indexed read), so nothing is lost if the process dies in between — at start-up `catch_up` records whatever is
left, oldest first. Counting a game for the ratings is a second step with the same shape (`results_to_rate`): each
result is counted once (the store marks it in the same transaction as the new ratings), in the order games ended,
one at a time (this process's lock), so that two games ending together never read the same old ratings.

`rebuild` forgets every record and derives them all again from the logs (`python -m bot rebuild-records`,
`/mod records rebuild`): the records can never disagree with the games for longer than that.

A game whose log does not replay (which `/mod verify` would show) is logged and skipped, not retried in a loop.
"""

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.records.derive import Derived, derive
from bot.records.rating import rate
from engine.game import Game
from storage import GameNotFound, GameStore, player_key

log = logging.getLogger("boardroom.records")
BATCH = 200
SETTLE_WAIT = 2.0
"""Seconds a command about records waits for the recording under way (Discord's answer is deferred after 1.5 s)."""


@dataclass
class Counts:
    recorded: int = 0
    rated: int = 0
    skipped: int = 0


class Recorder:
    def __init__(self, store: GameStore, games: Mapping[str, Game[Any, Any]]) -> None:
        self.store = store
        self.games = dict(games)
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[Counts] | None = None
        self._again = False
        self._failed: set[int] = set()

    # --- in the background ------------------------------------------------------------------------------

    def game_over(self, game_id: int) -> None:
        """A game just ended: record it (and anything else waiting) soon, in the background."""
        self.wake()

    def wake(self) -> None:
        """Record (and rate) whatever waits, in the background: after a game ends, and at start-up."""
        if self._task is not None and not self._task.done():
            self._again = True  # the running pass may have read the list before this game was over
            return
        self._task = asyncio.get_running_loop().create_task(self._passes())

    async def _passes(self) -> Counts:
        total = Counts()
        while True:
            self._again = False
            try:
                counts = await self.catch_up()
            except Exception:  # never let a background pass fail the commands that wait for it (`settled`)
                log.exception("recording finished games failed; they are recorded at the next start-up")
                return total
            total.recorded += counts.recorded
            total.rated += counts.rated
            if not self._again:
                return total

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def settled(self, timeout: float | None = SETTLE_WAIT) -> None:
        """Wait a little for the recording under way, if any, so that a game that just ended shows in the answer
        of a command about records; a long catch-up (after an upgrade, a rebuild) is not waited for: the answer
        shows what is recorded so far. `timeout=None` waits for the end."""
        task = self._task
        if task is not None and not task.done():
            await asyncio.wait({task}, timeout=timeout)

    # --- the work ---------------------------------------------------------------------------------------

    async def catch_up(self) -> Counts:
        """Record every game that is over and has none, then count every rated one not yet counted."""
        async with self._lock:
            return await self._catch_up()

    async def rebuild(self) -> Counts:
        """Forget every record and derive them all again from the games' logs."""
        async with self._lock:
            self._failed.clear()
            await self.store.records.clear()
            return await self._catch_up()

    async def _catch_up(self) -> Counts:
        counts = Counts()
        while True:
            found = await self.store.records.games_to_record(limit=BATCH + len(self._failed))
            ids = [i for i in found if i not in self._failed]
            if not ids:
                break
            for game_id in ids:
                if await self._record(game_id):
                    counts.recorded += 1
                else:
                    counts.skipped += 1
        while True:
            results = await self.store.records.results_to_rate(limit=BATCH)
            if not results:
                break
            for result in results:
                current = await self.store.records.ratings_of(
                    result.guild_id or 0, result.kind, [player_key(s.id, s.name, s.bot) for s in result.seats]
                )
                ratings, after = rate(result, current)
                counts.rated += await self.store.records.put_ratings(result.game_id, ratings, after)
        return counts

    async def _record(self, game_id: int) -> bool:
        try:
            derived = await self.derive(game_id)
        except Exception:
            log.exception("game %s could not be recorded (does its log replay? /mod verify)", game_id)
            self._failed.add(game_id)
            return False
        await self.store.records.put_result(derived.result, derived.placements)
        return True

    async def derive(self, game_id: int) -> Derived:
        """A game's record from its log (in a worker thread: a replay is CPU work)."""
        loaded = await self.store.games.load(game_id)
        record = loaded.record
        game = self.games.get(record.kind)
        if game is None:
            raise GameNotFound(f"game {game_id} is a {record.kind!r} game, which this bot doesn't host")
        if loaded.snapshot is not None:  # the data files it was set up with (a server owner may have replaced them)
            game = game.for_state(game.load_state(loaded.snapshot.state))
        entries = await self.store.log.entries(game_id)
        return await asyncio.to_thread(derive, game, record, loaded.seats, entries)
