"""The store's smaller parts, one job each: seats, the log, timers, the outbox, message references, settings, and
the maintenance of the whole database. `GameStore` (`storage.store`) holds one of each beside `Games` and `Records`.

Each part is an abstract base class that a backend implements; the few methods written here on top of the
abstract ones (e.g. `Log.notes`, `Outbox.mark_delivered_many`) are correct for any backend, which may do them faster.
"""

from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from storage.models import (
    KEEP,
    AwayMode,
    BotLevel,
    Claim,
    ExportedGame,
    GameRecord,
    GameStatus,
    GuildSettings,
    Keep,
    LogEntry,
    MessageRef,
    NewOutbox,
    NewSeat,
    NewTimer,
    OutboxRecord,
    PlayerDelivery,
    QuietHours,
    SeatRecord,
    TimerRecord,
)


class Seats(ABC):
    """Who sits at each game (`store.seats`)."""

    @abstractmethod
    async def of_game(self, game_id: int) -> list[SeatRecord]:
        """The game's seats, by seat number."""

    @abstractmethod
    async def of_games(self, game_ids: Collection[int]) -> dict[int, list[SeatRecord]]:
        """The seats of several games in one read (a listing), by game id, each by seat number; a game without
        seats (or unknown) is left out."""

    @abstractmethod
    async def set_lobby(self, game_id: int, seats: Sequence[NewSeat], *, now: datetime | None = None) -> None:
        """Replace the lobby's seats (who has joined so far). Raises `InvalidOperation` once the game started
        (then use `update`, e.g. for a substitute)."""

    @abstractmethod
    async def update(
        self,
        game_id: int,
        seat: int,
        *,
        player_id: int | Keep | None = KEEP,
        display_name: str | Keep = KEEP,
        dm_ok: bool | Keep | None = KEEP,
        away_until: datetime | Keep | None = KEEP,
        autopilot: bool | Keep = KEEP,
        bot: bool | Keep = KEEP,
        missed: int | Keep = KEEP,
        level: BotLevel | Keep = KEEP,
        away_mode: AwayMode | Keep | None = KEEP,
        away_pauses: Sequence[tuple[datetime, datetime]] | Keep = KEEP,
        handover: dict[str, Any] | Keep | None = KEEP,
    ) -> SeatRecord:
        """Change one seat's player (a substitute), name, DM reachability, away-until, autopilot, computer player
        flag, count of missed deadlines or computer player's level; how they are away (mode, pauses); its pending
        handover. Raises `GameNotFound` if there is no such seat."""

    @abstractmethod
    async def of_player(self, player_id: int, *, statuses: Collection[GameStatus] | None = None) -> list[SeatRecord]:
        """All seats the player holds, in games with one of `statuses` (any status if None)."""


class Log(ABC):
    """The games' append-only action logs (`store.log`); entries are written by `Games.commit` only."""

    @abstractmethod
    async def entries(self, game_id: int, *, after: int = 0, limit: int | None = None) -> list[LogEntry]:
        """The game's log entries with seq > `after`, in order (at most `limit` of them)."""

    async def notes(self, game_id: int, prefix: str) -> list[LogEntry]:
        """The game's log entries whose note starts with `prefix`, in order. The SQLite store reads only those
        entries for the prefix "reaction:" (an index holds them); any other prefix reads the whole log."""
        return [e for e in await self.entries(game_id) if e.note.startswith(prefix)]

    @abstractmethod
    async def entry(self, game_id: int, seq: int) -> LogEntry:
        """One log entry. Raises `GameNotFound` if there is none with that seq."""


