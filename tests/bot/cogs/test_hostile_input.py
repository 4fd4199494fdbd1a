"""Input nobody should send still gets a clear, private answer and changes nothing (issue 10, faults 7 and 8): a
button for a game the bot doesn't have (forged, or older than a restored backup) and a move nested or sized to
exhaust the parser."""

from collections.abc import Callable
from pathlib import Path

import simcord

from bot.client import BoardroomBot
from bot.replies import SORRY
from bot.settings import Settings
from tests.bot.helpers import make_server, start_toy, thread_of


async def test_a_button_of_a_game_the_bot_no_longer_has_is_refused_clearly(
    env: simcord.Env, make_bot: Callable[..., BoardroomBot], tmp_path: Path
) -> None:
    server = make_server(env)
    opened = await server.members[0].slash(server.channel, "game new", game="toy")
    # The server owner restores a backup older than this lobby: the bot starts on a database without game #1.
    older = Settings(_env_file=None, discord_token="t", database_path=tmp_path / "older" / "b.sqlite3")  # type: ignore[call-arg]
    await env.restart_bot(make_bot(settings=older))
    clicked = await server.members[1].click(opened.response, label="Join")
    assert clicked.response.ephemeral
    assert "game #1, which I don't have" in clicked.response.content
    assert SORRY not in clicked.response.content
    assert await server.bot.store.games.find() == []


async def test_a_deeply_nested_or_huge_move_is_refused_clearly(env: simcord.Env) -> None:
    server = make_server(env)
    players = await start_toy(server)
    thread = thread_of(server)
    version = (await server.bot.store.games.get(1)).version
    for action, says in [
        ("[" * 990 + "]" * 990, "nested too deeply"),
        ('{"type": "play", "card": ' + "[" * 30 + "1" + "]" * 30 + "}", "nested too deeply"),
        ('{"type": "play", "note": "' + "x" * 5000 + '"}', "too long"),
    ]:
        refused = await players[0].slash(thread, "game move", action=action)
        assert refused.response.ephemeral
        assert says in refused.response.content and SORRY not in refused.response.content
    assert (await server.bot.store.games.get(1)).version == version
