"""Replaying, checking and importing a game kept in a `GameStore`: the store's reads and writes, the engine's rules.

These were methods of `GameStore`; they live here because they need a game (`engine.game.Game`) and the store
must not know the engine. They use only the store's public interface (`get_game`, `get_snapshot`, `log`,
`restore_game`), so every backend gets them. The replay itself runs in a worker thread: a long log must not hold
up the event loop.
"""

import asyncio
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.game import Game
from replay.errors import ImportRefused, ReplayError
from replay.log import compare_states, replay_entries
from storage import ExportedGame, GameRecord, GameStore, LogEntry


class ReplayReport(BaseModel):
    """The outcome of rebuilding a game from set-up plus its log and comparing it with the stored snapshot."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game_id: int
    version: int
    state_matches: bool
    event_mismatches: list[int] = Field(default_factory=list)
    """Seqs of action entries whose logged events differ from the events the replay produced."""
    stored_state: str
    replayed_state: str
    differing_fields: list[str] = Field(default_factory=list)
    """Top-level state fields that differ (empty when the states match)."""

    @property
    def ok(self) -> bool:
        return self.state_matches and not self.event_mismatches


async def replay_game(store: GameStore, game: Game[Any, Any], game_id: int, *, upto: int | None = None) -> BaseModel:
    """The game's state rebuilt from set-up plus its log, right after entry `upto` (default: the last).
    Raises `ReplayError` if the log does not replay (an entry refused by the rules, a bad undo)."""
    record = await store.games.get(game_id)
    if upto is not None and (upto < 0 or upto > record.version):
        raise ReplayError(game_id, upto, f"there is no entry {upto} (the log has {record.version})")
    entries = await store.log.entries(game_id, limit=upto) if upto is not None else await store.log.entries(game_id)
    run = await asyncio.to_thread(replay_entries, game, record, entries, False)
    return run.state


async def check_replay(store: GameStore, game: Game[Any, Any], game_id: int) -> ReplayReport:
    """Rebuild the game from set-up plus its whole log and compare with the stored snapshot (and each action's
    logged events with the replayed ones). Raises `ReplayError` if the log does not replay at all."""
    snap = await store.games.snapshot(game_id)
    record = await store.games.get(game_id)
    entries = await store.log.entries(game_id, limit=snap.version)
    run = await asyncio.to_thread(replay_entries, game, record, entries, True)
    replayed = game.dump_state(run.state)
    differing = compare_states(snap.state, replayed)
    return ReplayReport(
        game_id=game_id,
        version=snap.version,
        state_matches=not differing,
        event_mismatches=run.event_mismatches,
        stored_state=snap.state,
        replayed_state=replayed,
        differing_fields=differing,
    )


async def import_game(
    store: GameStore,
    data: ExportedGame | str | bytes | dict[str, Any],
    game: Game[Any, Any],
    *,
    keep_id: bool = True,
) -> GameRecord:
    """Import an exported game (`store.export_game`): the log is replayed with `game` (whose name must match the
    export's kind), the rebuilt state becomes the snapshot, and it must equal the exported snapshot if there is one.
    Raises `ImportRefused` with the reason; nothing is written then."""
    try:
        if isinstance(data, ExportedGame):
            exported = data
        elif isinstance(data, str | bytes):
            exported = ExportedGame.model_validate_json(data)
        else:
            exported = ExportedGame.model_validate(data)
    except ValidationError as exc:
        raise ImportRefused(f"not a Boardroom game export: {_first_error(exc)}") from None
    if exported.kind != game.name:
        raise ImportRefused(f"the export holds a {exported.kind!r} game, not {game.name!r}")
    seqs = [e.seq for e in exported.log]
    if seqs != list(range(1, len(seqs) + 1)) or len(seqs) != exported.version:
        raise ImportRefused(f"the log is not numbered 1…{exported.version} without gaps")
    snapshot: str | None = None
    if exported.seed is not None:
        record = GameRecord(
            id=exported.id,
            kind=exported.kind,
            status=exported.status,
            options=exported.options,
            seed=exported.seed,
            seat_count=exported.seat_count,
            setup_at=exported.setup_at,
            version=exported.version,
            created_at=exported.created_at,
            updated_at=exported.created_at,
        )
        entries = [LogEntry(game_id=exported.id, **e.model_dump()) for e in exported.log]
        try:
            run = await asyncio.to_thread(replay_entries, game, record, entries, False)
        except ReplayError as exc:
            raise ImportRefused(f"the log does not replay: {exc.problem} (entry {exc.seq})") from None
        snapshot = game.dump_state(run.state)
        if exported.snapshot is not None:
            differing = compare_states(exported.snapshot, snapshot)
            if differing:
                raise ImportRefused("the replayed game differs from the exported snapshot in: " + ", ".join(differing))
    elif exported.log:
        raise ImportRefused("a game without set-up (still in its lobby) cannot have log entries")
    return await store.maintenance.restore(exported, snapshot, keep_id=keep_id)


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "(top level)"
    return f"{where}: {err['msg']}"
