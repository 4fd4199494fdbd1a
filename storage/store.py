"""The game store's interface: what the bot may ask of persistence, whatever the database behind it.

`GameStore` is an abstract base class. `open_store(path)` returns the SQLite implementation (`storage.sqlite`);
a PostgreSQL backend would implement the same abstract methods. Export is written once here, on top of the
abstract reads, so every backend gets it. Replaying a game, checking it against its snapshot and importing an
export need the game's rules, which the store knows nothing of: they live above both, in the `replay` package.

How the bot uses it (one action, under its per-game lock):

    record = await store.get_game(game_id)
    snap = await store.get_snapshot(game_id)
    state = game.load_state(snap.state)
    outcome = game.apply(state, seat, action, now)                       # RuleError: nothing to store
    result = await store.commit(
        game_id, snap.version,
        NewLogEntry.for_action(seat, game.dump_action(action), now, outcome.events, user_id=user.id),
        game.dump_state(outcome.state),
        timers=[NewTimer(...) for each wait in game.waiting_on(outcome.state)],
        outbox=[NewOutbox(...) for each message to post],
    )                                                                     # StaleVersion: reload and retry
    # then hand the rows to the notifier, which marks each delivery pass's rows in one transaction
    # (`mark_delivered_many`). `load_game` reads record, seats, snapshot and timers at once.

Guarantees every backend keeps:
- `commit` is all or nothing: log entry, snapshot, version bump, timers and outbox rows in one transaction, and
  refused with `StaleVersion` (nothing written) when `expected_version` is not the current version.
- The action log is append-only: entries are never updated or deleted; `seq` runs 1, 2, 3… without gaps, and a
  game's version always equals its last `seq` (0 before the first entry).
- An acknowledged (returned) commit survives a crash of the process or the machine (unless durability was relaxed).
"""

from abc import ABC, abstractmethod
from collections.abc import Collection, Sequence
from datetime import datetime
from enum import Enum
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Literal

from pydantic import BaseModel

from storage.errors import GameNotFound, StorageError
from storage.models import (
    BotLevel,
    CommitResult,
    ExportedGame,
    ExportedLogEntry,
    GameRecord,
    GameStatus,
    GuildSettings,
    LoadedGame,
    LogEntry,
    MessageRef,
    NewLogEntry,
    NewOutbox,
    NewSeat,
    NewTimer,
    OutboxRecord,
    SeatRecord,
    Snapshot,
    TimerRecord,
)
from storage.records import RecordStore


class _Keep(Enum):
    KEEP = "keep"


KEEP: Final = _Keep.KEEP
"""Default of optional update arguments: leave the field as it is (None would set it to NULL)."""

Synchronous = Literal["OFF", "NORMAL", "FULL", "EXTRA"]


