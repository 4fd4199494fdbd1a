"""The service's core: load a game under its lock, apply an action, commit it with its timers and outbox rows."""

import asyncio
import random
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

from pydantic import BaseModel

from bot import invalid, outbox, seat_players
from bot import timers as timing
from bot.logs import game_logger
from bot.names import shown
from bot.outbox import discord_guard
from bot.presentation import Presentation, Table, hand_fingerprint
from bot.service.lobby_settings import LobbySettings
from bot.service.results import Refusal, RuleRefusal
from engine.errors import RuleError
from engine.events import Event, Wait
from engine.game import Game
from engine.policy import Level, Policy, policy_for
from engine.text import render
from engine.text import seat as seat_ref
from storage import (
    CommitResult,
    GameNotFound,
    GameRecord,
    GameStore,
    LoadedGame,
    NewLogEntry,
    NewOutbox,
    NewSeat,
    NewTimer,
    OutboxRecord,
    SeatRecord,
    Snapshot,
    StaleVersion,
    TimerRecord,
)

T = TypeVar("T")
Clock = Callable[[], datetime]
LOBBY_REF = "lobby"
COMMIT_RETRIES = 3
FINGERPRINTS_KEPT = 2048
STATES_KEPT = 1024


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
        self.on_committed: Callable[[int, list[OutboxRecord]], None] = lambda _game_id, _rows: None
        """Called (synchronously, in commit order) with each commit's rows: the notifier's queue
        (`Notifier.enqueue`)."""
        self.on_game_over: Callable[[int], None] = lambda _game_id: None
        """Called (synchronously) after the commit that ended a game, finished or abandoned: the recorder
        (`bot.records.Recorder.game_over`), which derives the game's record from its log behind the move."""
        self.on_settled: Callable[[int, Table], None] = lambda _game_id, _table: None
        """Called at the end of a move with the game's table as it is then (`Notifier.settled`): the notifier
        renders from it instead of reading the game back."""
        self._tables: dict[int, Table] = {}
        """The table the last commit of a game left, taken by the auto-pass that follows it under the same lock."""
        self._fingerprints: OrderedDict[tuple[Any, ...], dict[int, str]] = OrderedDict()
        """(game, version, seats) → each seat's hand fingerprint in that state (see `_commit`)."""
        self._states: OrderedDict[int, tuple[tuple[Any, ...], BaseModel, list[Wait]]] = OrderedDict()
        """Game id → (which game and version, the state, its waits) its last commit wrote: the next move starts from
        that object instead of parsing the snapshot's JSON again (see `_state_of`), and knows its waits."""
        self.seat_rules = seat_players.SeatRules()
        """Limits of computer players and the autopilot (the bot sets them from its settings)."""
        self.policies: dict[tuple[str, Level], Policy | None] = {}
        """Each game's policy (`engine.policy`) by (game, level), made on first use; a test may put its own here."""

    # --- basics -----------------------------------------------------------------------------------------

    def game(self, kind: str) -> Game:  # type: ignore[type-arg]
        try:
            return self.games[kind]
        except KeyError:
            raise Refusal(f"This server's Boardroom no longer has the game '{kind}'.") from None

    def presentation(self, kind: str) -> Presentation:
        from bot.presentation import GenericPresentation

        return self.presentations.get(kind) or GenericPresentation()

    def policy(self, kind: str, level: Level = "normal") -> Policy | None:
        """The game's computer player at `level`, and its autopilot (None: the game has none). The autopilot is the
        same at every level: callers ask for it at the default."""
        key = (kind, level)
        if key not in self.policies:
            self.policies[key] = policy_for(self.game(kind), level)
        return self.policies[key]

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def now(self) -> datetime:
        return self.clock()

    async def table(self, game_id: int, *, record: GameRecord | None = None) -> Table:
        """The game as it is now, read in one go (`store.games.load`); `record` is accepted for callers that
        already hold it, but the table's own record is read with the rest, so that all of it is of one moment."""
        loaded = await self.store.games.load(game_id)
        return await self.table_of(loaded)

    async def table_of(self, loaded: LoadedGame) -> Table:
        """The `Table` of a loaded game (a lobby's reads its settings too)."""
        record = loaded.record
        game = self.game(record.kind)
        state = None
        deadlines: dict[int, datetime] = {}
        if loaded.snapshot is not None:
            state = self._state_of(game, record, loaded.snapshot)
            waits = game.waiting_on(state)
            deadlines = timing.effective_deadlines(game, waits, timing.clocks_from(loaded.timers))
        lobby_max = None
        if not record.started:
            lobby_max = (await self.lobby_settings(record)).max_seats
        return Table(game, record, list(loaded.seats), state, self.now(), deadlines, lobby_max)

    def _state_of(self, game: Game, record: GameRecord, snapshot: Snapshot) -> BaseModel:  # type: ignore[type-arg]
        """The snapshot's state: the object the game's last commit wrote when that is the version read (equal to
        what parsing the text gives, by the engine's round trip; nothing changes a state once made: `Game.apply`
        works on a copy), parsed otherwise. Keyed by the game's creation too, so a reused id never matches."""
        kept = self._states.get(record.id)
        if kept is not None and kept[0] == (record.created_at, snapshot.version):
            self._states.move_to_end(record.id)
            return kept[1]
        return game.load_state(snapshot.state)  # type: ignore[no-any-return]

    def _keep_state(self, record: GameRecord, version: int, state: BaseModel, waits: list[Wait]) -> None:
        self._states[record.id] = ((record.created_at, version), state, waits)
        self._states.move_to_end(record.id)
        while len(self._states) > STATES_KEPT:
            self._states.popitem(last=False)

    async def lobby_settings(self, record: GameRecord) -> LobbySettings:
        refs = await self.store.refs.of_game(record.id, kind=LOBBY_REF)
        default = self.game(record.kind).max_seats
        return LobbySettings.parse(refs[0].key, default) if refs else LobbySettings(max_seats=default)

    async def seat_of(self, game_id: int, user_id: int) -> int:
        for s in await self.store.seats.of_game(game_id):
            if s.player_id == user_id:
                return s.seat
        record = await self.store.games.get(game_id)
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
        loaded: LoadedGame | None = None,
    ) -> list[int]:
        """Apply the action to the game's state and commit it. `loaded`: the game as read under the lock by the
        caller (read here otherwise), so that a move reads the game once."""
        game = self.game(record.kind)
        if loaded is None:
            loaded = await self.store.games.load(record.id)
        snap = loaded.snapshot
        if snap is None:
            raise GameNotFound(f"game {record.id} has not started yet: it has no state")
        state = self._state_of(game, record, snap)
        now = self.now()
        try:
            outcome = game.apply(state, seat, action, now)
        except RuleError as exc:
            if seat is not None and exc.code in invalid.UNREADABLE_ACTION:  # a malformed or unknown move
                raise Refusal(
                    f"That isn't a move {game.title} understands: {invalid.problem(exc)}. Pick one of the suggestions."
                ) from None
            if user_id is None or seat is None:
                raise
            names = [shown(s.display_name or "") for s in loaded.seats]
            raise RuleRefusal(render(exc.message, names), exc.message) from None
        entry = NewLogEntry.for_action(
            seat, game.dump_action(_parsed(game, action)), now, outcome.events, user_id=user_id
        )
        if note:
            entry = entry.model_copy(update={"note": note})
        ids = await self._commit(
            record,
            snap.version,
            state,
            outcome.state,
            outcome.events,
            entry,
            texts=texts,
            fresh_clocks=fresh_clocks,
            seats=loaded.seats,
            old_timers=loaded.timers,
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
        seats: list[SeatRecord] | None = None,
        old_timers: list[TimerRecord] | None = None,
    ) -> list[int]:
        """Commit one log entry with its snapshot, timers and outbox rows (one transaction). `seats` and
        `old_timers`: as the caller read them under the lock (read here otherwise). The committed rows and the table
        after the commit go to `on_committed` (the notifier's queue), so they are delivered without reading back."""
        game = self.game(record.kind)
        now = entry.at
        kept = self._states.get(record.id)
        waits_before = kept[2] if kept is not None and kept[1] is before else game.waiting_on(before)
        waits_after = game.waiting_on(after)
        if old_timers is None:
            old_timers = await self.store.timers.of_game(record.id)
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
        if seats is None:
            seats = await self.store.seats.of_game(record.id)
        if not over and not paused:
            timers += seat_players.plan(game, record.id, waits_after, seats, now, game.free_to_act(after))
        deadlines = timing.effective_deadlines(game, waits_after, clocks)
        # A turn that resumes after a reaction window is announced too: the window's closing reaches its player
        # only as an edit, which notifies nobody, and it is on them again (KKK's Boss must close the deal).
        awaits = [] if over else announcements(waits_before, waits_after, deadlines, fresh=fresh_clocks)
        items: list[NewOutbox] = []
        guard = discord_guard(now)
        narration = outbox.post(
            events=events,
            texts=texts,
            awaits=awaits,
            result=result_post if result_post is not None else (finished and record.status != "finished"),
            actor=entry.actor_seat,
            ping=ping,
            guard=guard,
        )
        if narration is not None:
            items.append(narration)
        presentation = self.presentation(record.kind)
        public = [e for e in events if e.public]
        table_before = Table(game, record, seats, before, now)
        table_after = Table(game, record.model_copy(update={"status": effective_status}), seats, after, now)
        table_before.memo[("waits", id(before))] = waits_before  # `Table.waits`: the engine is asked once per state
        table_after.memo[("waits", id(after))] = waits_after
        if (public and presentation.event_posts(table_after, public)) or presentation.live_posts(table_after):
            items.append(outbox.tracked(public, guard=guard))
        items += [outbox.guarded(i, guard) for i in extra]
        items.append(outbox.status(guard=guard))
        ending = new_status in ("finished", "abandoned")
        if ending:
            items.append(outbox.lobby(guard=guard))  # the lobby message says it's over, and who won
        # A hand's fingerprint before this commit is the one the previous commit computed after it (same version,
        # same seats): each state's fingerprints are computed once.
        seats_key = tuple((x.seat, x.player_id, x.display_name, x.dm_ok, x.autopilot, x.bot) for x in seats)
        known = self._fingerprints.get((record.id, version, seats_key), {})
        after_prints: dict[int, str] = {}
        for s in range(game.seat_count(after)):
            notes = outbox.private_notes(events, s)
            before_print = known.get(s)
            if before_print is None:
                before_print = hand_fingerprint(presentation, table_before, s)
            after_prints[s] = hand_fingerprint(presentation, table_after, s)
            if notes or ending or before_print != after_prints[s]:  # an ending: every hand shows the standings
                items.append(outbox.hand(s, notes, guard=guard))
        actor = next((s for s in seats if s.seat == entry.actor_seat), None)
        # Their own move: no longer missing deadlines (in the commit, not a write of its own).
        back = actor is not None and actor.missed > 0 and entry.user_id is not None and actor.player_id == entry.user_id
        result = await self.store.games.commit(
            record.id,
            version,
            entry,
            None if entry.kind == "note" else game.dump_state(after),
            status=new_status,  # type: ignore[arg-type]
            timers=timers,
            outbox=items,
            clear_missed=actor.seat if back and actor is not None else None,
        )
        self._fingerprints[(record.id, result.version, seats_key)] = after_prints
        if entry.kind != "note":  # a note writes no snapshot
            self._keep_state(record, result.version, after, waits_after)
        while len(self._fingerprints) > FINGERPRINTS_KEPT:
            self._fingerprints.popitem(last=False)
        self.on_timers_changed()
        if back:
            seats = [x.model_copy(update={"missed": 0}) if x is actor else x for x in seats]
        self._committed(
            record, result, items, timers, seats, after, waits_after, effective_status, now, table_after.memo
        )
        return result.outbox_ids

    def _committed(
        self,
        record: GameRecord,
        result: CommitResult,
        items: Sequence[NewOutbox],
        timers: Sequence[NewTimer],
        seats: list[SeatRecord],
        state: BaseModel,
        waits: list[Wait],
        status: str,
        now: datetime,
        memo: dict[Any, Any],
    ) -> None:
        """After a commit: the table as it is now (for the auto-pass and the notifier, which need not read it back)
        and the committed rows, handed to `on_committed`."""
        game = self.game(record.kind)
        update: dict[str, Any] = {"version": result.version, "status": status, "updated_at": now}
        if status in ("finished", "abandoned") and record.finished_at is None:
            update["finished_at"] = now
        after = record.model_copy(update=update)
        deadlines = timing.effective_deadlines(game, waits, timing.clocks_from(timers))  # the committed timers' clocks
        # The commit's renderings of this state (names, private posts) go on with it to the notifier.
        table = Table(game, after, list(seats), state, now, deadlines, memo=memo)
        self._tables[record.id] = table
        rows = [
            OutboxRecord.model_construct(
                id=i,
                game_id=record.id,
                kind=item.kind,
                target=item.target,
                payload=item.payload,
                created_at=now,
                delivered_at=None,
                attempts=0,
                last_error=None,
            )
            for i, item in zip(result.outbox_ids, items, strict=True)
        ]
        self.on_committed(record.id, rows)
        if status in ("finished", "abandoned") and record.status not in ("finished", "abandoned"):
            self.on_game_over(record.id)

    async def _auto_pass(self, game_id: int, *, after_commit: bool = False) -> list[int]:
        """Apply the away action for every away seat a reaction window waits on (under the game's lock).
        `after_commit`: called right after a commit under the same lock, whose table it then looks at (nothing is
        read when nobody is away)."""
        ids: list[int] = []
        for _ in range(32):
            table = self._tables.pop(game_id, None) if after_commit else None
            table = table or await self.table(game_id)
            after_commit = True  # each pass below commits before the next looks again
            record = table.record
            self._tables[game_id] = table  # the game as it is, unless the pass below commits
            if record.status != "active":
                return ids
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

    def _settle(self, game_id: int) -> None:
        """A move is complete (under the game's lock, nothing else changes it before the lock is released): the
        table its last commit (or auto-pass) left is the game as it is, and the notifier may render from it."""
        table = self._tables.pop(game_id, None)
        if table is not None:
            self.on_settled(game_id, table)

    # --- reading ----------------------------------------------------------------------------------------

    async def private_view(self, game_id: int, user_id: int) -> tuple[Table, int]:
        record = await self.store.games.get(game_id)
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
        level=s.level,
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