class Timers(ABC):
    """Deadlines, reminders and reaction windows (`store.timers`), for the scheduler's one loop."""

    @abstractmethod
    async def add(self, game_id: int, timers: Sequence[NewTimer], *, now: datetime | None = None) -> list[int]:
        """Add timers outside a commit (e.g. a lobby that expires). Returns their ids in order."""

    @abstractmethod
    async def of_game(self, game_id: int) -> list[TimerRecord]:
        """The game's pending timers, soonest first."""

    @abstractmethod
    async def soonest(self) -> TimerRecord | None:
        """The soonest timer of all games, for the scheduler's sleep."""

    @abstractmethod
    async def due(self, until: datetime, *, limit: int = 100) -> list[TimerRecord]:
        """Timers due at or before `until`, soonest first (at start-up: all the overdue ones)."""

    @abstractmethod
    async def delete(self, timer_id: int) -> bool:
        """Remove a fired or obsolete timer. False if it was already gone (e.g. replaced by a commit)."""

    @abstractmethod
    async def clear(self, game_id: int, *, kinds: Collection[str] | None = None) -> int:
        """Remove the game's timers (of these kinds, or all). Returns how many were removed."""

    @abstractmethod
    async def claim(self, timer_ids: Collection[int], claim: Claim, *, now: datetime) -> list[int]:
        """Claim these timers for `claim.owner` until `claim.until`, before firing them (several bot processes on
        one database: each timer fires in one of them). A timer is claimed when it still exists and nobody else
        holds it: unclaimed, already held by the same owner (the lease is moved to `claim.until`), or held by a
        claim whose lease ended at or before `now` (its process died: taken over). Returns the ids claimed now,
        in the order given; a timer held by another live claim, or gone (a commit replaced it), is left out.
        Exactly one of two owners racing for a timer gets it. A fired timer is removed by its move's commit as
        before (its claim goes with it); a timer that fails to fire stays claimed until the lease ends, then any
        process may take it.

        PostgreSQL (`timers` with `claimed_by`, `claimed_until` columns, migration 0002), one statement:

            UPDATE timers SET claimed_by = $2, claimed_until = $3
            WHERE id IN (SELECT id FROM timers
                         WHERE id = ANY($1) AND (claimed_by IS NULL OR claimed_by = $2 OR claimed_until <= $4)
                         ORDER BY id FOR UPDATE SKIP LOCKED)
            RETURNING id

        (a row another transaction is claiming is skipped rather than waited for; the WHERE is checked again on
        the locked row, so two owners never both get it)."""

    @property
    def damaged_games(self) -> frozenset[int]:
        """Games whose timers `soonest` and `due` skipped because their data is damaged (a malformed page): they
        can't fire, and must not stop every other game's."""
        return frozenset()


