"""Asynchronous play: reminders halfway and an hour before a deadline, and the deadline's default action, in
simulated time; reaction windows close by themselves; away players pass automatically."""

import simcord

from tests.bot.helpers import dms, make_server, move, start_toy, state, texts, thread_of

HOUR = 3600


async def test_reminders_then_the_deadline_passes_the_turn(env: simcord.Env) -> None:
    server = make_server(env)
    players = await start_toy(server)
    thread = thread_of(server)
    first, second = players[0], players[1]
    await env.advance_time(11 * HOUR)
    assert not any("Reminder" in t for t in texts(thread))
    await env.advance_time(1 * HOUR + 1)
    reminders = [t for t in texts(thread) if "⏰ Reminder" in t]
    assert len(reminders) == 1 and f"<@{first.id}>" in reminders[0]
    # Once, where the player gets their prompts (the thread by default): not a second time by DM.
    assert not any("Reminder" in m.content for m in dms(first) + dms(second))
    await env.advance_time(11 * HOUR)  # 23 hours: one hour before the deadline
    assert sum("⏰ Reminder" in t for t in texts(thread)) == 2
    assert (await state(server, 1)).turn == 0
    await env.advance_time(1 * HOUR)  # the deadline
    assert any("ran out of time; the turn passes" in t for t in texts(thread))
    game = await state(server, 1)
    assert game.turn == 1
    # The next player is mentioned with their own deadline; no reminder is repeated for the old turn.
    assert any(f"<@{second.id}>" in t and "play a card or draw" in t for t in texts(thread)[-1:])
    assert sum("⏰ Reminder" in t for t in texts(thread)) == 2


async def test_a_silent_reaction_window_closes_at_its_time(env: simcord.Env) -> None:
    server = make_server(env)
    players = await start_toy(server, reaction_minutes=5)
    thread = thread_of(server)
    card = (await state(server, 1)).hands[0][0]
    await players[0].slash(thread, "game move", action=move({"type": "play", "card": card}))
    await env.advance_time(4 * 60)
    assert (await state(server, 1)).window is not None
    await env.advance_time(61)
    assert any("Time is up: nobody stopped it." in t for t in texts(thread))
    game = await state(server, 1)
    assert game.window is None and game.scores[0] == card and game.turn == 1


async def test_away_players_pass_reaction_windows(env: simcord.Env) -> None:
    server = make_server(env)
    players = await start_toy(server)
    thread = thread_of(server)
    away = await players[1].slash(thread, "game away", duration="2d")
    assert away.response.ephemeral and "You're away for 2 days" in away.response.content
    card = (await state(server, 1)).hands[0][0]
    await players[0].slash(thread, "game move", action=move({"type": "play", "card": card}))
    game = await state(server, 1)
    assert game.window is not None and game.window.waiting == [2]  # seat 1 passed at once
    assert any("is away: passing for them" in t for t in texts(thread))
    await players[1].slash(thread, "game back")
    await players[2].slash(thread, "game move", action=move({"type": "pass"}))
    assert (await state(server, 1)).turn == 1  # turns still wait for the returning player
    bad = await players[1].slash(thread, "game away", duration="soon")
    assert "can't read “soon” as a duration" in bad.response.content
