"""Restart safety: a new bot on the same database file carries on — buttons, hands, timers and the outbox."""

import simcord

from storage import StorageError
from tests.bot.helpers import dms, embed_text, make_server, move, seat_players, start_toy, state, texts, thread_of


def status_message(thread):  # type: ignore[no-untyped-def]
    return next(m for m in thread.history() if m.embeds and m.embeds[0].title == "Toy #1")


async def test_restart_mid_game_keeps_buttons_hands_and_timers(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    server = make_server(env)
    players = await start_toy(server, 4)
    thread = thread_of(server)
    card = (await state(server, 1)).hands[0][0]
    await players[0].slash(thread, "game move", action=move({"type": "play", "card": card}))
    # The process dies with a reaction window open; while it is down, the window's time runs out.
    env.bot.scheduler.close()
    await env.advance_time(11 * 60)
    assert (await state(server, 1)).window is not None
    await env.restart_bot(make_bot())
    # At start-up the overdue timer fires at once.
    assert any("Time is up: nobody stopped it." in t for t in texts(thread))
    game = await state(server, 1)
    assert game.window is None and game.turn == 1

    # Buttons posted by the old process still work.
    status = status_message(thread)
    shown = await players[2].click(status, label="My hand")
    assert shown.response.ephemeral
    assert "Hand: " + ", ".join(map(str, game.hands[2])) in embed_text(shown.response.message)
    card = game.hands[1][0]
    await players[1].slash(thread, "game move", action=move({"type": "play", "card": card}))
    await players[2].click(status_message(thread), label="Pass")
    assert (await state(server, 1)).window.waiting == [0, 3]
    # Hands are still the one DM each, edited in place.
    assert len(dms(players[1])) == 1 and "Hand: " in embed_text(dms(players[1])[0])
    # And a timer set by the new process fires in its time too.
    await env.advance_time(10 * 60 + 1)
    assert (await state(server, 1)).turn == 2


async def test_an_undelivered_message_is_delivered_after_restart_exactly_once(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    server = make_server(env)
    await start_toy(server, players=3)
    thread = thread_of(server)
    # The thread refuses the bot's posts (a permission was removed): the turn's deadline fires, its narration
    # cannot be posted. The creator is told, the game state moves on regardless.
    env.inject_error(
        "POST", f"/channels/{thread.id}/messages", status=403, code=50013, message="Missing Permissions", times=None
    )
    await env.advance_time(24 * 3600)
    assert (await state(server, 1)).turn == 1
    assert not any("ran out of time" in t for t in texts(thread))
    creator_dm = dms(server.members[0])[-1].content
    assert "not allowed to post in the table thread" in creator_dm and "Send Messages in Threads" in creator_dm
    pending = await server.bot.store.outbox.undelivered(game_id=1)
    assert [r.kind for r in pending][:1] == ["post"]

    # The permission is given back and the bot restarts: the narration arrives, once; the status's edit waits for
    # the table's next move (`bot.notifier.delivery.can_wait`), still in the outbox.
    env.bot.scheduler.close()
    env.backend.faults.clear()
    await env.restart_bot(make_bot())
    assert sum("ran out of time" in t for t in texts(thread)) == 1
    assert [r.kind for r in await server.bot.store.outbox.undelivered(game_id=1)] == ["status"]
    await env.restart_bot(make_bot())
    assert sum("ran out of time" in t for t in texts(thread)) == 1
    # The next move takes it along: delivered, and the status shown once, up to date.
    players = await seat_players(server, 1)
    await players[1].slash(thread, "game move", action=move({"type": "draw"}))
    assert await server.bot.store.outbox.undelivered(game_id=1) == []
    (status,) = [m for m in thread.history() if m.embeds and m.embeds[0].title == "Toy #1"]
    assert f"Turn: {(await state(server, 1)).turn}" in embed_text(status)


async def test_a_crash_between_posting_and_marking_delivered_posts_nothing_twice(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    server = make_server(env)
    players = await start_toy(server, players=3)
    thread = thread_of(server)
    old = env.bot

    async def crash(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise StorageError("simulated crash: the process died before recording the delivery")

    old.store.outbox.mark_delivered = crash  # type: ignore[method-assign]
    old.store.outbox.mark_delivered_many = crash  # type: ignore[method-assign]  (a pass's rows are marked together)
    await players[0].slash(thread, "game move", action=move({"type": "draw"}))
    assert sum("draws a card" in t for t in texts(thread)) == 1
    assert [r.kind for r in await old.store.outbox.undelivered(game_id=1)][:1] == ["post"]

    await env.restart_bot(make_bot())
    assert sum("draws a card" in t for t in texts(thread)) == 1
    # The hand was brought up to date, not duplicated; the status's edit waits for the table's next move.
    assert [r.kind for r in await server.bot.store.outbox.undelivered(game_id=1)] == ["status"]
    assert sum(1 for m in thread.history() if m.embeds and m.embeds[0].title == "Toy #1") == 1
    assert len(dms(players[0])) == 1 and "You drew a" in embed_text(dms(players[0])[0])
    await players[1].slash(thread, "game move", action=move({"type": "draw"}))
    assert await server.bot.store.outbox.undelivered(game_id=1) == []
    assert sum("draws a card" in t for t in texts(thread)) == 2
    assert sum(1 for m in thread.history() if m.embeds and m.embeds[0].title == "Toy #1") == 1
