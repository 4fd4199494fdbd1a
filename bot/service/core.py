"""The service's core: load a game under its lock, apply an action, commit it with its timers and outbox rows."""

import asyncio
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

from pydantic import BaseModel

from bot import invalid, outbox, seat_players
from bot import timers as timing
from bot.logs import game_logger
from bot.names import shown
from bot.presentation import Presentation, Table, hand_fingerprint
from bot.service.lobby_settings import LobbySettings
from bot.service.results import Refusal, RuleRefusal
from engine.errors import RuleError
from engine.events import Event, Wait
from engine.game import Game
from engine.policy import Policy, policy_for
from engine.text import render
from engine.text import seat as seat_ref
from storage import (
    GameRecord,
    GameStore,
    NewLogEntry,
    NewOutbox,
    NewSeat,
    SeatRecord,
    StaleVersion,
)

T = TypeVar("T")
Clock = Callable[[], datetime]
LOBBY_REF = "lobby"
COMMIT_RETRIES = 3


class ServiceCore:
    """The shared machinery of every service call: games and presentations by name, the per-game locks, loading
    a table, and applying an action and committing it with its timers and outbox rows."""

    def __init__(
        self,
        store: GameStore,
        games: Mapping[str, Game],  # type: ignore[type-arg]
        presentations: Mapping[str, Presentation],
        *,
        clock: Clock,
        seed_source: Callable[[], int] | None = None,
        reminders: bool = True,
    ) -> None:
        self.store = store
        self.games = dict(games)
        self.presentations = dict(presentations)
        self.clock = clock
        self.seed_source = seed_source or (lambda: random.SystemRandom().getrandbits(63))
        self.reminders = reminders
        self._locks: dict[int, asyncio.Lock] = {}
        self.on_timers_changed: Callable[[], None] = lambda: None
        self.seat_rules = seat_players.SeatRules()
        """Limits of computer players and the autopilot (the bot sets them from its settings)."""
        self.policies: dict[str, Policy | None] = {}
        """Each game's policy (`engine.policy`), made on first use; a test may put its own here."""

    # --- basics -----------------------------------------------------------------------------------------

    def game(self, kind: str) -> Game:  # type: ignore[type-arg]
        try:
            return self.games[kind]
        except KeyError:
            raise Refusal(f"This server's Boardroom no longer has the game '{kind}'.") from None

    def presentation(self, kind: str) -> Presentation:
        from bot.presentation import GenericPresentation

        return self.presentations.get(kind) or GenericPresentation()

    def policy(self, kind: str) -> Policy | None:
        """The game's computer player and autopilot (None: the game has none)."""
        if kind not in self.policies:
            self.policies[kind] = policy_for(self.game(kind))
        return self.policies[kind]

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def now(self) -> datetime:
        return self.clock()

    async def table(self, game_id: int, *, record: GameRecord | None = None) -> Table:
        record = record or await self.store.get_game(game_id)
        game = self.game(record.kind)
        seats = await self.store.seats(game_id)
        state = None
        deadlines: dict[int, datetime] = {}
        if record.started:
            snap = await self.store.get_snapshot(game_id)
            state = game.load_state(snap.state)
            waits = game.waiting_on(state)
            clocks = timing.clocks_from(await self.store.timers(game_id))
            deadlines = timing.effective_deadlines(game, waits, clocks)
        lobby_max = None
        if not record.started:
            lobby_max = (await self.lobby_settings(record)).max_seats
        return Table(game, record, seats, state, self.now(), deadlines, lobby_max)

    async def lobby_settings(self, record: GameRecord) -> LobbySettings:
        refs = await self.store.message_refs(record.id, kind=LOBBY_REF)
        default = self.game(record.kind).max_seats
        return LobbySettings.parse(refs[0].key, default) if refs else LobbySettings(max_seats=default)

    async def seat_of(self, game_id: int, user_id: int) -> int:
        for s in await self.store.seats(game_id):
            if s.player_id == user_id:
                return s.seat
        record = await self.store.get_game(game_id)
        raise Refusal(f"You're not playing in {self.game(record.kind).title} #{game_id}.")

    async def _apply_and_commit(
        self,
        record: GameRecord,
        seat: int | None,
        action: Any,
        *,
        user_id: int | None,
        texts: Sequence[str] = (),
        fresh_clocks: bool = False,
        note: str = "",
    ) -> list[int]:
        game = self.game(record.kind)
        snap = await self.store.get_snapshot(record.id)
        state = game.load_state(snap.state)
        now = self.now()
        try:
            outcome = game.apply(state, seat, action, now)
        except RuleError as exc:
            if user_id is None or seat is None:
                raise
            names = [shown(s.display_name or "") for s in await self.store.seats(record.id)]
            raise RuleRefusal(render(exc.message, names), exc.message) from None
        except ValueError as exc:  # a malformed action (pydantic's ValidationError)
            if seat is None:
                raise
            raise Refusal(
                f"That isn't a move {game.title} understands: {invalid.problem(exc)}. Pick one of the suggestions."
            ) from None
        entry = NewLogEntry.for_action(
            seat, game.dump_action(_parsed(game, action)), now, outcome.events, user_id=user_id
        )
        if note:
            entry = entry.model_copy(update={"note": note})
        ids = await self._commit(
            record, snap.version, state, outcome.state, outcome.events, entry, texts=texts, fresh_clocks=fresh_clocks
        )
        game_logger(record.id, "boardroom.service").info(
            "applied",
            extra={"fields": {"seat": seat, "action": entry.action.get("type") if entry.action else None}},
        )
        return ids

    async def _commit(
        self,
        record: GameRecord,
        version: int,
        before: BaseModel,
        after: BaseModel,
        events: Sequence[Event],
        entry: NewLogEntry,
        *,
        texts: Sequence[str] = (),
        status: str | None = None,
        fresh_clocks: bool = False,
        clocks: dict[str, timing.Clock] | None = None,
        extra: Sequence[NewOutbox] = (),
        result_post: bool | None = None,
        ping: Sequence[int] = (),
    ) -> list[int]:
        """Commit one log entry with its snapshot, timers and outbox rows (one transaction)."""
        game = self.game(record.kind)
        now = entry.at
        waits_before = game.waiting_on(before)
        waits_after = game.waiting_on(after)
        old_timers = await self.store.timers(record.id)
        if clocks is None:
            clocks = timing.clocks_from(old_timers)
        if fresh_clocks:
            clocks = {timing.wait_key(game, w): timing.Clock(shift=now - w.since) for w in waits_after}
        else:
            clocks = timing.carry_floors(game, waits_after, clocks, old_timers)
        finished = game.result(after) is not None
        new_status = status or ("finished" if finished and record.status != "finished" else None)
        if new_status is None and not finished and record.status == "finished":
            new_status = "active"  # an undo of the final move
        effective_status = new_status or record.status
        paused = effective_status == "paused"
        over = effective_status in ("finished", "abandoned")
        interrupted = timing.interruptions(waits_before, waits_after, old_timers)
        timers = (
            []
            if over
            else timing.plan(
                game, waits_after, clocks, now, paused=paused, reminders=self.reminders, interrupted=interrupted
            )
        )
        seats = await self.store.seats(record.id)
        if not over and not paused:
            timers += seat_players.plan(game, record.id, waits_after, seats, now, game.free_to_act(after))
        deadlines = timing.effective_deadlines(game, waits_after, clocks)
        awaits = [] if over else announcements(waits_before, waits_after, deadlines, fresh=fresh_clocks)
        if not fresh_clocks:
            resumed = timing.resumed_turns(waits_after, old_timers)
            awaits = [(w, due) for w, due in awaits if (w.kind, w.what, tuple(w.seats)) not in resumed]
        items: list[NewOutbox] = []
        narration = outbox.post(
            events=events,
            texts=texts,
            awaits=awaits,
            result=result_post if result_post is not None else (finished and record.status != "finished"),
            actor=entry.actor_seat,
            ping=ping,
        )
        if narration is not None:
            items.append(narration)
        presentation = self.presentation(record.kind)
        public = [e for e in events if e.public]
        table_before = Table(game, record, seats, before, now)
        table_after = Table(game, record.model_copy(update={"status": effective_status}), seats, after, now)
        if (public and presentation.event_posts(table_after, public)) or presentation.live_posts(table_after):
            items.append(outbox.tracked(public))
        items += extra
        items.append(outbox.status())
        ending = new_status in ("finished", "abandoned")
        if ending:
            items.append(outbox.lobby())  # the lobby message says it's over, and who won
        for s in range(game.seat_count(after)):
            notes = outbox.private_notes(events, s)
            if (
                notes
                or ending  # every hand says the game is over, with the final standings
                or hand_fingerprint(presentation, table_before, s) != hand_fingerprint(presentation, table_after, s)
            ):
                items.append(outbox.hand(s, notes))
        result = await self.store.commit(
            record.id,
            version,
            entry,
            None if entry.kind == "note" else game.dump_state(after),
            status=new_status,  # type: ignore[arg-type]
            timers=timers,
            outbox=items,
        )
        self.on_timers_changed()
        actor = next((s for s in seats if s.seat == entry.actor_seat), None)
        if actor is not None and actor.missed and entry.user_id is not None and actor.player_id == entry.user_id:
            await self.store.update_seat(record.id, actor.seat, missed=0)  # their own move: no longer missing
        return result.outbox_ids

    async def _auto_pass(self, game_id: int) -> list[int]:
        """Apply the away action for every away seat a reaction window waits on (under the game's lock)."""
        ids: list[int] = []
        for _ in range(32):
            record = await self.store.get_game(game_id)
            if record.status != "active":
                return ids
            table = await self.table(game_id, record=record)
            assert table.state is not None
            now = self.now()
            away = {s.seat for s in table.seats if s.away_until is not None and s.away_until > now}
            if not away:
                return ids
            presentation = self.presentation(record.kind)
            chosen = None
            for wait in table.waits:
                if wait.kind != "reaction":
                    continue
                for seat in wait.seats:
                    if seat in away:
                        action = presentation.away_action(table, seat, wait)
                        if action is not None:
                            chosen = (seat, action)
                            break
                if chosen:
                    break
            if chosen is None:
                return ids
            seat, action = chosen
            try:
                ids += await self._apply_and_commit(
                    record, seat, action, user_id=None, texts=[f"💤 {seat_ref(seat)} is away: passing for them."]
                )
            except RuleError as exc:
                game_logger(game_id, "boardroom.service").warning("away action refused: %s", exc.message)
                return ids
        return ids

    # --- reading ----------------------------------------------------------------------------------------

    async def private_view(self, game_id: int, user_id: int) -> tuple[Table, int]:
        record = await self.store.get_game(game_id)
        game = self.game(record.kind)
        if not record.started:
            raise Refusal(f"{game.title} #{game_id} hasn't started yet: hands are dealt at the start.")
        seat = await self.seat_of(game_id, user_id)
        return await self.table(game_id, record=record), seat

    async def retry(self, fn: Callable[[], Awaitable[T]]) -> T:
        for attempt in range(COMMIT_RETRIES):
            try:
                return await fn()
            except StaleVersion:
                if attempt == COMMIT_RETRIES - 1:
                    raise
        raise AssertionError("unreachable")