class Outbox(ABC):
    """Messages to post or edit after a commit (`store.outbox`): a queue, retried after a crash."""

    @abstractmethod
    async def add(self, game_id: int | None, items: Sequence[NewOutbox], *, now: datetime | None = None) -> list[int]:
        """Queue messages outside a commit (e.g. lobby announcements). Returns their ids in order."""

    @abstractmethod
    async def item(self, outbox_id: int) -> OutboxRecord:
        """One outbox row. Raises `StorageError` (LookupError) if it does not exist."""

    @abstractmethod
    async def undelivered(
        self, *, game_id: int | None = None, max_attempts: int | None = None, limit: int = 100
    ) -> list[OutboxRecord]:
        """Rows not yet delivered, oldest first (optionally for one game, and with fewer than `max_attempts`
        failed attempts). After a crash, these are the messages still to post or edit."""

    @abstractmethod
    async def claim(
        self,
        claim: Claim,
        *,
        now: datetime,
        game_id: int | None = None,
        max_attempts: int | None = None,
        limit: int = 100,
    ) -> list[OutboxRecord]:
        """`undelivered` for delivering them: the rows (oldest first; optionally of one game, and with fewer than
        `max_attempts` failed attempts) that `claim.owner` may deliver, claimed for it until `claim.until`. A row
        may be delivered by its owner when it is unclaimed, already held by the same owner, or held by a claim whose
        lease ended at or before `now` (its process died: taken over); a row another live process holds is left
        out (that process delivers it). A row already held by the same owner with a lease still running is returned
        as it is (its lease is not moved: no write when a process reads back its own rows). The rows a commit
        writes are born claimed by the committing process (`Games.commit(claim=…)`), so that the process that
        answers a move delivers its rows without a claim of its own. `limit` counts the rows returned.

        PostgreSQL (`outbox` with `claimed_by`, `claimed_until` columns, migration 0002), one statement
        (`storage.postgres.outbox`):

            WITH free AS (
                SELECT id, coalesce(claimed_by = $1 AND claimed_until > $3, false) AS held
                FROM outbox
                WHERE ($4::bigint IS NULL OR game_id = $4) AND ($5::int IS NULL OR attempts < $5)
                  AND (claimed_by IS NULL OR claimed_by = $1 OR claimed_until <= $3)
                ORDER BY id LIMIT $6
                FOR UPDATE SKIP LOCKED),
            taken AS (UPDATE outbox o SET claimed_by = $1, claimed_until = $2
                      FROM free f WHERE o.id = f.id AND NOT f.held RETURNING o.*)
            SELECT * FROM taken UNION ALL SELECT o.* FROM outbox o JOIN free f ON o.id = f.id WHERE f.held
                                 -- sorted by id by the caller; held rows are only read

        (rows being claimed by another transaction are skipped, not waited for)."""

    @abstractmethod
    async def mark_delivered(
        self, outbox_id: int, *, refs: Sequence[MessageRef] = (), now: datetime | None = None
    ) -> bool:
        """Mark a row delivered and, in the same transaction, store the references of the messages it created
        (e.g. the new status message). False if it was already delivered (nothing changed)."""

    async def mark_delivered_many(
        self,
        rows: Sequence[tuple[int | None, Sequence[MessageRef]]],
        *,
        now: datetime | None = None,
        retired: Collection[int] = (),
    ) -> int:
        """`mark_delivered` for several rows (each with its message references; a row id None stores its
        references alone) in one transaction: all or none. Rows already delivered are left as they are. `retired`:
        message ids whose references are deleted in the same transaction, after the rows' references are stored
        (a settled offer's or window's message, shown for the last time by the pass: `Post.settled`). Returns how
        many rows were marked now. The default (one transaction per row) cannot retire references: a backend that
        delivers settled posts overrides it."""
        if retired:
            raise NotImplementedError("retiring message references needs the backend's own mark_delivered_many")
        marked = 0
        for outbox_id, refs in rows:
            if outbox_id is None:
                raise NotImplementedError("references without a row need the backend's own mark_delivered_many")
            marked += await self.mark_delivered(outbox_id, refs=refs, now=now)
        return marked

    @abstractmethod
    async def mark_failed(self, outbox_id: int, error: str) -> int:
        """Record a failed delivery attempt and its error; returns the number of attempts so far."""

    @abstractmethod
    async def mark_in_flight(self, outbox_ids: Sequence[int], note: str) -> None:
        """Record, in one write, that these undelivered rows are about to be tried (`note` as their last error, the
        attempts not counted): those with a last error already keep it."""

    @abstractmethod
    async def prune(self, delivered_before: datetime) -> int:
        """Delete rows delivered before that time (the outbox is a queue, not a record). Returns the count."""


class MessageRefs(ABC):
    """What a Discord message stands for (`store.refs`): a game's status message, a seat's hand, an offer."""

    @abstractmethod
    async def put(self, ref: MessageRef) -> None:
        """Store what a message stands for, replacing any reference with the same message id or the same
        (game_id, kind, seat, key)."""

    @abstractmethod
    async def get(self, message_id: int) -> MessageRef | None:
        """What this message stands for (e.g. the offer behind a 🤝 reaction), if anything."""

    @abstractmethod
    async def find(
        self, game_id: int | None, kind: str, *, seat: int | None = None, key: str = ""
    ) -> MessageRef | None:
        """The message standing for (game, kind, seat, key), e.g. the status message or a seat's hand."""

    async def find_many(
        self, game_id: int | None, wanted: Collection[tuple[str, int | None, str]]
    ) -> dict[tuple[str, int | None, str], MessageRef]:
        """The messages standing for these (kind, seat, key) of a game, in one read, each looked up by its key (the
        cost does not grow with the game's other references); a key nothing stands for is left out. A delivery pass
        reads what it needs this way (`bot.notifier.ledger`). Default: `find` per key (a backend overrides it to
        make it one round trip)."""
        found: dict[tuple[str, int | None, str], MessageRef] = {}
        for kind, seat, key in wanted:
            ref = await self.find(game_id, kind, seat=seat, key=key)
            if ref is not None:
                found[(kind, seat, key)] = ref
        return found

    @abstractmethod
    async def of_game(self, game_id: int, *, kind: str | None = None) -> list[MessageRef]:
        """All references of a game (of one kind, if given)."""

    @abstractmethod
    async def delete(self, message_id: int) -> bool:
        """Forget a message (deleted, or its offer is settled). False if it was not known."""


