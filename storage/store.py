"""The game store: what the bot may ask of persistence, whatever the database behind it.

`GameStore` is an object made of small parts, each an abstract base class with one job (`storage.games`,
`storage.parts`, `storage.records`): `store.games` (records, snapshots and the commit), `store.seats`, `store.log`,
`store.timers`, `store.outbox`, `store.refs` (message references), `store.settings`, `store.records` (players'
records) and `store.maintenance` (backups, checks, restoring a game). A backend builds one of each on a shared
connection (`storage.sqlite.SQLiteStore`, `storage.postgres.PostgresStore`); `open_store(path)` (`storage.backends`)
opens the SQLite file, or the PostgreSQL database of a `postgresql://` URL.
Export is written once here, on top of the parts' reads, so every backend gets it. Replaying a game, checking it
against its snapshot and importing an export need the game's rules, which the store knows nothing of: they live
above both, in the `replay` package.

How the bot uses it (one action, under its per-game lock):

    loaded = await store.games.load(game_id)                              # record, seats, snapshot, timers
    state = game.load_state(loaded.snapshot.state)
    outcome = game.apply(state, seat, action, now)                       # RuleError: nothing to store
    result = await store.games.commit(
        game_id, loaded.snapshot.version,
        NewLogEntry.for_action(seat, game.dump_action(action), now, outcome.events, user_id=user.id),
        game.dump_state(outcome.state),
        timers=[NewTimer(...) for each wait in game.waiting_on(outcome.state)],
        outbox=[NewOutbox(...) for each message to post],
    )                                                                     # StaleVersion: reload and retry
    # then hand the rows to the notifier, which marks each delivery pass's rows in one transaction
    # (`store.outbox.mark_delivered_many`).

Guarantees every backend keeps:
- `games.commit` is all or nothing: log entry, snapshot, version bump, timers and outbox rows in one transaction,
  and refused with `StaleVersion` (nothing written) when `expected_version` is not the current version.
- The action log is append-only: entries are never updated or deleted; `seq` runs 1, 2, 3… without gaps, and a
  game's version always equals its last `seq` (0 before the first entry).
- An acknowledged (returned) commit survives a crash of the process or the machine (unless durability was relaxed).
- Claims (several bot processes on one database): a timer or an outbox row is held by at most one live claim
  (`Timers.claim`, `Outbox.claim`, a commit's rows born claimed: `Games.commit(claim=…)`); a claim whose lease has
  run out may be taken by anyone. With the per-game version check this makes a timer fire once and a row be
  delivered once across processes (`bot.claims`).
"""

from abc import ABC, abstractmethod
from types import TracebackType

from storage.games import Games
from storage.models import KEEP, ExportedGame, ExportedLogEntry, NewSeat
from storage.parts import Log, Maintenance, MessageRefs, Outbox, Seats, Settings, Timers
from storage.records import Records


class GameStore(ABC):
    """Where games live, as a set of parts (see the module docstring); a backend subclasses it to open and close
    its connection. All the parts' methods are coroutines; the store may be shared by many tasks."""

    def __init__(
        self,
        *,
        games: Games,
        seats: Seats,
        log: Log,
        timers: Timers,
        outbox: Outbox,
        refs: MessageRefs,
        settings: Settings,
        records: Records,
        maintenance: Maintenance,
    ) -> None:
        self.games = games
        self.seats = seats
        self.log = log
        self.timers = timers
        self.outbox = outbox
        self.refs = refs
        self.settings = settings
        self.records = records
        self.maintenance = maintenance

    @abstractmethod
    async def close(self) -> None:
        """Finish pending work and close the database. Idempotent."""

    async def __aenter__(self) -> "GameStore":
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def export_game(self, game_id: int) -> ExportedGame:
        """The whole game (record, options, seats, full log and current snapshot) as one model; `.to_json()`.
        Backend-independent: written on the parts' reads."""
        record = await self.games.get(game_id)
        seats = await self.seats.of_game(game_id)
        entries = await self.log.entries(game_id)
        snapshot = (await self.games.snapshot(game_id)).state if record.started else None
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


__all__ = ["KEEP", "GameStore"]