class GameStore(RecordStore, ABC):
    """Where games live: records, seats, the append-only action log, snapshots, timers, outbox, message
    references and per-server settings; and the players' records derived from the logs (`storage.records`).
    All methods are coroutines; the store may be shared by many tasks."""

    # --- lifecycle ------------------------------------------------------------------------------------

    @abstractmethod
    async def close(self) -> None:
        """Finish pending work and close the database. Idempotent."""

    async def __aenter__(self) -> "GameStore":
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    @abstractmethod
    async def backup(self, dest: Path) -> None:
        """Write a consistent copy of the whole database to `dest` while play goes on (writers are not held up),
        checked (`PRAGMA integrity_check`) before it takes its name: a file called `dest` is always a whole, sound
        backup. Raises `StorageError` (nothing left at `dest`) if it can't be made."""

    @property
    @abstractmethod
    def schema_version(self) -> int:
        """The schema version of the open database (the number of the last applied migration)."""

    @property
    def damaged_games(self) -> frozenset[int]:
        """Games whose timers `next_timer` and `due_timers` skipped because their data is damaged (a malformed
        page): they can't fire, and must not stop every other game's."""
        return frozenset()

    # --- games ----------------------------------------------------------------------------------------

    @abstractmethod
    async def create_game(
        self,
        kind: str,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        thread_id: int | None = None,
        options: dict[str, Any] | BaseModel | None = None,
        created_by: int | None = None,
        now: datetime | None = None,
    ) -> GameRecord:
        """A new game in the lobby (version 0, no seed, no snapshot). `kind` is the engine's `Game.name`."""

    @abstractmethod
    async def get_game(self, game_id: int) -> GameRecord:
        """The game's record (without its snapshot). Raises `GameNotFound`."""

    @abstractmethod
    async def find_game_by_thread(self, thread_id: int) -> GameRecord | None:
        """The game played in this Discord thread, if any (the newest one, should there be several)."""

    @abstractmethod
    async def list_games(
        self,
        *,
        statuses: Collection[GameStatus] | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        kind: str | None = None,
        limit: int | None = None,
    ) -> list[GameRecord]:
        """Games matching all given filters, oldest first; no snapshots are loaded.

        `list_games(statuses=OPEN_STATUSES)` is what the bot loads at start-up: indexed, independent of how many
        finished games the database holds."""

    @abstractmethod
    async def update_game(
        self,
        game_id: int,
        *,
        status: GameStatus | _Keep = KEEP,
        channel_id: int | _Keep | None = KEEP,
        thread_id: int | _Keep | None = KEEP,
        options: dict[str, Any] | BaseModel | _Keep = KEEP,
        now: datetime | None = None,
    ) -> GameRecord:
        """Change a game's metadata outside the log: where it is played, its status, and (in the lobby only)
        its options. Does not bump the version. To pause with a trace in the log, commit a note with `status`.
        Becoming finished or abandoned clears the game's timers (nothing may fire for a game that is over).
        Raises `GameNotFound`, or `InvalidOperation` for options of a started game or a lobby game made active
        (use `start_game`)."""

    @abstractmethod
    async def start_game(
        self,
        game_id: int,
        *,
        seed: int,
        setup_at: datetime,
        seats: Sequence[NewSeat],
        snapshot: str | BaseModel,
        options: dict[str, Any] | BaseModel | _Keep = KEEP,
        timers: Sequence[NewTimer] = (),
        outbox: Sequence[NewOutbox] = (),
    ) -> CommitResult:
        """Leave the lobby, in one transaction: store the set-up (seed, the seats numbered 0…n-1 replacing any
        lobby seats, `setup_at`, final options) and the first snapshot, status "active", version 0, the game's
        timers (replacing any lobby timers) and outbox rows. The snapshot must be
        `game.setup(len(seats), options, seed, setup_at)` so that the game replays. `seed` must fit a signed 64-bit
        integer (e.g. `secrets.randbits(63)`).
        Raises `InvalidOperation` if the game is not in its lobby (e.g. someone else started it)."""

    async def load_game(self, game_id: int) -> LoadedGame:
        """The record, seats, snapshot (None in the lobby) and timers of a game, as of one moment: what a move
        reads, in one go (the SQLite store: one hop to its thread). Raises `GameNotFound`."""
        record = await self.get_game(game_id)
        seats = await self.seats(game_id)
        snapshot = await self.get_snapshot(game_id) if record.started else None
        return LoadedGame(record=record, seats=seats, snapshot=snapshot, timers=await self.timers(game_id))

    @abstractmethod
    async def get_snapshot(self, game_id: int) -> Snapshot:
        """The game's current state and version. Raises `GameNotFound` (also for a game still in its lobby)."""

    # --- the commit -----------------------------------------------------------------------------------

    @abstractmethod
    async def commit(
        self,
        game_id: int,
        expected_version: int,
        entry: NewLogEntry,
        snapshot: str | BaseModel | None,
        *,
        status: GameStatus | None = None,
        timers: Sequence[NewTimer] | None = None,
        timer_kinds: Collection[str] | None = None,
        outbox: Sequence[NewOutbox] = (),
        clear_missed: int | None = None,
    ) -> CommitResult:
        """Append `entry` to the game's log and store what follows from it, all in one transaction.

        - Refused with `StaleVersion` (nothing written) unless the game's version is `expected_version`; the new
          version (and the entry's seq) is `expected_version + 1`.
        - `snapshot`: the new state (engine JSON or the state model). None keeps the current one (a note).
          For an undo, pass the state right after entry `entry.undo_to`
          (`await replay.replay_game(store, game, id, upto=n)`).
        - `status`: a new status for the game (e.g. "finished" when the action ends it), or None to keep it.
          Becoming finished or abandoned clears the game's timers unless `timers` are given.
        - `timers`: None leaves the game's timers alone; a sequence replaces the game's timers whose kind is in
          `timer_kinds` (all of the game's timers when `timer_kinds` is None) by these ones. Every new timer gets a
          new id, never used before, so a scheduler holding an old id cannot delete a newer timer; their ids come
          back in order in `timer_ids`. A timer's kind must be in `timer_kinds` when that is given.
        - `outbox`: messages to deliver after the commit; their ids come back in order in `outbox_ids`.
        - `clear_missed`: a seat whose count of missed deadlines in a row goes back to 0 (its player moved), in the
          same transaction rather than a write of its own.
        Raises `GameNotFound`, `InvalidOperation` (game not started, undo_to out of range)."""

    # --- seats ----------------------------------------------------------------------------------------

    @abstractmethod
    async def seats(self, game_id: int) -> list[SeatRecord]:
        """The game's seats, by seat number."""

    @abstractmethod
    async def set_seats(self, game_id: int, seats: Sequence[NewSeat], *, now: datetime | None = None) -> None:
        """Replace the lobby's seats (who has joined so far). Raises `InvalidOperation` once the game started
        (then use `update_seat`, e.g. for a substitute)."""

    @abstractmethod
    async def update_seat(
        self,
        game_id: int,
        seat: int,
        *,
        player_id: int | _Keep | None = KEEP,
        display_name: str | _Keep = KEEP,
        dm_ok: bool | _Keep | None = KEEP,
        away_until: datetime | _Keep | None = KEEP,
        autopilot: bool | _Keep = KEEP,
        bot: bool | _Keep = KEEP,
        missed: int | _Keep = KEEP,
        level: BotLevel | _Keep = KEEP,
    ) -> SeatRecord:
        """Change one seat's player (a substitute), name, DM reachability, away-until, autopilot, computer player
        flag, count of missed deadlines or computer player's level. Raises `GameNotFound` if there is no such seat."""

    @abstractmethod
    async def seats_of_player(
        self, player_id: int, *, statuses: Collection[GameStatus] | None = None
    ) -> list[SeatRecord]:
        """All seats the player holds, in games with one of `statuses` (any status if None)."""

    # --- the log --------------------------------------------------------------------------------------

    @abstractmethod
    async def log(self, game_id: int, *, after: int = 0, limit: int | None = None) -> list[LogEntry]:
        """The game's log entries with seq > `after`, in order (at most `limit` of them)."""

    async def log_notes(self, game_id: int, prefix: str) -> list[LogEntry]:
        """The game's log entries whose note starts with `prefix`, in order. The SQLite store reads only those
        entries for the prefix "reaction:" (an index holds them); any other prefix reads the whole log."""
        return [e for e in await self.log(game_id) if e.note.startswith(prefix)]

    @abstractmethod
    async def log_entry(self, game_id: int, seq: int) -> LogEntry:
        """One log entry. Raises `GameNotFound` if there is none with that seq."""

    # --- timers ---------------------------------------------------------------------------------------

    @abstractmethod
    async def add_timers(self, game_id: int, timers: Sequence[NewTimer], *, now: datetime | None = None) -> list[int]:
        """Add timers outside a commit (e.g. a lobby that expires). Returns their ids in order."""

    @abstractmethod
    async def timers(self, game_id: int) -> list[TimerRecord]:
        """The game's pending timers, soonest first."""

    @abstractmethod
    async def next_timer(self) -> TimerRecord | None:
        """The soonest timer of all games, for the scheduler's sleep."""

    @abstractmethod
    async def due_timers(self, until: datetime, *, limit: int = 100) -> list[TimerRecord]:
        """Timers due at or before `until`, soonest first (at start-up: all the overdue ones)."""

    @abstractmethod
    async def delete_timer(self, timer_id: int) -> bool:
        """Remove a fired or obsolete timer. False if it was already gone (e.g. replaced by a commit)."""

    @abstractmethod
    async def delete_timers(self, game_id: int, *, kinds: Collection[str] | None = None) -> int:
        """Remove the game's timers (of these kinds, or all). Returns how many were removed."""

    # --- outbox ---------------------------------------------------------------------------------------

    @abstractmethod
    async def add_outbox(
        self, game_id: int | None, items: Sequence[NewOutbox], *, now: datetime | None = None
    ) -> list[int]:
        """Queue messages outside a commit (e.g. lobby announcements). Returns their ids in order."""

    @abstractmethod
    async def outbox_item(self, outbox_id: int) -> OutboxRecord:
        """One outbox row. Raises `StorageError` (LookupError) if it does not exist."""

    @abstractmethod
    async def undelivered(
        self, *, game_id: int | None = None, max_attempts: int | None = None, limit: int = 100
    ) -> list[OutboxRecord]:
        """Rows not yet delivered, oldest first (optionally for one game, and with fewer than `max_attempts`
        failed attempts). After a crash, these are the messages still to post or edit."""

    @abstractmethod
    async def mark_delivered(
        self, outbox_id: int, *, refs: Sequence[MessageRef] = (), now: datetime | None = None
    ) -> bool:
        """Mark a row delivered and, in the same transaction, store the references of the messages it created
        (e.g. the new status message). False if it was already delivered (nothing changed)."""

    async def mark_delivered_many(
        self, rows: Sequence[tuple[int, Sequence[MessageRef]]], *, now: datetime | None = None
    ) -> int:
        """`mark_delivered` for several rows (each with its message references) in one transaction: all or none.
        Rows already delivered are left as they are. Returns how many were marked now."""
        marked = 0
        for outbox_id, refs in rows:
            marked += await self.mark_delivered(outbox_id, refs=refs, now=now)
        return marked

    @abstractmethod
    async def mark_failed(self, outbox_id: int, error: str) -> int:
        """Record a failed delivery attempt and its error; returns the number of attempts so far."""

    @abstractmethod
    async def prune_outbox(self, delivered_before: datetime) -> int:
        """Delete rows delivered before that time (the outbox is a queue, not a record). Returns the count."""

    # --- message references ---------------------------------------------------------------------------

    @abstractmethod
    async def put_message_ref(self, ref: MessageRef) -> None:
        """Store what a message stands for, replacing any reference with the same message id or the same
        (game_id, kind, seat, key)."""

    @abstractmethod
    async def message_ref(self, message_id: int) -> MessageRef | None:
        """What this message stands for (e.g. the offer behind a 🤝 reaction), if anything."""

    @abstractmethod
    async def find_message_ref(
        self, game_id: int | None, kind: str, *, seat: int | None = None, key: str = ""
    ) -> MessageRef | None:
        """The message standing for (game, kind, seat, key), e.g. the status message or a seat's hand."""

    @abstractmethod
    async def message_refs(self, game_id: int, *, kind: str | None = None) -> list[MessageRef]:
        """All references of a game (of one kind, if given)."""

    @abstractmethod
    async def delete_message_ref(self, message_id: int) -> bool:
        """Forget a message (deleted, or its offer is settled). False if it was not known."""

    # --- per-server settings --------------------------------------------------------------------------

    @abstractmethod
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (all None if never set)."""

    @abstractmethod
    async def put_guild_settings(self, settings: GuildSettings, *, now: datetime | None = None) -> GuildSettings:
        """Store the server's settings (all fields, replacing what was there); returns them with `updated_at`."""

    # --- whole games: low level (used by import) ------------------------------------------------------

    @abstractmethod
    async def restore_game(self, exported: ExportedGame, snapshot: str | None, *, keep_id: bool = True) -> GameRecord:
        """Write a whole game (record, seats, log, snapshot) in one transaction, as is. Low level: call
        `replay.import_game`, which checks the log replays to the snapshot first. Keeps the exported id if `keep_id` and
        it is free, else takes a new one."""

    @abstractmethod
    async def check_integrity(self) -> list[str]:
        """A full check of the database file (slow on big databases: not done at start-up). [] means healthy."""

    # --- export (backend-independent) --------------------------------------------------------------------

    async def export_game(self, game_id: int) -> ExportedGame:
        """The whole game (record, options, seats, full log and current snapshot) as one model; `.to_json()`."""
        record = await self.get_game(game_id)
        seats = await self.seats(game_id)
        entries = await self.log(game_id)
        snapshot = (await self.get_snapshot(game_id)).state if record.started else None
        return ExportedGame(
            id=record.id,
            kind=record.kind,
            status=record.status,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            thread_id=record.thread_id,
            options=record.options,
            seed=record.seed,
            seat_count=record.seat_count,
            setup_at=record.setup_at,
            version=record.version,
            created_by=record.created_by,
            created_at=record.created_at,
            finished_at=record.finished_at,
            seats=[NewSeat.model_validate(s.model_dump(exclude={"game_id", "joined_at"})) for s in seats],
            log=[ExportedLogEntry.model_validate(e.model_dump(exclude={"game_id"})) for e in entries],
            snapshot=snapshot,
        )


