"""The fist buttons ride on the duellists' hand messages, delivered through the outbox with the commit that opened
the choice: so they arrive however that happened (`/kr duel`, `/game move`, a two-player turn that starts its duel
by itself, a moderator's undo), and a crash right after the challenge loses nothing and doubles nothing. And the
action prompt follows the state after an undo."""

from collections.abc import Callable

import discord
import simcord

from bot.client import BoardroomBot
from engine import registry
from tests.bot.helpers import Server, dms, embed_text, make_server, mod_undo, move, texts

from .helpers import action_prompt, buttons, close_fist_by_dm, hand_message, start_game, state


def moderator(server: Server) -> simcord.MemberActor:
    admins = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return server.guild.add_member(server.env.create_user("mia"), roles=[admins])


async def three_placed(server: Server) -> tuple[simcord.ChannelHandle, simcord.MemberActor, simcord.MemberActor]:
    """Three players with their pawns placed: the thread, the player to move and the next one (three players: the
    player to move picks whom to challenge)."""
    thread, players = await start_game(server, joiners=2)
    for square in ("a1", "e5", "a5"):
        await players[(await state(server)).turn].slash(thread, "kr place", square=square)
    turn = (await state(server)).turn
    return thread, players[turn], players[(turn + 1) % 3]


async def test_a_challenge_by_game_move_brings_the_buttons_too(env: simcord.Env) -> None:
    server = make_server(env)
    thread, anna, bert = await three_placed(server)
    assert buttons(hand_message(anna)) == buttons(hand_message(bert)) == []
    seat = next(s.seat for s in await server.bot.store.seats.of_game(1) if s.player_id == bert.id)
    challenged = await anna.slash(thread, "game move", action=move({"type": "challenge", "opponent": seat}))
    assert "challenges" in challenged.response.content
    assert buttons(hand_message(anna)) == buttons(hand_message(bert)) == ["0", "1", "2"]
    assert f"You challenged **{bert.name}** to a duel!" in embed_text(hand_message(anna))
    await close_fist_by_dm(bert, 2)
    assert buttons(hand_message(bert)) == [] and buttons(hand_message(anna)) == ["0", "1", "2"]
    assert len(dms(anna)) == len(dms(bert)) == 1


async def test_with_two_players_the_last_pawn_brings_both_duellists_their_buttons(env: simcord.Env) -> None:
    server = make_server(env)
    thread, (anna, bert) = await start_game(server)
    await anna.slash(thread, "kr place", square="a1")
    assert buttons(hand_message(anna)) == buttons(hand_message(bert)) == []
    placed = await bert.slash(thread, "kr place", square="e5")
    assert f"{anna.name}'s turn: the duel with {bert.name} is on" in placed.response.content
    assert buttons(hand_message(anna)) == buttons(hand_message(bert)) == ["0", "1", "2"]
    assert f"Your duel with **{bert.name}** is on!" in embed_text(hand_message(anna))
    assert len(dms(anna)) == len(dms(bert)) == 1


async def test_a_crash_right_after_the_challenge_loses_no_buttons(
    env: simcord.Env, make_bot: Callable[..., BoardroomBot]
) -> None:
    server = make_server(env)
    thread, anna, bert = await three_placed(server)

    async def died(game_id, carrier=None):  # type: ignore[no-untyped-def]
        return None  # the commit happened; the process died before any delivery

    env.bot.notifier.flush = died  # type: ignore[method-assign]
    env.bot.notifier.queue.start_worker = lambda game_id: None  # type: ignore[method-assign]  (nor the queue's worker)
    await anna.slash(thread, "kr duel", opponent=bert.mention)
    assert (await state(server)).phase == "choose"  # committed ...
    assert buttons(hand_message(anna)) == [] and not any("challenges" in t for t in texts(thread))  # ... not told

    env.bot.scheduler.close()
    await env.restart_bot(make_bot(games={"kesse_ruegen": registry.get("kesse_ruegen")}, presentations={}))
    assert buttons(hand_message(anna)) == buttons(hand_message(bert)) == ["0", "1", "2"]
    assert sum("challenges" in t for t in texts(thread)) == 1
    await env.restart_bot(make_bot(games={"kesse_ruegen": registry.get("kesse_ruegen")}, presentations={}))
    assert sum("challenges" in t for t in texts(thread)) == 1 and len(dms(anna)) == 1
    await close_fist_by_dm(anna, 1)
    await close_fist_by_dm(bert, 1)
    assert (await state(server)).phase == "guess"


async def test_a_moderator_undo_restores_the_buttons_and_the_prompt(env: simcord.Env) -> None:
    server = make_server(env)
    mia = moderator(server)
    thread, (anna, bert) = await start_game(server)
    await anna.slash(thread, "kr place", square="b2")
    await bert.slash(thread, "kr place", square="e5")  # two players: the duel is on
    await close_fist_by_dm(anna, 2)
    await close_fist_by_dm(bert, 1)
    assert buttons(hand_message(bert)) == []

    # Undoing Bert's choice (it was secret, so it takes force) opens his fist again: his buttons come back.
    refused = await mia.slash(thread, "mod undo")
    assert refused.response.ephemeral and "revealed hidden information" in refused.response.content
    await mod_undo(mia, thread, force=True)
    assert (await state(server)).phase == "choose"
    assert buttons(hand_message(bert)) == ["0", "1", "2"]
    assert "you closed your fist on **2 carrots**" in embed_text(hand_message(anna)) and not buttons(hand_message(anna))
    await close_fist_by_dm(bert, 1)

    # Anna guesses right (2 + 1): three actions. She plants; a moderator undoes it; the prompt offers Plant again.
    await anna.slash(thread, "kr guess", total=3)
    await bert.slash(thread, "kr guess", total=0)
    prompt = action_prompt(thread)
    assert "Plant" in buttons(prompt) and "**3 left**" in prompt.content
    await anna.click(prompt, label="Plant")
    assert "Plant" not in buttons(action_prompt(thread)) and "**2 left**" in action_prompt(thread).content
    undone = await mod_undo(mia, thread)
    assert "undid" in undone.response.content
    assert (await state(server)).tubers == {}
    again = action_prompt(thread)
    assert again.id == prompt.id  # the same message, edited in place
    assert "Plant" in buttons(again) and "**3 left**" in again.content
    await anna.click(again, label="Plant")
    assert (await state(server)).tubers == {"b2": 0}
