"""Rate-limited REST calls a move no longer spends (issue 29: Discord's 50 calls a second are the whole bot's, so every
call a move saves is throughput for every table).

A hand DM is edited only when what it shows changes (`Hands.hand`, `Sender.shown`): a hand row that would show the
DM exactly as this process last sent it costs no call; one edited by other code since (a click's answer) is edited
again."""

import simcord

from bot import outbox
from tests.bot.helpers import embed_text, make_server, rest_calls_since, start_toy, state


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
