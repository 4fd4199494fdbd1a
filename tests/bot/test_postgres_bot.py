"""The bot on PostgreSQL (`DATABASE_URL`): a table opened, joined, started and played in SimCord with the store on
the tests' PostgreSQL server; `/mod backup` there says to use `pg_dump` and writes no file; the automatic backups
stay off. The settings' reading of DATABASE_URL."""

from pathlib import Path

import discord
import pytest
import simcord
from pydantic import ValidationError

from bot.settings import Settings
from storage.postgres import PostgresStore
from tests.bot.helpers import Server, move, start_toy, state, thread_of


@pytest.fixture
def settings(db_path: Path, fresh_postgres: str) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None, discord_token="test-token", database_path=db_path, database_url=fresh_postgres
    )


async def test_a_game_on_postgresql_and_mod_backup_says_pg_dump(env: simcord.Env, settings: Settings) -> None:
    owner = env.create_user("owen")
    guild = env.create_guild(owner=owner)
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(n)) for n in ("anna", "bert", "cleo")]
    server = Server(env, guild, channel, members)
    players = await start_toy(server)
    assert isinstance(server.bot.store, PostgresStore)
    game = await state(server, 1)
    await players[0].slash(thread_of(server), "game move", action=move({"type": "play", "card": game.hands[0][0]}))
    assert (await server.bot.store.games.get(1)).version == 1

    admin_role = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    guild.add_member(env.create_user("mia"), roles=[admin_role])
    owen = guild.add_member(owner)
    answer = await owen.slash(thread_of(server), "mod backup")
    assert answer.response.ephemeral and "PostgreSQL" in answer.response.content
    assert "pg_dump" in answer.response.content
    assert not settings.backups.exists()  # nothing pretends to be a backup
    assert not server.bot.housekeeper.backup_due()  # and none is made on a schedule


def test_database_url_is_a_postgresql_url_or_nothing() -> None:
    url = "postgresql://bot:secret@db:5432/boardroom"
    chosen = Settings(_env_file=None, database_url=url)  # type: ignore[call-arg]
    assert chosen.database == url and "secret" not in repr(chosen)
    assert Settings(_env_file=None, database_url=" ").database == Path("data/boardroom.sqlite3")  # type: ignore[call-arg]
    with pytest.raises(ValidationError, match="postgresql://"):
        Settings(_env_file=None, database_url="mysql://x/y")  # type: ignore[call-arg]
