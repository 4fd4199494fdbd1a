"""Computer players through Discord (SimCord): seated from the lobby, playing by themselves on simulated time.

The issue's game: a Kohle, Kies & Knete table of two people and two computer players (a group of two could not play
it before), opened with `/game new bots:2` and played from the lobby to the final standings entirely through
Discord: the people by `/game move` (their move chosen by the game's policy from their own view, seeded), the
computer players by their own timers while simulated time runs (`tests.bot.seated.play_on`). KKK has no short-game
option, so the whole game is played: with the bot's seed (12345) and the people's seed (7) it ends after the 13th
deal, about 450 commits, some 20 s of CPU (30 s on a busy machine). The computer players' hourly cap is set low
(`CAP`) so that the game reaches it and the test shows it holds. The lobby's buttons and refusals are checked on
their own.
"""

import itertools
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.client import BoardroomBot
from bot.seat_players import BOT_NOTE
from bot.settings import Settings
from tests.bot.helpers import embed_text, make_server, thread_of
from tests.bot.seated import kkk_bot, open_kkk, play_on

HOUR = timedelta(hours=1)
CAP = 6
"""Computer players' moves per hour: low enough that the cap binds in the whole game (it reaches the cap)."""


@pytest.fixture
def settings() -> Settings:
    """An in-memory database: a whole game is hundreds of commits, and nothing here restarts."""
    return Settings(
        _env_file=None, discord_token="test-token", database_path=Path(":memory:"), computer_moves_per_hour=CAP
    )  # type: ignore[call-arg]


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot]) -> BoardroomBot:
    return kkk_bot(make_bot)


def labels(message: Any) -> list[str]:
    """The button labels of a message, or of an interaction's answer."""
    if isinstance(message, simcord.ResponseMessage):
        message = message.message
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
    seats = await server.bot.store.seats.of_game(1)
    assert [(s.display_name, s.bot, s.player_id is None) for s in seats] == [
        ("anna", False, False),
        ("Robo Anna 🤖", True, True),
        ("Robo Bruno 🤖", True, True),
        ("bert", False, False),
    ]

    people_moves = await play_on(server, chunk=600, steps=5000)

    record = await server.bot.store.games.get(1)
    assert record.status == "finished"
    entries = await server.bot.store.log.entries(1)
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
    (over,) = [t for t in texts if "🏁 **Kohle, Kies & Knete #1 is over**" in t]
    # The standings: every seat, richest first, with the final money of the state the game ended in.
    state = (await server.bot.service.read.table(1)).state
    assert state.phase == "over" and state.deals >= 10  # type: ignore[union-attr]  # ended by the die, not cut short
    names = [s.display_name for s in seats]
    ranked = sorted(range(4), key=lambda seat: -state.money[seat])  # type: ignore[union-attr]
    lines = [f"**{names[seat]}** — ${state.money[seat]}M" for seat in ranked]  # type: ignore[union-attr]
    assert all(line in over for line in lines)
    assert [over.index(line) for line in lines] == sorted(over.index(line) for line in lines)
    # Never faster than their cap: in any hour, at most CAP moves per computer player — and the cap was reached (at
    # one move a person's wait apart they would make more), so this game did test it. Never two at one instant.
    for seat in (1, 2):
        times = [e.at for e in by_bots if e.actor_seat == seat]
        busiest = max(sum(1 for t in times if start <= t < start + HOUR) for start in times)
        assert busiest == CAP, f"seat {seat}: {busiest} moves in its busiest hour"
        assert all(later > earlier for earlier, later in itertools.pairwise(times))


async def test_the_lobby_adds_and_removes_computer_players(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert"))
    anna, bert = server.members
    opened = await anna.slash(server.channel, "game new", game="kkk", seats=3, random_order=False)
    lobby = server.channel.history()[0]
    assert "Add a computer player" in labels(lobby) and "Remove a computer player" not in labels(lobby)

    asked = await anna.click(lobby, label="Add a computer player")
    assert asked.response.ephemeral and labels(asked.response) == ["Easy", "Normal", "Hard"]
    await anna.click(asked.response, label="Normal")
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
    asked = await anna.click(lobby, label="Add a computer player")
    await anna.click(asked.response, label="Normal")
    await anna.click(server.channel.history()[0], label="Start")
    assert (await server.bot.store.games.get(1)).status == "active"
    status = next(m for m in thread_of(server).history() if m.embeds and "Kohle" in (m.embeds[0].title or ""))
    assert "Robo Anna 🤖" in embed_text(status)

    too_many = await anna.slash(server.channel, "game new", game="kkk", bots=6)
    assert too_many.response.ephemeral
    assert too_many.response.content.startswith("Kohle, Kies & Knete seats at most 6 here: you and 5 computer players")


async def test_a_rematch_seats_the_computer_players_again(env: simcord.Env) -> None:
    """Rematch of a table with computer players: as many are seated again in the new lobby (a group of two needs
    them to reach KKK's three), except one a moderator turned off; the people are invited, the clicker seated."""
    server = make_server(env, ("anna", "bert"))
    anna, bert = server.members
    opened = await open_kkk(server, [anna, bert], bots=3)
    await anna.click(opened.response, label="Start")
    admins = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mia = server.guild.add_member(env.create_user("mia"), roles=[admins])
    thread = thread_of(server)
    await mia.slash(thread, "mod autopilot", mode="off", seat=3)  # Robo Bruno 🤖 stops: an empty seat
    await mia.slash(thread, "mod end")
    assert (await server.bot.store.games.get(1)).status == "abandoned"

    status = next(m for m in thread.history() if m.embeds and "Kohle" in (m.embeds[0].title or ""))
    clicked = await bert.click(status, label="Rematch")
    assert clicked.response.ephemeral and "rematch lobby is open" in clicked.response.content
    seats = await server.bot.store.seats.of_game(2)
    assert [(s.display_name, s.player_id, s.bot) for s in seats] == [
        ("bert", bert.id, False),
        ("Robo Anna 🤖", None, True),
        ("Robo Bruno 🤖", None, True),
    ]
    invite = next(m for m in server.channel.history() if "Rematch of" in m.content)
    lobby = embed_text(invite)
    assert "2. Robo Anna 🤖" in lobby and "3. Robo Bruno 🤖" in lobby and "Players (3/6)" in lobby
    assert next(m for m in env.backend.messages[server.channel.id].values() if m.id == invite.id).ping_user_ids == [
        anna.id
    ]
    # The lobby with its computer players starts like any: bert and two computer players make three.
    await bert.click(invite, label="Start")
    assert (await server.bot.store.games.get(2)).status == "active"
