"""The clock: a due timer fires as the wait's system action, or queues its reminder.

A reminder is timed after the awaited players' quiet hours when it is planned (`bot.timers`); if someone's quiet
hours began since (they set them after the plan), their part of it waits for the end of them here, so no reminder
reaches anyone inside their quiet hours.
"""

from datetime import datetime
from typing import Any

from bot import away, seat_players
from bot import quiet as quietness
from bot import timers as timing
from bot.awaiting import stored_wait
from bot.handover import HANDOVER
from bot.logs import game_logger
from bot.routing import reminder_rows
from bot.service.autopilot import SeatPlayers
from bot.service.handover import Handovers
from bot.service.moves import MovePath
from bot.service.play import Play
from bot.service.results import Done
from engine.errors import RuleError
from storage import GameRecord, NewTimer, SeatRecord


class GameClock:
    """Fires due timers: a deadline as its wait's system action, a seat's move through the seat players
    (`bot.service.autopilot`), a reminder as its messages."""

    def __init__(self, moves: MovePath, seats: SeatPlayers, play: Play, handovers: Handovers) -> None:
        self.play = play
        self.handovers = handovers
        self.moves = moves
        self.read = moves.read
        self.store = moves.store
        self.seats = seats

    async def fire_timer(self, timer_id: int, game_id: int) -> Done:
        """Fire one due timer: a deadline applies the wait's system action, a reminder queues its messages. Another
        process may move the game meanwhile (its commit finds the version moved): then the game is read again, and
        the timer, which that commit replaced, is found gone."""
        async with self.moves.lock(game_id):
            return await self.moves.retry(lambda: self._fire(timer_id, game_id))

    async def _fire(self, timer_id: int, game_id: int) -> Done:
        # A timer that is not a deadline is deleted before it acts, and acts only if this deletion removed it: of
        # two processes that read it, one acts (each also claims it first: `bot.scheduler`).
        loaded = await self.store.games.load(game_id)  # the one read of the timer
        timer = next((t for t in loaded.timers if t.id == timer_id), None)
        if timer is None:
            return Done(game_id)  # replaced by a commit since it was read
        record = loaded.record
        log = game_logger(game_id, "boardroom.service")
        if record.status != "active":
            await self.store.timers.delete(timer_id)
            return Done(game_id)
        if timer.kind == timing.DEADLINE:
            try:
                ids = await self.moves.apply(record, None, timer.payload["action"], user_id=None, loaded=loaded)
            except RuleError as exc:
                log.info("deadline no longer applies: %s", exc.message)
                await self.store.timers.delete(timer_id)
                return Done(game_id)
            log.info("deadline fired", extra={"fields": {"what": timer.payload.get("what")}})
            ids += await self.moves.auto_pass(game_id, after_commit=True)
            ids += await self.seats.missed_deadline(game_id, timer.payload)
            self.moves.settle(game_id)
            return Done(game_id, ids)
        if timer.kind == seat_players.SEAT:
            ids = await self.seats.fire(record, timer, loaded)
            self.moves.settle(game_id)
            return Done(game_id, ids)
        if timer.kind == away.AWAY_END:
            if not await self.store.timers.delete(timer_id):
                return Done(game_id)
            ids = await self.play.away_over(record, int(timer.payload.get("seat", -1)))
            self.moves.settle(game_id)
            return Done(game_id, ids)
        if timer.kind == HANDOVER:
            if not await self.store.timers.delete(timer_id):
                return Done(game_id)
            ids = await self.handovers.expire(record, int(timer.payload.get("seat", -1)) + 1)
            self.moves.settle(game_id)
            return Done(game_id, ids)
        if timer.kind == timing.REMINDER:
            # Delete first: after a crash a reminder is lost rather than sent twice.
            if not await self.store.timers.delete(timer_id):
                return Done(game_id)
            payload = await self._after_quiet(record, loaded.seats, timer.payload)
            if not payload.get("seats"):
                return Done(game_id)
            return Done(game_id, await self._reminder_outbox(record, payload, loaded.seats))
        await self.store.timers.delete(timer_id)
        return Done(game_id)

    async def _after_quiet(
        self, record: GameRecord, seats: list[SeatRecord], payload: dict[str, Any]
    ) -> dict[str, Any]:
        """The reminder for those of its seats outside their quiet hours now; the others' part of it is timed anew for
        the end of their quiet hours (dropped if that is past the deadline)."""
        awaited = [int(s) for s in payload.get("seats", [])]
        people = await self.read.quiet.of(s.player_id for s in seats if s.player_id is not None)
        quiet = quietness.of_seats(seats, people)
        now = self.read.now()
        deadline = datetime.fromisoformat(payload["deadline"])
        later: dict[datetime, list[int]] = {}
        for s in awaited:
            end = quietness.period_end(quiet[s], now) if s in quiet else None
            if end is not None and end < deadline:
                later.setdefault(end, []).append(s)
        if later:
            timers = [
                NewTimer(kind=timing.REMINDER, due_at=at, payload={**payload, "seats": ss}) for at, ss in later.items()
            ]
            await self.store.timers.add(record.id, timers, now=now)
            self.moves.on_timers_changed()
        awake = [s for s in awaited if s not in quiet or not quietness.inside(quiet[s], now)]
        return {**payload, "seats": awake}

    async def _reminder_outbox(self, record: GameRecord, payload: dict[str, Any], seats: list[SeatRecord]) -> list[int]:
        """The reminder's rows: once per awaited player, where they chose (`bot.routing.reminder_rows`)."""
        self.read.game(record.kind)  # refused for a game this bot no longer hosts
        deadline = datetime.fromisoformat(payload["deadline"])
        awaited_seats = [int(s) for s in payload.get("seats", [])]
        modes = await self.read.deliveries.modes(seats)
        wait = stored_wait({**payload, "seats": awaited_seats, "deadline": deadline.isoformat()}, kind="wait_kind")
        items = reminder_rows(wait, deadline, seats, modes)
        game_logger(record.id, "boardroom.service").info(
            "reminder", extra={"fields": {"which": payload.get("which"), "seats": awaited_seats}}
        )
        if not items:
            return []  # everyone awaited hears of it in their digest
        return await self.store.outbox.add(record.id, items, now=self.read.now())