def announcements(
    before: Sequence[Wait], after: Sequence[Wait], deadlines: Mapping[int, datetime], *, fresh: bool = False
) -> list[tuple[Wait, datetime]]:
    """The waits to announce in the thread, each with the seats to mention: those now awaited for something they
    were not awaited for just before (same kind and same `what`). A deadline that only moved — the same people
    awaited for the same thing, e.g. the Boss's time restarting with every move of a round — is no news (the
    status message shows it), nor is a window where one more player passed. `fresh` (an undo): announce all."""
    out: list[tuple[Wait, datetime]] = []
    for i, wait in enumerate(after):
        due = deadlines.get(i, wait.until)
        if fresh:
            out.append((wait, due))
            continue
        known = {s for old in before if old.kind == wait.kind and old.what == wait.what for s in old.seats}
        new = tuple(s for s in wait.seats if s not in known)
        if new:
            out.append((wait.model_copy(update={"seats": new}), due))
    return out


def _text_post(text: str) -> NewOutbox:
    return NewOutbox(kind=outbox.POST, target={"to": "thread"}, payload={"texts": [text]})


def _new_seat(s: SeatRecord | NewSeat, number: int | None = None) -> NewSeat:
    return NewSeat(
        seat=s.seat if number is None else number,
        player_id=s.player_id,
        display_name=s.display_name,
        dm_ok=s.dm_ok,
        away_until=s.away_until,
        autopilot=s.autopilot,
        bot=s.bot,
        missed=s.missed,
    )


def _seat_record(game_id: int, s: NewSeat, now: datetime) -> SeatRecord:
    return SeatRecord(game_id=game_id, joined_at=now, **s.model_dump())


def _require_running(record: GameRecord, game: Game) -> None:  # type: ignore[type-arg]
    if record.status == "lobby":
        raise Refusal(f"{game.title} #{record.id} hasn't started yet.")
    if record.status in ("finished", "abandoned"):
        raise Refusal(f"{game.title} #{record.id} is over.")


def _parsed(game: Game, action: Any) -> Any:  # type: ignore[type-arg]
    return game.parse_action(action) if isinstance(action, dict | str | bytes) else action
