"""Answer first, deliver behind, and the outbox's guarantees with the per-game queue (`bot.notifier.delivery`):
committed before announced, delivered once, resumed after a crash, several edits of one message merged."""

import asyncio

import simcord

from tests.bot.helpers import dms, embed_text, make_server, move, rest_calls_since, start_toy, state, texts, thread_of
from tests.bot.test_restart import status_message


def die_before_delivering(bot) -> None:  # type: ignore[no-untyped-def]
    """The process dies right after its commits: nothing of what they queued reaches Discord."""

    async def nothing(*args, **kwargs):  # type: ignore[no-untyped-def]
        from bot.notifier import FlushReport

        return FlushReport()

    bot.notifier.flush = nothing
    bot.notifier.queue.start_worker = lambda game_id: None


async def test_a_kill_between_commit_and_delivery_delivers_once_after_restart(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    server = make_server(env)
    players = await start_toy(server, players=3)
    thread = thread_of(server)
    die_before_delivering(env.bot)
    await players[0].slash(thread, "game move", action=move({"type": "draw"}))
    assert (await state(server, 1)).turn == 1  # committed ...
    assert not any("draws a card" in t for t in texts(thread))  # ... not announced
    assert [r.kind for r in await server.bot.store.outbox.undelivered(game_id=1)][:1] == ["post"]

    await env.restart_bot(make_bot())
    assert sum("draws a card" in t for t in texts(thread)) == 1
    # Only the status's edits may wait, for the table's next move (`bot.notifier.delivery.can_wait`).
    assert {r.kind for r in await server.bot.store.outbox.undelivered(game_id=1)} <= {"status"}
    await env.restart_bot(make_bot())
    assert sum("draws a card" in t for t in texts(thread)) == 1
    assert len(dms(players[0])) == 1 and "You drew a" in embed_text(dms(players[0])[0])


async def test_edits_of_one_message_left_by_a_crash_are_merged_into_one(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    server = make_server(env)
    players = await start_toy(server, players=3)
    thread = thread_of(server)
    status = status_message(thread)
    die_before_delivering(env.bot)
    for seat in range(3):  # three moves, three status rows, none delivered
        await players[seat].slash(thread, "game move", action=move({"type": "draw"}))
    assert [r.kind for r in await server.bot.store.outbox.undelivered(game_id=1)].count("status") == 3

    start = len(env.http_requests)
    await env.restart_bot(make_bot())
    # Each narration once at start-up; the three status rows wait for the table's next move
    # (`bot.notifier.delivery.can_wait`): no status edit yet.
    assert sum("draws a card" in t for t in texts(thread)) == 3
    assert [r.kind for r in await server.bot.store.outbox.undelivered(game_id=1)] == ["status"] * 3
    assert f"PATCH /channels/{thread.id}/messages/{status.id}" not in rest_calls_since(env, start)
    start = len(env.http_requests)
    await players[0].slash(thread, "game move", action=move({"type": "draw"}))
    # One status for the four rows, showing the game as it is now. (Their rows were never tried before the crash,
    # so no move of the status can have been cut short: nothing read the thread at start-up, and with its depth
    # unknown the status moves down into the move's narration, as any table's status does after a restart.)
    calls = rest_calls_since(env, start)
    assert f"GET /channels/{thread.id}/messages" not in calls  # no history read
    now = status_message(thread)
    assert "Scores" in embed_text(now) and now.embeds[0].to_dict() != status.embeds[0].to_dict()
    assert sum(1 for m in thread.history() if m.embeds and m.embeds[0].title == "Toy #1") == 1
    assert sum("draws a card" in t for t in texts(thread)) == 4  # each narration once
    assert await server.bot.store.outbox.undelivered(game_id=1) == []


async def test_two_moves_on_one_game_arriving_together_are_serialised_and_both_delivered(env: simcord.Env) -> None:
    server = make_server(env)
    players = await start_toy(server, players=3)
    thread = thread_of(server)
    bot = server.bot
    # Two players' moves reach the service at the same moment (two interactions handled concurrently).
    first, second = await asyncio.gather(
        bot.service.play.act(1, players[0].id, {"type": "draw"}),
        bot.service.play.act(1, players[1].id, {"type": "draw"}),
    )
    await asyncio.gather(bot.notifier.flush(1), bot.notifier.flush(1))
    await env.settle()
    log = await bot.store.log.entries(1)
    # One after the other: the second was decided on the state the first left (seat 2's turn by then).
    assert [e.actor_seat for e in log] == [0, 1] and (await state(server, 1)).turn == 2
    assert first.outbox_ids and second.outbox_ids and min(second.outbox_ids) > max(first.outbox_ids)
    assert sum("draws a card" in t for t in texts(thread)) == 2
    assert await bot.store.outbox.undelivered(game_id=1) == []
