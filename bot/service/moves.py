"""The move path, the one way a game changes: lock it, load it once, let the engine decide, commit, and hand the
committed outbox rows on for delivery.

Every change to a game goes through `MovePath` under that game's `asyncio.Lock`: load the record and snapshot,
`game.apply` (a `RuleError` leaves everything untouched), then one store transaction with the log entry, the new
snapshot, the recomputed timers (`bot.timers`) and the outbox rows (`bot.outbox`), worked out in named steps by
`bot.service.commit`. Only after the commit are the rows handed to the notifier (`on_committed`), so nothing is ever
announced that is not stored. The store's optimistic version check catches a writer outside this process
(`StaleVersion`): the caller reloads and tries again (`retry`), which the player never sees.

Several processes on one database (issue 30): the asyncio lock serialises a game's moves within this process only;
across processes the version check does it — of two moves read from the same version, one commits and the other
is read again and applied to the state after it. Nothing cached here can serve a state another process moved
past: the states and hand fingerprints this process keeps (`StateCache`) are found by the version just read from
the store, never by the game alone, so a version this process did not commit is parsed from the stored snapshot;
a commit refused with `StaleVersion` keeps nothing and drops what was kept of the game (`retry`); and the table a
move leaves for the notifier to render from is checked against the stored version when processes share the
database (`bot.notifier.delivery`).

After each move (under the same lock) every reaction window that waits on an away player gets the game's
`away_action` (`auto_pass`; see `bot.service.play` for `/game away`).
"""

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from bot import invalid, metrics, outbox
from bot import timers as timing
from bot.i18n.platform import _
from bot.logs import game_logger
from bot.presentation import Table
from bot.service.commit import OVER, Commit, Planned, plan, seats_key
from bot.service.reader import Reader
from bot.service.results import Refusal, RuleRefusal
from bot.service.states import StateCache
from bot.table import speaking_at
from engine.errors import RuleError
from engine.events import Wait
from engine.game import Game
from engine.text import seat as seat_ref
from storage import (
    Claim,
    CommitResult,
    GameNotFound,
    GameRecord,
    LoadedGame,
    NewLogEntry,
    NewOutbox,
    OutboxRecord,
    SeatRecord,
    StaleVersion,
)

T = TypeVar("T")
ClocksFn = Callable[[Game, list[Wait], dict[str, timing.Clock], GameRecord], dict[str, timing.Clock]]  # type: ignore[type-arg]
"""How a note changes the waits' clocks (a resume, an extension): (game, waits, clocks, record) → clocks."""
COMMIT_RETRIES = 3
AUTO_PASSES = 32


