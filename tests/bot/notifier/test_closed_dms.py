"""A member with closed DMs: told privately and in the thread once; the game goes on; /game hand always works."""

import simcord

from tests.bot.helpers import embed_text, make_server, move, seat_players, state, texts, thread_of


async def test_closed_dms_never_block_the_game(env: simcord.Env) -> None:
    server = make_server(env)
    anna, bert, _, dave = server.members
    env.inject_error(
        "POST",
        f"/channels/{dave.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    opened = await anna.slash(server.channel, "game new", game="toy")
    await bert.click(opened.response, label="Join")
    joined = await dave.click(opened.response, label="Join")
    thread = thread_of(server)
    # Dave hears it privately, and the thread hears it once.
    note = [f.content for f in joined.followups]
    assert any("couldn't send you a DM" in n for n in note) and all(f.ephemeral for f in joined.followups)
    assert sum("can't send direct messages" in t for t in texts(thread)) == 1
    seats = await server.bot.store.seats.of_game(1)
    assert [s.dm_ok for s in seats if s.player_id == dave.id] == [False]

    await anna.click(opened.response, label="Start")
    # Still one note in the thread; the others got their hands, Dave's is skipped without an error.
    assert sum("can't send direct messages" in t for t in texts(thread)) == 1
    assert dave.user.dm_channel.history() == []
    assert "Your hand" in embed_text(bert.user.dm_channel.history()[0])

    # Dave sees his hand with /game hand, and plays when it's his turn.
    players = await seat_players(server, 1)
    seat = players.index(dave)
    game = await state(server, 1)
    shown = await dave.slash(thread, "game hand")
    assert shown.response.ephemeral
    assert "Hand: " + ", ".join(map(str, game.hands[seat])) in embed_text(shown.response.message)
    for turn in range(seat):
        await players[turn].slash(thread, "game move", action=move({"type": "draw"}))
    played = await dave.slash(thread, "game move", action=move({"type": "draw"}))
    assert "draws a card" in played.response.content
    assert (await state(server, 1)).turn == (seat + 1) % 3


async def test_game_dms_brings_a_closed_dm_back(env: simcord.Env) -> None:
    server = make_server(env)
    anna, bert = server.members[:2]
    env.inject_error(
        "POST",
        f"/channels/{bert.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    opened = await anna.slash(server.channel, "game new", game="toy")
    await bert.click(opened.response, label="Join")
    await anna.click(opened.response, label="Start")
    thread = thread_of(server)
    players = await seat_players(server, 1)
    # While DMs are closed the bot stops trying (no failing call per move) and `/game hand` says how to get them back.
    shown = await bert.slash(thread, "game hand")
    assert "`/game dms`" in shown.response.content
    assert "`/game dms`" in next(t for t in texts(thread) if "can't send direct messages" in t)

    # Still closed: said privately, no second note in the thread, the seat stays marked.
    still = await bert.slash(thread, "game dms")
    assert still.response.ephemeral and "I still can't send you direct messages" in still.response.content
    assert sum("can't send direct messages" in t for t in texts(thread)) == 1
    assert [s.dm_ok for s in await server.bot.store.seats.of_game(1) if s.player_id == bert.id] == [False]

    # Allowed now: the hand arrives by DM, the seat is marked, and later changes edit that one message.
    env.backend.faults.clear()
    back = await bert.slash(thread, "game dms")
    assert back.response.ephemeral and back.response.content == "📬 DMs work: your hand is in your DMs again (1 game)."
    (hand,) = bert.user.dm_channel.history()
    seat = players.index(bert)
    assert "Hand: " + ", ".join(map(str, (await state(server, 1)).hands[seat])) in embed_text(hand)
    assert [s.dm_ok for s in await server.bot.store.seats.of_game(1) if s.player_id == bert.id] == [True]
    for turn in range(seat + 1):
        await players[turn].slash(thread, "game move", action=move({"type": "draw"}))
    (hand,) = bert.user.dm_channel.history()
    assert "You drew a" in embed_text(hand)
    assert sum("can't send direct messages" in t for t in texts(thread)) == 1
    elsewhere = await server.members[2].slash(thread, "game dms")
    assert elsewhere.response.content == "You're not in any open game in this server."
