"""The games part of the store's interface: records, snapshots and the one atomic commit (`store.games`).

The commit is the heart of "nothing is lost": the log entry, the new snapshot, the version bump, the game's timers
and its outbox rows are written in one transaction, by one call on this one object, whatever the backend.
"""

from abc import ABC, abstractmethod
from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from pydantic import BaseModel

from storage.errors import InvalidOperation, StorageError
from storage.models import (
    KEEP,
    Claim,
    CommitResult,
    GameRecord,
    GameStatus,
    Keep,
    LoadedGame,
    NewLogEntry,
    NewOutbox,
    NewSeat,
    NewTimer,
    PlayerGame,
    Snapshot,
)


class Games(ABC):
    """Where games live: their records, their current snapshot, and the commit that moves them on."""

    @abstractmethod
    async def create(
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
    async def get(self, game_id: int) -> GameRecord:
        """The game's record (without its snapshot). Raises `GameNotFound`."""

    @abstractmethod
    async def by_thread(self, thread_id: int) -> GameRecord | None:
        """The game played in this Discord thread, if any (the newest one, should there be several)."""

    @abstractmethod
    async def find(
        self,
        *,
        statuses: Collection[GameStatus] | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        kind: str | None = None,
        limit: int | None = None,
    ) -> list[GameRecord]:
        """Games matching all given filters, oldest first; no snapshots are loaded.

        `find(statuses=OPEN_STATUSES)` is what the bot loads at start-up: indexed, independent of how many
        finished games the database holds."""

    @abstractmethod
    async def update(
        self,
        game_id: int,
        *,
        status: GameStatus | Keep = KEEP,
        channel_id: int | Keep | None = KEEP,
        thread_id: int | Keep | None = KEEP,
        options: dict[str, Any] | BaseModel | Keep = KEEP,
        now: datetime | None = None,
    ) -> GameRecord:
        """Change a game's metadata outside the log: where it is played, its status, and (in the lobby only)
        its options. Does not bump the version. To pause with a trace in the log, commit a note with `status`.
        Becoming finished or abandoned clears the game's timers (nothing may fire for a game that is over).
        Raises `GameNotFound`, or `InvalidOperation` for options of a started game or a lobby game made active
        (use `start`)."""

    @abstractmethod
    async def start(
        self,
        game_id: int,
        *,
        seed: int,
        setup_at: datetime,
        seats: Sequence[NewSeat],
        snapshot: str | BaseModel,
        options: dict[str, Any] | BaseModel | Keep = KEEP,
        timers: Sequence[NewTimer] = (),
        outbox: Sequence[NewOutbox] = (),
    ) -> CommitResult:
        """Leave the lobby, in one transaction: store the set-up (seed, the seats numbered 0…n-1 replacing any
        lobby seats, `setup_at`, final options) and the first snapshot, status "active", version 0, the game's
        timers (replacing any lobby timers) and outbox rows. The snapshot must be
        `game.setup(len(seats), options, seed, setup_at)` so that the game replays. `seed` must fit a signed 64-bit
        integer (e.g. `secrets.randbits(63)`).
        Raises `InvalidOperation` if the game is not in its lobby (e.g. someone else started it)."""

    @abstractmethod
    async def load(self, game_id: int) -> LoadedGame:
        """The record, seats, snapshot (None in the lobby) and timers of a game, as of one moment: what a move
        reads, in one go (the SQLite store: one hop to its thread). Raises `GameNotFound`."""

    @abstractmethod
    async def snapshot(self, game_id: int) -> Snapshot:
        """The game's current state and version. Raises `GameNotFound` (also for a game still in its lobby)."""

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
        claim: Claim | None = None,
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
        - `claim`: the committing process and its lease: the outbox rows are written claimed by it (it delivers
          them behind the move; see `Outbox.claim`), in the same INSERT (PostgreSQL: `INSERT INTO outbox (…,
          claimed_by, claimed_until) VALUES (…, $owner, $until)`). None: written unclaimed.
        Raises `GameNotFound`, `InvalidOperation` (game not started, undo_to out of range)."""

    @abstractmethod
    async def of_player(self, player_id: int, *, statuses: Collection[GameStatus]) -> list[PlayerGame]:
        """The games with one of `statuses` where the player holds a seat, in every server, each with its record,
        all its seats and its pending timers (no snapshot), by game id: one read however many games (`/mine`, the
        digest)."""


def dump_snapshot(snapshot: str | bytes | BaseModel) -> str:
    """A snapshot as the JSON text to store."""
    if isinstance(snapshot, BaseModel):
        return snapshot.model_dump_json()
    if isinstance(snapshot, bytes):
        return snapshot.decode("utf-8")
    if not isinstance(snapshot, str):
        raise StorageError(f"a snapshot must be JSON text or a pydantic model, not {type(snapshot).__name__}")
    return snapshot


def checked_commit(
    entry: NewLogEntry,
    expected_version: int,
    snapshot: str | BaseModel | None,
    status: GameStatus | None,
    timers: Sequence[NewTimer] | None,
    timer_kinds: Collection[str] | None,
) -> tuple[str | None, Sequence[NewTimer] | None, list[str] | None]:
    """What every backend's `Games.commit` checks before it touches the database (`InvalidOperation` for a commit
    that no game may make), and what it then writes: the snapshot's text, the timers (none for a game that is over)
    and the timer kinds they replace (sorted, once each)."""
    if status == "lobby":
        raise InvalidOperation("a started game cannot go back to the lobby")
    new_version = expected_version + 1
    if entry.kind == "undo" and entry.undo_to is not None and entry.undo_to >= new_version:
        raise InvalidOperation(f"an undo goes back to an earlier entry; {entry.undo_to} is not before {new_version}")
    if entry.kind == "undo" and snapshot is None:
        raise InvalidOperation("an undo needs the state it goes back to (replay.replay_game(store, game, id, upto=n))")
    if entry.kind == "action" and snapshot is None:
        raise InvalidOperation("an action needs the new state")
    state = None if snapshot is None else dump_snapshot(snapshot)
    if status in ("finished", "abandoned") and timers is None:
        timers = ()  # nothing may fire for a game that is over
    kinds = None if timer_kinds is None else sorted(set(timer_kinds))
    if kinds is not None and timers and any(t.kind not in kinds for t in timers):
        raise InvalidOperation("every timer given must be of one of the kinds it replaces (timer_kinds)")
    return state, timers, kinds


__all__ = ["Games", "checked_commit", "dump_snapshot"]
