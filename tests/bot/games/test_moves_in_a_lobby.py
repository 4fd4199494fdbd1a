"""A move built from the player's own hand, tried while the game is still a lobby: refused privately, in the same
words whichever game it is (`Reader.require_dealt`), and nothing is written."""

from typing import Any

import pytest
import simcord

from bot.client import BoardroomBot
from engine import registry
from tests.bot.helpers import make_server

GAMES = ("kkk", "casablanca", "schwarzmarkt")


@pytest.fixture
def simcord_bot(make_bot: Any) -> BoardroomBot:
    return make_bot(games={k: registry.get(k) for k in GAMES}, presentations={})


@pytest.mark.parametrize(
    ("game", "command", "options", "title"),
    [
        ("kkk", "kkk travel", {"family": "H"}, "Kohle, Kies & Knete"),
        ("casablanca", "cb bribe", {"amounts": "purple 100"}, "Casablanca"),
        ("schwarzmarkt", "sm play", {"card": 1}, "Schwarzmarkt"),
    ],
)
async def test_a_move_in_a_lobby_says_hands_are_dealt_at_the_start(
    env: simcord.Env, game: str, command: str, options: dict[str, object], title: str
) -> None:
    server = make_server(env)
    anna = server.members[0]
    opened = await anna.slash(server.channel, "game new", game=game)
    assert not opened.response.ephemeral, opened.response.content
    before = await server.bot.store.games.get(1)
    refused = await anna.slash(server.channel, command, game=1, **options)
    assert refused.response.ephemeral
    assert refused.response.content == f"{title} #1 hasn't started yet: hands are dealt at the start."
    assert await server.bot.store.games.get(1) == before
