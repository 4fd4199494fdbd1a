"""Backups (issue 10): a copy of the database taken while play goes on opens, passes SQLite's integrity check, and the
bot starts from it with every game as of that moment; automatic ones come on schedule and the last few are kept;
`/mod backup` is the server owner's (or the bot owner's) and never pushes the automatic ones out."""

import asyncio
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import discord
import simcord

from bot.backups import backups, make_backup
from bot.client import BoardroomBot
from bot.settings import Settings
from storage import NewLogEntry, open_store
from tests.bot.helpers import make_server, move, start_toy, state, thread_of
from tests.bot.toygame import Toy
from tests.storage.helpers import T0, start

HOUR = 3600


def integrity(path: Path) -> str:
    with sqlite3.connect(path) as conn:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]


async def test_a_backup_taken_while_games_commit_is_whole_and_sound(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "live.sqlite3")
    toy = Toy()
    ids = [await start(store, toy, seed=seed) for seed in range(1, 21)]

    async def play(game_id: int) -> None:
        for i in range(30):
            entry = NewLogEntry.for_note(f"note {i}", T0)
            await store.games.commit(game_id, i, entry, None)

    async def back_up_meanwhile() -> None:
        await asyncio.sleep(0.01)
        await store.maintenance.backup(tmp_path / "b" / "copy.sqlite3")

    await asyncio.gather(*(play(g) for g in ids), back_up_meanwhile())
    await store.close()
    copy = tmp_path / "b" / "copy.sqlite3"
    assert integrity(copy) == "ok"
    assert not list((tmp_path / "b").glob("*.part"))
    restored = await open_store(copy)
    try:  # every game is in it, each at one version its log agrees with: a consistent moment
        for game_id in ids:
            record = await restored.games.get(game_id)
            assert len(await restored.log.entries(game_id)) == record.version
    finally:
        await restored.close()


async def test_rotation_keeps_the_last_of_each_kind(tmp_path: Path) -> None:
    from datetime import UTC, datetime, timedelta

    store = await open_store(tmp_path / "live.sqlite3")
    folder = tmp_path / "backups"
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    try:
        for day in range(5):
            await make_backup(store, folder, "auto", t0 + timedelta(days=day), keep=3)
        for minute in range(6):
            await make_backup(store, folder, "manual", t0 + timedelta(days=9, minutes=minute), keep=3)
    finally:
        await store.close()
    autos = backups(folder, "auto")
    assert [p.name for p in autos] == [
        "boardroom-auto-20260103T000000000000Z.sqlite3",
        "boardroom-auto-20260104T000000000000Z.sqlite3",
        "boardroom-auto-20260105T000000000000Z.sqlite3",
    ]
    assert len(backups(folder, "manual")) == 3


async def test_mod_backup_and_the_bot_starts_from_the_backup(
    env: simcord.Env, make_bot: Callable[..., BoardroomBot], settings: Settings, tmp_path: Path
) -> None:
    owner = env.create_user("owen")
    guild = env.create_guild(owner=owner)
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(n)) for n in ("anna", "bert", "cleo")]
    from tests.bot.helpers import Server

    server = Server(env, guild, channel, members)
    players = await start_toy(server)
    game = await state(server, 1)
    await players[0].slash(thread_of(server), "game move", action=move({"type": "play", "card": game.hands[0][0]}))

    admin_role = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mia = guild.add_member(env.create_user("mia"), roles=[admin_role])
    refused = await mia.slash(thread_of(server), "mod backup")
    assert refused.response.ephemeral and "Only the server's owner or the bot's owner" in refused.response.content

    owen = guild.add_member(owner)
    made = await owen.slash(thread_of(server), "mod backup")
    assert made.response.ephemeral and "Backup saved as `boardroom-manual-" in made.response.content
    (copy,) = backups(settings.backups, "manual")
    assert integrity(copy) == "ok"
    at_backup = await state(server, 1)
    version = (await server.bot.store.games.get(1)).version

    # Play goes on after the backup ...
    await players[1].slash(thread_of(server), "game move", action=move({"type": "pass"}))
    assert (await server.bot.store.games.get(1)).version > version

    # ... then the disk fails: the owner restores the backup (README: copy it over the database) and restarts.
    restored = tmp_path / "restored" / "boardroom.sqlite3"
    restored.parent.mkdir()
    shutil.copy(copy, restored)
    again = settings.model_copy(update={"database_path": restored})
    await env.restart_bot(make_bot(settings=again))
    assert (await server.bot.store.games.get(1)).version == version
    assert await state(server, 1) == at_backup
    await players[1].slash(thread_of(server), "game move", action=move({"type": "pass"}))  # and play goes on
    assert (await server.bot.store.games.get(1)).version == version + 1


async def test_automatic_backups_come_on_schedule(env: simcord.Env, settings: Settings) -> None:
    server = make_server(env)
    await start_toy(server)
    assert backups(settings.backups, "auto") == []  # start-up itself does no backup
    await env.advance_time(HOUR)
    assert len(backups(settings.backups, "auto")) == 1  # the first pass: there was none yet
    await env.advance_time(20 * HOUR)
    assert len(backups(settings.backups, "auto")) == 1
    await env.advance_time(5 * HOUR)
    assert len(backups(settings.backups, "auto")) == 2
