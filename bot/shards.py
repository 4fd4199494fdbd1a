"""Which gateway shard a game belongs to, for the start-up catch-up of one shard (issue 30, goal 3).

Discord sends a server's events on shard `(guild_id >> 22) % shard_count`, and DMs on shard 0 only. A process that
holds some shards (`SHARD_COUNT`, `SHARD_IDS`) catches up, as each of its shards connects (`on_shard_ready`), with
the games of that shard: a game's deliveries and missed reactions are read back once, by the process whose shard
brings its server. A game without a server (none today) counts as shard 0's, with the DMs.
"""

from storage import OPEN_STATUSES, GameStore


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that carries this server's events (shard 0 for no server: DMs)."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


async def games_of_shard(store: GameStore, shard_id: int, shard_count: int) -> set[int]:
    """The open games (lobby, active, paused) whose server is on this shard."""
    return {
        r.id for r in await store.games.find(statuses=OPEN_STATUSES) if shard_of(r.guild_id, shard_count) == shard_id
    }