def dump_snapshot(snapshot: str | bytes | BaseModel) -> str:
    """A snapshot as the JSON text to store."""
    if isinstance(snapshot, BaseModel):
        return snapshot.model_dump_json()
    if isinstance(snapshot, bytes):
        return snapshot.decode("utf-8")
    if not isinstance(snapshot, str):
        raise StorageError(f"a snapshot must be JSON text or a pydantic model, not {type(snapshot).__name__}")
    return snapshot


async def open_store(
    path: str | Path,
    *,
    synchronous: Synchronous = "FULL",
    create: bool = True,
    busy_timeout: float = 5.0,
) -> GameStore:
    """Open (creating if needed and allowed) the SQLite store at `path`, apply pending migrations, and return it
    ready to serve. ":memory:" gives a private in-memory store (tests).

    - `synchronous`: "FULL" (default) makes every acknowledged commit survive a power loss; "NORMAL" in WAL mode
      survives a process crash but may lose the last commits on power loss; "OFF"/"EXTRA" as in SQLite.
    - `create=False` refuses a missing file instead of creating an empty store.
    Raises `StoreFileError` naming the file if it is not a Boardroom database, is corrupt or cannot be opened,
    and `SchemaTooNew` if a newer Boardroom wrote it. The file is never overwritten."""
    from storage.sqlite import SQLiteStore

    return await SQLiteStore.open(path, synchronous=synchronous, create=create, busy_timeout=busy_timeout)


__all__ = ["KEEP", "GameNotFound", "GameStore", "Synchronous", "open_store"]
