"""Computer players through Discord (SimCord): seated from the lobby, playing by themselves on simulated time.

The issue's game: a Kohle, Kies & Knete table of two people and two computer players (a group of two could not play
it before), opened with `/game new bots:2`, the people moving by commands, the computer players by their own timers,
to the final standings. A whole game through SimCord is about 200 commits and takes over 30 s on a busy machine, so
the test plays the opening and the last deals through Discord and the middle of the game on the engine alone
(`seated.fast_forward`: the same policy for every seat, then one store commit of that state, as
`tests.bot.kkk.helpers.prepare` does). The lobby's buttons and refusals are checked on their own.
"""

from collections.abc import Callable
from pathlib import Path

import discord
import pytest
import simcord

from bot.client import BoardroomBot
from bot.seat_players import BOT_NOTE
from bot.settings import Settings
from tests.bot.helpers import embed_text, make_server, thread_of
from tests.bot.seated import fast_forward, kkk_bot, open_kkk, play_on


@pytest.fixture
def settings() -> Settings:
    """An in-memory database: a whole game is hundreds of commits, and nothing here restarts."""
    return Settings(_env_file=None, discord_token="test-token", database_path=Path(":memory:"))  # type: ignore[call-arg]


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot]) -> BoardroomBot:
    return kkk_bot(make_bot)


def labels(message: discord.Message) -> list[str]:
    return [c.label for row in message.components for c in row.children if getattr(c, "label", None)]


def public_texts(env: simcord.Env, channel_ids: list[int]) -> list[str]:
    """Every public message's text and embeds (as stored by SimCord's backend, edits included)."""
    out = []
    for channel_id in channel_ids:
        for m in env.backend.messages.get(channel_id, {}).values():
            if not m.is_ephemeral:
                out.append(m.content + " " + str(m.embeds))
    return out


async def test_two_people_and_two_computer_players_play_a_game(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert"))
    anna, bert = server.members
    opened = await open_kkk(server, [anna, bert], bots=2)
    lobby = embed_text(server.channel.history()[0])
    assert "1. <@" in lobby and "2. Robo Anna 🤖" in lobby and "3. Robo Bruno 🤖" in lobby
    assert "Players (4/6)" in lobby and "<@None>" not in lobby
    await anna.click(opened.response, label="Start")
    seats = await server.bot.store.seats(1)
    assert [(s.display_name, s.bot, s.player_id is None) for s in seats] == [
        ("anna", False, False),
        ("Robo Anna 🤖", True, True),
        ("Robo Bruno 🤖", True, True),
        ("bert", False, False),
    ]

    opening = await play_on(server, until=lambda table: table.state.deals >= 1, chunk=600)  # type: ignore[union-attr]
    await fast_forward(server, deals=10)
    people_moves = opening + await play_on(server, chunk=600)

    record = await server.bot.store.get_game(1)
    assert record.status == "finished"
    entries = await server.bot.store.log(1)
    moves = [e for e in entries if e.kind == "action"]
    by_bots = [e for e in moves if e.actor_seat in (1, 2)]
    # The computer players moved by themselves (no user behind them, logged as such), the people by commands.
    assert len(by_bots) >= 20 and {e.actor_seat for e in by_bots} == {1, 2}
    assert all(e.user_id is None and e.note == BOT_NOTE for e in by_bots)
    people = {anna.id: 0, bert.id: 3}
    by_people = [e for e in moves if e.actor_seat in (0, 3)]
    assert len(by_people) == people_moves and all(people[e.user_id] == e.actor_seat for e in by_people)  # type: ignore[index]
    # Computer players show their name and 🤖, never a broken mention, and get no DM (they have no user).
    thread = thread_of(server)
    texts = public_texts(env, [server.channel.id, thread.id])
    assert not any("<@None>" in t for t in texts)
    assert any("Robo Anna 🤖" in t for t in texts) and any("Robo Bruno 🤖" in t for t in texts)
    final = embed_text(next(m for m in thread.history() if m.embeds and "Kohle" in (m.embeds[0].title or "")))
    assert "Robo Anna 🤖" in final and "Robo Bruno 🤖" in final
    assert any("🏁 **Kohle, Kies & Knete #1 is over**" in t for t in texts)


async def test_the_lobby_adds_and_removes_computer_players(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert"))
    anna, bert = server.members
    opened = await anna.slash(server.channel, "game new", game="kkk", seats=3, random_order=False)
    lobby = server.channel.history()[0]
    assert "Add a computer player" in labels(lobby) and "Remove a computer player" not in labels(lobby)

    await anna.click(lobby, label="Add a computer player")
    lobby = server.channel.history()[0]
    assert "2. Robo Anna 🤖" in embed_text(lobby) and "Remove a computer player" in labels(lobby)
    refused = await bert.click(lobby, label="Add a computer player")
    assert refused.response.ephemeral
    assert refused.response.content == "Only the player who opened this game, or a moderator, can add computer players."
    await bert.click(opened.response, label="Join")
    lobby = server.channel.history()[0]
    assert "Players (3/3)" in embed_text(lobby) and "Add a computer player" not in labels(lobby)  # full

    await anna.click(lobby, label="Remove a computer player")
    lobby = server.channel.history()[0]
    assert "Robo Anna" not in embed_text(lobby) and "Players (2/3)" in embed_text(lobby)
    too_few = await anna.click(lobby, label="Start")
    assert too_few.response.ephemeral and "or add a computer player" in too_few.response.content
    await anna.click(lobby, label="Add a computer player")
    await anna.click(server.channel.history()[0], label="Start")
    assert (await server.bot.store.get_game(1)).status == "active"
    status = next(m for m in thread_of(server).history() if m.embeds and "Kohle" in (m.embeds[0].title or ""))
    assert "Robo Anna 🤖" in embed_text(status)

    too_many = await anna.slash(server.channel, "game new", game="kkk", bots=6)
    assert too_many.response.ephemeral
    assert too_many.response.content.startswith("Kohle, Kies & Knete seats at most 6 here: you and 5 computer players")
