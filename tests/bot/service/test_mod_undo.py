"""`/mod undo` names the move and undoes it only as the moderator saw it (issue 10, faults 5 and 9): two undos meant
for the same move undo one, and an ended game is never changed by an undo."""

import asyncio

import discord
import pytest
import simcord

from bot.service import Person, Refusal
from tests.bot.helpers import make_server, move, start_toy, state, texts, thread_of


async def setup(env: simcord.Env):  # type: ignore[no-untyped-def]
    server = make_server(env)
    admin_role = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mia = server.guild.add_member(env.create_user("mia"), roles=[admin_role])
    otto = server.guild.add_member(env.create_user("otto"), roles=[admin_role])
    players = await start_toy(server)
    thread = thread_of(server)
    game = await state(server, 1)
    await players[0].slash(thread, "game move", action=move({"type": "play", "card": game.hands[0][0]}))
    await players[1].slash(thread, "game move", action=move({"type": "pass"}))
    await players[2].slash(thread, "game move", action=move({"type": "pass"}))
    return server, mia, otto, players, thread


async def test_undo_names_the_move_and_waits_for_the_confirmation(env: simcord.Env) -> None:
    server, mia, _, _, thread = await setup(env)
    version = (await server.bot.store.games.get(1)).version
    asked = await mia.slash(thread, "mod undo")
    assert asked.response.ephemeral
    assert asked.response.content.startswith("Undo “") and "lets it go" in asked.response.content
    assert (await server.bot.store.games.get(1)).version == version  # nothing undone yet
    undone = await mia.click(asked.response, label="Undo it")
    assert "undid" in undone.response.content and "lets it go" in undone.response.content
    assert (await state(server, 1)).window.waiting == [2]


async def test_two_undos_for_the_same_move_undo_it_once(env: simcord.Env) -> None:
    server, mia, otto, _, thread = await setup(env)
    first = await mia.slash(thread, "mod undo")
    second = await otto.slash(thread, "mod undo")  # both see the same last move
    await mia.click(first.response, label="Undo it")
    refused = await otto.click(second.response, label="Undo it")
    assert "moved on since you asked" in refused.response.content and "undid nothing" in refused.response.content
    assert (await state(server, 1)).window.waiting == [2]  # only the last pass was undone
    assert sum("undid" in t for t in texts(thread)) == 1
    again = await mia.click(first.response, label="Undo it")  # the same button twice
    assert "moved on since you asked" in again.response.content


async def test_simultaneous_confirmations_undo_one_move(env: simcord.Env) -> None:
    server, mia, otto, _, _ = await setup(env)
    service = server.bot.service
    version = (await server.bot.store.games.get(1)).version
    results = await asyncio.gather(
        service.mod.undo(1, Person(mia.id, "mia"), force=False, version=version),
        service.mod.undo(1, Person(otto.id, "otto"), force=False, version=version),
        return_exceptions=True,
    )
    assert sum(isinstance(r, Refusal) for r in results) == 1
    assert (await state(server, 1)).window.waiting == [2]


async def test_an_ended_game_cannot_be_undone(env: simcord.Env) -> None:
    server, mia, _, _, thread = await setup(env)
    await mia.slash(thread, "mod end")
    record = await server.bot.store.games.get(1)
    refused = await mia.slash(thread, "mod undo")
    assert refused.response.ephemeral and "is over" in refused.response.content
    with pytest.raises(Refusal, match="is over"):
        await server.bot.service.mod.undo(1, Person(mia.id, "mia"), force=True, version=record.version)
    after = await server.bot.store.games.get(1)
    assert after.status == "abandoned" and after.version == record.version
