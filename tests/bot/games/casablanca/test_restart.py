"""A bot restart in the middle of an objection auction: the announcement's buttons still work afterwards, and a
deadline that passed while the bot was down is applied at start-up with its default (contest with everything)."""

import simcord

from engine import registry
from tests.bot.helpers import make_server

from .helpers import announcement, contest_in_thread, labels, start_game, state


async def objected_game(server):  # type: ignore[no-untyped-def]
    thread, players = await start_game(server, players=3, options="first_seat=1")
    anna, bert, cleo = players
    await anna.slash(thread, "cb bribe", amounts="red 700, green 100, blue 100")
    await bert.slash(thread, "cb bribe", amounts="red 900, green 100, blue 100")
    await cleo.slash(thread, "cb bribe", amounts="red 100, green 100, blue 100")
    await anna.slash(thread, "cb move", agent="red", to="2")
    objected = await bert.slash(thread, "cb object", limit=900)
    assert objected.response.ephemeral and "limit of $900" in objected.response.content
    await cleo.slash(thread, "cb noobjection")
    assert (await state(server)).phase == "contest"
    return thread, players


async def test_after_a_restart_the_contest_buttons_run_the_auction(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    server = make_server(env)
    thread, (anna, bert, _cleo) = await objected_game(server)
    post = announcement(thread)
    assert labels(post) == ["Contest…", "Withdraw"]
    env.bot.scheduler.close()
    await env.restart_bot(make_bot(games={"casablanca": registry.get("casablanca")}, presentations={}))
    # The old process's button opens the limit buttons, and the auction runs: 700 against 900, anna passes at 800.
    await contest_in_thread(anna, thread, "$700")
    game = await state(server)
    assert game.phase == "turn" and game.turn == 0 and game.objected and game.at[4] == "Airport"
    edited = announcement(thread)
    assert edited.id == post.id
    assert f"{bert.name} $800 · {anna.name} passes → the objection succeeds" in edited.content
    assert not labels(edited)


async def test_a_contest_deadline_passed_while_down_is_applied_at_start_up(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    server = make_server(env)
    thread, (anna, _bert, _cleo) = await objected_game(server)
    env.bot.scheduler.close()
    await env.advance_time(8 * 3600 + 60)  # the contest window (8 hours) runs out while the bot is down
    await env.restart_bot(make_bot(games={"casablanca": registry.get("casablanca")}, presentations={}))
    game = await state(server)
    assert game.phase == "turn" and game.auctions[0].ending == "active_passed" and game.auctions[0].top == 800
    said = "\n".join(m.content for m in thread.history())
    assert f"⏰ Time's up: {anna.name} contests." in said
