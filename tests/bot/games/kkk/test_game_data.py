"""A server owner's own board and tiles (GAME_DATA_DIR): the table plays with them, and a game keeps the data it
started with when the files change between restarts."""

from collections.abc import Callable
from pathlib import Path

import discord
import pytest
import simcord

from bot.client import BoardroomBot
from bot.settings import Settings
from engine.kkk.data import DATA_DIR
from tests.bot.games.kkk.helpers import start
from tests.bot.helpers import embed_text, mod_undo


def edited(name: str, before: str, after: str) -> str:
    text = (DATA_DIR / name).read_text(encoding="utf-8")
    assert before in text
    return text.replace(before, after, 1)


@pytest.fixture
def game_data(tmp_path: Path) -> Path:
    """Tile 1 pays $3M a dividend; space 1 asks for Raffzahn alone (the packaged data: $2M, Raffzahn and Liebgeld)."""
    folder = tmp_path / "game-data" / "kkk"
    folder.mkdir(parents=True)
    (folder / "tiles.toml").write_text(edited("tiles.toml", "number = 1\nvalue = 2", "number = 1\nvalue = 3"))
    (folder / "board.toml").write_text(
        edited("board.toml", 'required = ["R", "L"]\ninvestors = 2', 'required = ["R"]\ninvestors = 1')
    )
    return folder.parent


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot], settings: Settings, game_data: Path) -> BoardroomBot:
    """The bot as `python -m bot` builds it (games from the registry), with GAME_DATA_DIR set."""
    return make_bot(settings=settings.model_copy(update={"game_data_dir": game_data}), games=None, presentations={})


async def test_the_table_plays_with_the_owners_data_and_keeps_it_across_a_restart_without_it(
    env: simcord.Env, make_bot: Callable[..., BoardroomBot], settings: Settings
) -> None:
    t = await start(env)
    status = embed_text(t.status())
    assert "one dividend is worth **$3M**" in status
    details = await t.details()
    assert "  1  R  " in details and "  1  R L" not in details
    # The owner removes GAME_DATA_DIR and restarts: the running game keeps the board and tiles it started with.
    await env.restart_bot(make_bot(settings=settings, games=None, presentations={}))
    state = await t.state()
    placer = t.players[state.placer]
    await placer.slash(t.thread, "kkk place", space=1)
    status = embed_text(t.status())
    assert "open the deal on space 1" in status and "one dividend is worth **$3M**" in status
    assert "$ 1  R  " in await t.details()

    # Replays rebuild the game from its set-up with the data it started with, not the packaged files.
    admin_role = t.server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = t.server.guild.add_member(env.create_user("mia"), roles=[admin_role])
    verified = await admin.slash(t.thread, "mod verify")
    assert "✅ the log replays to the stored game exactly" in verified.response.content
    undone = await mod_undo(admin, t.thread)
    assert not undone.response.ephemeral, undone.response.content
    assert (await t.state()).marker is None and "one dividend is worth **$3M**" in embed_text(t.status())
