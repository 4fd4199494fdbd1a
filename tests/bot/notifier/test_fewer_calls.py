"""Rate-limited REST calls a move no longer spends (issue 29: Discord's 50 calls a second are the whole bot's, so every
call a move saves is throughput for every table).

A hand DM is edited only when what it shows changes (`Hands.hand`, `Sender.shown`): a hand row that would show the
DM exactly as this process last sent it costs no call; one edited by other code since (a click's answer) is edited
again. A status on a message only the bot's own call can edit moves onto the newest narration message below it
when a command's token edits that one (`Status._cheaper_below`): its next edits are free."""

import asyncio
from typing import Any

import simcord

from bot import outbox
from tests.bot.helpers import embed_text, make_server, move, rest_calls_since, start_toy, state, thread_of
from tests.bot.notifier.test_status_crash import statuses


async def test_a_hand_row_that_changes_nothing_costs_no_call_unless_the_dm_was_edited_elsewhere(
    env: simcord.Env,
) -> None:
    server = make_server(env)
    players = await start_toy(server, players=3)
    bot = server.bot
    anna = players[0]
    (hand,) = anna.user.dm_channel.history()
    edit = f"PATCH /channels/{anna.user.dm_channel.id}/messages/{hand.id}"
    seat = 0

    async def hand_row() -> list[str]:
        start = len(env.http_requests)
        await bot.store.outbox.add(1, [outbox.hand(seat)], now=bot.clock())
        await bot.notifier.flush(1)
        assert await bot.store.outbox.undelivered(game_id=1) == []  # delivered (marked) either way
        return [c for c in rest_calls_since(env, start) if not c.startswith("GET ")]

    # The start sent this very hand: a row asking for it again changes nothing, and costs nothing.
    assert await hand_row() == []
    # A private note is news: the DM is edited, once.
    start = len(env.http_requests)
    await bot.store.outbox.add(1, [outbox.hand(seat, ["A note for anna."])], now=bot.clock())
    await bot.notifier.flush(1)
    assert [c for c in rest_calls_since(env, start) if c.startswith("PATCH")] == [edit]
    assert "A note for anna." in embed_text(anna.user.dm_channel.history()[0])
    # Without the note it shows something else again: edited (the old code's cost for every row).
    assert await hand_row() == [edit]
    assert await hand_row() == []
    # Other code edited the DM (e.g. a click answered with the hand and a note on top): the next row edits it back.
    bot.notifier.edited_elsewhere(hand.id)
    assert await hand_row() == [edit]
    game = await state(server, 1)
    assert "Hand: " + ", ".join(map(str, game.hands[seat])) in embed_text(anna.user.dm_channel.history()[0])


async def test_a_status_the_bot_posted_moves_onto_the_reply_below_it_and_then_costs_no_rate_limited_edit(
    env: simcord.Env,
) -> None:
    server = make_server(env)
    players = await start_toy(server, players=3)
    thread = thread_of(server)
    (status,) = statuses(thread)  # posted by the bot at the start: only its own, rate-limited edit changes it
    assert status.interaction_metadata is None
    start = len(env.http_requests)
    await players[0].slash(thread, "game move", action=move({"type": "draw"}))
    calls = rest_calls_since(env, start)
    (now,) = statuses(thread)
    # It moved onto the move's reply (edited with the command's token); its old message (the status alone) went.
    assert now.id != status.id and now.interaction_metadata is not None
    assert f"PATCH /channels/{thread.id}/messages/{status.id}" not in calls
    assert [c for c in calls if c.startswith(f"DELETE /channels/{thread.id}/")] == [
        f"DELETE /channels/{thread.id}/messages/{status.id}"
    ]
    for seat in (1, 2):  # from now on the status's edits ride on tokens: no rate-limited edit in the thread
        start = len(env.http_requests)
        await players[seat].slash(thread, "game move", action=move({"type": "draw"}))
        calls = rest_calls_since(env, start)
        assert [c for c in calls if c.startswith(f"PATCH /channels/{thread.id}/")] == [], calls
        assert len(statuses(thread)) == 1


async def test_a_status_the_bot_posted_moves_onto_the_reply_above_a_tracked_post(env: simcord.Env) -> None:
    # A move whose reply is followed by a tracked post (here a window's STOP message): by the time the status row's
    # turn comes, the gateway has told the bot of the tracked post, so the reply is no longer the thread's newest
    # message; but its token still edits it, so the status moves onto it (`Threads.answers`) instead of staying on
    # the bot's own message, where every edit is a rate-limited call.
    server = make_server(env)
    players = await start_toy(server, players=3)
    request = server.bot.http.request

    async def round_trip(*args: Any, **kwargs: Any) -> Any:
        answer = await request(*args, **kwargs)
        for _ in range(5):  # a real call's round trip: the gateway's events (MESSAGE_CREATE) come in meanwhile
            await asyncio.sleep(0)
        return answer

    server.bot.http.request = round_trip  # type: ignore[method-assign]
    thread = thread_of(server)
    (status,) = statuses(thread)
    game = await state(server, 1)
    start = len(env.http_requests)
    await players[0].slash(thread, "game move", action=move({"type": "play", "card": game.hands[0][0]}))
    calls = rest_calls_since(env, start)
    (now,) = statuses(thread)
    window = thread.history()[-1]
    assert window.content.startswith("🛑") and window.id > now.id  # the tracked post is the newest message
    assert now.id != status.id and now.interaction_metadata is not None
    assert [c for c in calls if c.startswith(f"DELETE /channels/{thread.id}/")] == [
        f"DELETE /channels/{thread.id}/messages/{status.id}"
    ]
    assert f"PATCH /channels/{thread.id}/messages/{status.id}" not in calls
    # The next move's status edit rides on that reply's token.
    start = len(env.http_requests)
    await players[1].slash(thread, "game move", action=move({"type": "pass"}))
    calls = rest_calls_since(env, start)
    assert f"PATCH /channels/{thread.id}/messages/{now.id}" not in calls, calls
    assert len(statuses(thread)) == 1
