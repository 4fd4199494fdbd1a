"""Computer players' levels through Discord (SimCord): chosen at `/game new … level:` or in the lobby, kept with the
seat, shown in its name, played by that level's policy, and kept by a rematch.

The policy a seat plays is watched by putting a recording wrapper in the service's policies for each level
(`bot.service.read.policies[(kind, level)]`, which the service fills on first use): the test sees which level's policy
each computer player's timer asked, while the games play on with the real policies underneath.
"""

from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord

from bot.client import BoardroomBot
from engine import registry
from engine.policy import LEVELS
from tests.bot.helpers import embed_text, make_server, thread_of
from tests.bot.seated import play_on

KIND = "kesse_ruegen"


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot]) -> BoardroomBot:
    return make_bot(games={KIND: registry.get(KIND)}, presentations={})


def labels(message: Any) -> list[str]:
    if isinstance(message, simcord.ResponseMessage):
        message = message.message
    return [c.label for row in message.components for c in row.children if getattr(c, "label", None)]


def watch_levels(bot: BoardroomBot) -> dict[str, list[int]]:
    """Each level's policy, wrapped so that the seats it decides for are recorded (level → seats asked)."""
    asked: dict[str, list[int]] = {level: [] for level in LEVELS}
    for level in LEVELS:
        real = bot.service.read.policy(KIND, level)
        assert real is not None

        class Watched:
            def __init__(self, real: Any, seen: list[int]) -> None:
                self.real, self.seen = real, seen

            def decide(self, view: Any, legal: Any, seat: int, rng: Any, *, autopilot: bool = False) -> Any:
                self.seen.append(seat)
                return self.real.decide(view, legal, seat, rng, autopilot=autopilot)

        bot.service.read.policies[(KIND, level)] = Watched(real, asked[level])  # type: ignore[assignment]
    return asked


async def test_a_hard_computer_player_from_game_new_plays_hard_and_a_rematch_keeps_it(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert"))
    anna = server.members[0]
    opened = await anna.slash(server.channel, "game new", game=KIND, bots=1, level="hard", random_order=False)
    assert "2. Robo Anna 🤖 (hard)" in embed_text(server.channel.history()[0])
    assert [(s.bot, s.level) for s in await server.bot.store.seats.of_game(1)] == [(False, "normal"), (True, "hard")]
    await anna.click(opened.response, label="Start")
    status = next(m for m in thread_of(server).history() if m.embeds and "Kesse" in (m.embeds[0].title or ""))
    assert "Robo Anna 🤖 (hard)" in embed_text(status)

    asked = watch_levels(server.bot)
    bot_moves = 0

    def after_some(table: Any) -> bool:
        nonlocal bot_moves
        bot_moves = len(asked["hard"])
        return bot_moves >= 6

    await play_on(server, game_id=1, until=after_some, steps=400)
    assert bot_moves >= 6 and set(asked["hard"]) == {1}  # only the computer player's seat, by its level's policy
    assert asked["normal"] == [] and asked["easy"] == []

    admins = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mia = server.guild.add_member(env.create_user("mia"), roles=[admins])
    await mia.slash(thread_of(server), "mod end")
    status = next(m for m in thread_of(server).history() if m.embeds and "Kesse" in (m.embeds[0].title or ""))
    clicked = await anna.click(status, label="Rematch")
    assert clicked.response.ephemeral and "rematch lobby is open" in clicked.response.content
    assert [(s.display_name, s.bot, s.level) for s in await server.bot.store.seats.of_game(2)] == [
        ("anna", False, "normal"),
        ("Robo Anna 🤖 (hard)", True, "hard"),
    ]


async def test_the_lobby_asks_for_the_level_of_each_computer_player_it_adds(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert"))
    anna = server.members[0]
    await anna.slash(server.channel, "game new", game=KIND, seats=4, random_order=False)
    lobby = server.channel.history()[0]

    asked = await anna.click(lobby, label="Add a computer player")
    assert asked.response.ephemeral and labels(asked.response) == ["Easy", "Normal", "Hard"]
    assert "Easy" in asked.response.content and "Hard" in asked.response.content
    assert "Robo" not in embed_text(server.channel.history()[0])  # nothing added until a level is picked
    added = await anna.click(asked.response, label="Hard")
    assert added.response.ephemeral and "Robo Anna 🤖 (hard) joined" in added.response.content
    again = await anna.click(server.channel.history()[0], label="Add a computer player")
    await anna.click(again.response, label="Easy")
    once_more = await anna.click(server.channel.history()[0], label="Add a computer player")
    await anna.click(once_more.response, label="Normal")

    text = embed_text(server.channel.history()[0])
    assert "2. Robo Anna 🤖 (hard)" in text and "3. Robo Bruno 🤖 (easy)" in text and "4. Robo Carla 🤖" in text
    assert [(s.display_name, s.level) for s in await server.bot.store.seats.of_game(1) if s.bot] == [
        ("Robo Anna 🤖 (hard)", "hard"),
        ("Robo Bruno 🤖 (easy)", "easy"),
        ("Robo Carla 🤖", "normal"),
    ]
    assert "Add a computer player" not in labels(server.channel.history()[0])  # 4/4: no room left


async def test_an_autopilot_seat_plays_the_autopilot_whatever_the_table_s_levels(env: simcord.Env) -> None:
    """A person kicked onto the autopilot is played by the autopilot (the default level's policy with
    autopilot=True), not by the level of the table's computer players."""
    server = make_server(env, ("anna", "bert", "carl"))
    anna, bert, _ = server.members
    opened = await anna.slash(server.channel, "game new", game=KIND, bots=1, level="easy", random_order=False)
    await bert.click(opened.response, label="Join")
    await anna.click(opened.response, label="Start")
    admins = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mia = server.guild.add_member(env.create_user("mia"), roles=[admins])
    await mia.slash(thread_of(server), "mod kick", player=bert)
    seats = {s.seat: s for s in await server.bot.store.seats.of_game(1)}
    assert seats[2].autopilot and not seats[2].bot and seats[1].level == "easy"

    asked = watch_levels(server.bot)
    await play_on(server, game_id=1, until=lambda _: len(asked["normal"]) >= 2 and len(asked["easy"]) >= 2, steps=600)
    assert set(asked["normal"]) == {2} and set(asked["easy"]) == {1} and asked["hard"] == []