class Settings(ABC):
    """Per-server settings and per-player choices (`store.settings`); kept when the records are rebuilt."""

    @abstractmethod
    async def guild(self, guild_id: int) -> GuildSettings:
        """The server's settings (all None if never set)."""

    @abstractmethod
    async def put_guild(self, settings: GuildSettings, *, now: datetime | None = None) -> GuildSettings:
        """Store the server's settings (all fields, replacing what was there); returns them with `updated_at`."""

    @abstractmethod
    async def profile_private(self, player_id: int) -> bool:
        """Whether the player keeps their profile to themselves."""

    @abstractmethod
    async def set_profile_private(self, player_id: int, private: bool, *, now: datetime | None = None) -> None: ...

    # --- where prompts reach a person, and their digest (`/me notify`, `/me digest`) ---------------------

    @abstractmethod
    async def deliveries(self, player_ids: Collection[int]) -> dict[int, PlayerDelivery]:
        """The delivery choices of these people, in one read (the defaults for those who never chose)."""

    @abstractmethod
    async def put_delivery(self, delivery: PlayerDelivery, *, now: datetime | None = None) -> PlayerDelivery:
        """Store a person's delivery choices (all fields, replacing what was there); returns them with
        `updated_at`."""

    @abstractmethod
    async def due_digests(self, until: datetime, *, limit: int = 100) -> list[PlayerDelivery]:
        """The people whose digest is due at or before `until`, soonest first."""

    @abstractmethod
    async def soonest_digest(self) -> datetime | None:
        """When the next digest of anyone is due (None: nobody has one)."""

    @abstractmethod
    async def claim_digest(self, player_id: int, due: datetime, next_at: datetime) -> bool:
        """Claim the digest run due at `due` and move the person's next run to `next_at`, in one statement: True
        for exactly one caller (False if the run was claimed already, or the person changed their digest)."""

    @abstractmethod
    async def quiet_of(self, player_ids: Iterable[int]) -> dict[int, QuietHours]:
        """The quiet hours of those of these people who have some (one read)."""

    @abstractmethod
    async def set_quiet(self, player_id: int, hours: QuietHours | None, *, now: datetime | None = None) -> None:
        """Set a person's quiet hours, or clear them (None)."""


class Maintenance(ABC):
    """The whole database (`store.maintenance`): its schema version, backups, checks, and restoring a game."""

    @property
    @abstractmethod
    def schema_version(self) -> int:
        """The schema version of the open database (the number of the last applied migration)."""

    @abstractmethod
    async def backup(self, dest: Path) -> None:
        """Write a consistent copy of the whole database to `dest` while play goes on (writers are not held up),
        checked (`PRAGMA integrity_check`) before it takes its name: a file called `dest` is always a whole, sound
        backup. Raises `StorageError` (nothing left at `dest`) if it can't be made."""

    @abstractmethod
    async def check_integrity(self) -> list[str]:
        """A full check of the database file (slow on big databases: not done at start-up). [] means healthy."""

    @abstractmethod
    async def restore(self, exported: ExportedGame, snapshot: str | None, *, keep_id: bool = True) -> GameRecord:
        """Write a whole game (record, seats, log, snapshot) in one transaction, as is. Low level: call
        `replay.import_game`, which checks the log replays to the snapshot first. Keeps the exported id if `keep_id` and
        it is free, else takes a new one."""


__all__ = ["Log", "Maintenance", "MessageRefs", "Outbox", "Seats", "Settings", "Timers"]