class MovePath:
    """The per-game locks, applying an action, committing it, the away players' passes that follow, and the hooks
    that hand a commit on (scheduler, notifier, recorder)."""

    def __init__(self, read: Reader, states: StateCache, *, reminders: bool = True) -> None:
        self.read = read
        self.store = read.store
        self.states = states
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
        self.claim: Callable[[], Claim | None] = lambda: None
        """This process's claim, taken now (`bot.claims.Claims.hold`): a commit's rows are born claimed by it, so
        that no other process on the database delivers them while this one does (None: unclaimed)."""
        self._tables: dict[int, Table] = {}
        """The table the last commit of a game left, taken by the auto-pass that follows it under the same lock."""

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def retry(self, fn: Callable[[], Awaitable[T]]) -> T:
        """`fn` again (it reads the game anew) when its commit found the version moved by another writer."""
        for attempt in range(COMMIT_RETRIES):
            try:
                return await fn()
            except StaleVersion as exc:
                # Another process moved the game: what this one kept of it is past (read anew by `fn`).
                self.states.forget(exc.game_id)
                self._tables.pop(exc.game_id, None)
                if attempt == COMMIT_RETRIES - 1:
                    raise
        raise AssertionError("unreachable")

    async def apply(
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
        """Apply the action to the game's state and commit it (under the game's lock). `loaded`: the game as read
        under the lock by the caller (read here otherwise), so that a move reads the game once."""
        game = self.read.game(record.kind)
        if loaded is None:
            loaded = await self.store.games.load(record.id)
        snap = loaded.snapshot
        if snap is None:
            raise GameNotFound(f"game {record.id} has not started yet: it has no state")
        state = self.states.state_of(game, record, snap)
        now = self.read.now()
        try:
            outcome = game.apply(state, seat, action, now)
        except RuleError as exc:
            table = Table(game, record, list(loaded.seats), state, now, words=self.read.presentation(record.kind))
            refusal = _refusal(table, exc, seat, user_id)
            if refusal is None:
                raise
            raise refusal from None
        entry = NewLogEntry.for_action(
            seat, game.dump_action(parsed(game, action)), now, outcome.events, user_id=user_id
        )
        if note:
            entry = entry.model_copy(update={"note": note})
        commit = Commit(
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
        ids = await self.commit(commit)
        metrics.moved(record.kind)
        game_logger(record.id, "boardroom.service").info(
            "applied",
            extra={"fields": {"seat": seat, "action": entry.action.get("type") if entry.action else None}},
        )
        return ids

    async def commit(self, c: Commit) -> list[int]:
        """Commit one log entry with its snapshot, timers and outbox rows (one transaction). The commit's `seats`
        and `old_timers`: as the caller read them under the lock (read here otherwise). The committed rows and the
        table after the commit go to `on_committed` (the notifier's queue), so they are delivered without reading
        back."""
        record = c.record
        game = self.read.game(record.kind)
        old_timers = c.old_timers if c.old_timers is not None else await self.store.timers.of_game(record.id)
        seats = c.seats if c.seats is not None else await self.store.seats.of_game(record.id)
        key = (record.id, c.version, seats_key(seats))
        modes = await self.read.deliveries.modes(seats)  # read once per person, then kept (`bot.routing`)
        quiet = await self.read.quiet.of(s.player_id for s in seats if s.player_id is not None)
        with speaking_at(record):  # what the rows say, they say to the table
            planned = plan(
                game,
                self.read.presentation(record.kind),
                c,
                seats=seats,
                old_timers=old_timers,
                waits_before=self.states.waits_of(game, record.id, c.before),
                known_prints=self.states.prints(key),
                reminders=self.reminders,
                modes=modes,
                quiet=quiet,
            )
        actor = next((s for s in seats if s.seat == c.entry.actor_seat), None)
        # Their own move: no longer missing deadlines (in the commit, not a write of its own).
        back = (
            actor is not None
            and actor.missed > 0
            and c.entry.user_id is not None
            and actor.player_id == c.entry.user_id
        )
        result = await self.store.games.commit(
            record.id,
            c.version,
            c.entry,
            None if c.entry.kind == "note" else game.dump_state(c.after),
            status=planned.new_status,  # type: ignore[arg-type]
            timers=planned.timers,
            outbox=planned.items,
            clear_missed=actor.seat if back and actor is not None else None,
            claim=self.claim() if planned.items else None,
        )
        self.states.keep_prints((record.id, result.version, key[2]), planned.prints)
        if c.entry.kind != "note":  # a note writes no snapshot
            self.states.keep(record, result.version, c.after, planned.waits)
        self.on_timers_changed()
        if back:
            seats = [x.model_copy(update={"missed": 0}) if x is actor else x for x in seats]
        self._committed(c, result, planned, seats)
        return result.outbox_ids

    async def commit_note(
        self, game_id: int, entry: NewLogEntry, texts: Sequence[str], *, clocks_fn: ClocksFn | None = None, **how: Any
    ) -> list[int]:
        """Commit a log note (`entry`) that leaves the game's state as it is, with `texts` in the thread; the
        timers are planned anew from the seats as they are now. `clocks_fn(game, waits, clocks, record)` may change
        the waits' clocks (a resume, an extension); `how`: the rest of a `Commit` (status, extra rows, pings…)."""
        record = await self.store.games.get(game_id)
        game = self.read.game(record.kind)
        snap = await self.store.games.snapshot(game_id)
        state = game.load_state(snap.state)
        clocks = timing.clocks_from(await self.store.timers.of_game(game_id))
        if clocks_fn is not None:
            clocks = clocks_fn(game, game.waiting_on(state), clocks, record)
        return await self.commit(
            Commit(record, snap.version, state, state, [], entry, texts=texts, clocks=clocks, **how)
        )

    def _committed(self, c: Commit, result: CommitResult, planned: Planned, seats: list[SeatRecord]) -> None:
        """After a commit: the table as it is now (for the auto-pass and the notifier, which need not read it back)
        and the committed rows, handed to `on_committed`."""
        record, status, now = c.record, planned.status, c.entry.at
        game = self.read.game(record.kind)
        update: dict[str, Any] = {"version": result.version, "status": status, "updated_at": now}
        if status in OVER and record.finished_at is None:
            update["finished_at"] = now
        after = record.model_copy(update=update)
        # The committed timers' clocks.
        deadlines = timing.effective_deadlines(game, planned.waits, timing.clocks_from(planned.timers))
        # The commit's renderings of this state (names, private posts) go on with it to the notifier.
        moved = timing.moved_by_quiet(game, planned.waits, planned.timers)
        table = Table(
            game,
            after,
            list(seats),
            c.after,
            now,
            deadlines,
            memo=planned.table.memo,
            moved=moved,
            words=planned.table.words,
        )
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
            for i, item in zip(result.outbox_ids, planned.items, strict=True)
        ]
        self.on_committed(record.id, rows)
        if status in OVER and record.status not in OVER:
            self.on_game_over(record.id)

    async def auto_pass(self, game_id: int, *, after_commit: bool = False) -> list[int]:
        """Apply the away action for every away seat a reaction window waits on (under the game's lock).
        `after_commit`: called right after a commit under the same lock, whose table it then looks at (nothing is
        read when nobody is away)."""
        ids: list[int] = []
        for _attempt in range(AUTO_PASSES):
            table = self._tables.pop(game_id, None) if after_commit else None
            table = table or await self.read.table(game_id)
            after_commit = True  # each pass below commits before the next looks again
            self._tables[game_id] = table  # the game as it is, unless the pass below commits
            chosen = self._away_choice(table)
            if chosen is None:
                return ids
            seat, action = chosen
            try:
                with speaking_at(table.record):
                    said = _("💤 %(who)s is away: passing for them.", who=seat_ref(seat))
                ids += await self.apply(table.record, seat, action, user_id=None, texts=[said])
            except RuleError as exc:
                game_logger(game_id, "boardroom.service").warning("away action refused: %s", exc.message)
                return ids
        return ids

    def _away_choice(self, table: Table) -> tuple[int, Any] | None:
        """The first away seat a reaction window of the running game waits on, with its away action, if any."""
        if table.record.status != "active":
            return None
        assert table.state is not None
        now = self.read.now()
        away = {s.seat for s in table.seats if s.away_until is not None and s.away_until > now}
        if not away:
            return None
        presentation = self.read.presentation(table.record.kind)
        for wait in table.waits:
            if wait.kind != "reaction":
                continue
            for seat in wait.seats:
                if seat in away:
                    action = presentation.controls.away_action(table, seat, wait)
                    if action is not None:
                        return seat, action
        return None

    def settle(self, game_id: int) -> None:
        """A move is complete (under the game's lock, nothing else changes it before the lock is released): the
        table its last commit (or auto-pass) left is the game as it is, and the notifier may render from it."""
        table = self._tables.pop(game_id, None)
        if table is not None:
            self.on_settled(game_id, table)


def _refusal(table: Table, exc: RuleError, seat: int | None, user_id: int | None) -> Refusal | None:
    """What a move the engine refused raises: a `Refusal` for a malformed move, a `RuleRefusal` worded by the game
    (`Presentation.refusal_words`, in the language spoken) for a person's move, or None: the `RuleError` itself (a
    system action)."""
    if seat is not None and exc.code in invalid.UNREADABLE_ACTION:  # a malformed or unknown move
        return Refusal(
            _(
                "That isn't a move %(game)s understands: %(problem)s. Pick one of the suggestions.",
                game=table.game.title,
                problem=invalid.problem(exc),
            )
        )
    if user_id is None or seat is None:
        return None
    return RuleRefusal(table.presentation.refusal_words(table, exc), exc.message, exc)


def parsed(game: Game, action: Any) -> Any:  # type: ignore[type-arg]
    return game.parse_action(action) if isinstance(action, dict | str | bytes) else action


def text_post(text: str) -> NewOutbox:
    return NewOutbox(kind=outbox.POST, target={"to": "thread"}, payload={"texts": [text]})


def require_running(record: GameRecord, game: Game) -> None:  # type: ignore[type-arg]
    if record.status == "lobby":
        raise Refusal(_("%(title)s hasn't started yet.", title=f"{game.title} #{record.id}"))
    if record.status in ("finished", "abandoned"):
        raise Refusal(_("%(title)s is over.", title=f"{game.title} #{record.id}"))
