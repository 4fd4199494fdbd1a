"""A lobby filled by four members with buttons and commands; the start; hands arriving by DM and edited in place."""

import simcord

from tests.bot.helpers import (
    dms,
    embed_text,
    make_server,
    seat_players,
    state,
    texts,
    thread_of,
)


async def test_lobby_fills_with_buttons_and_commands_and_starts(env: simcord.Env) -> None:
    server = make_server(env)
    anna, bert, cleo, dave = server.members
    opened = await anna.slash(server.channel, "game new", game="toy", seats=4)
    lobby = opened.response
    assert lobby is not None and not lobby.ephemeral
    assert "Toy #1" in embed_text(lobby.message) and "1/4" in embed_text(lobby.message)
    thread = thread_of(server)
    assert thread.name == "Toy #1"

    # Bert joins with the button, Cleo with the command in the thread, Dave with the command in the channel.
    await bert.click(lobby, label="Join")
    joined = await cleo.slash(thread, "game join")
    assert joined.response.ephemeral and "You joined Toy #1 (3/4)" in joined.response.content
    await dave.slash(server.channel, "game join")
    lobby_now = server.channel.history()[0]
    assert "4/4" in embed_text(lobby_now)
    for m in server.members:
        assert f"<@{m.id}>" in embed_text(lobby_now)

    # Full: a fifth can't join; Leave frees a seat; join again.
    eve = server.guild.add_member(env.create_user("eve"))
    full = await eve.click(lobby, label="Join")
    assert "full (4/4)" in full.response.content and full.response.ephemeral
    await dave.click(lobby, label="Leave")
    assert "3/4" in embed_text(server.channel.history()[0])
    await dave.click(lobby, label="Join")

    # Only the creator (or a moderator) starts.
    refused = await bert.click(lobby, label="Start")
    assert "Only the player who opened this game" in refused.response.content

    # Every joiner got a welcome DM.
    for m in server.members:
        assert "You joined **Toy #1**" in dms(m)[0].content

    started = await anna.click(lobby, label="Start")
    assert started.acknowledged
    assert "under way" in embed_text(server.channel.history()[0])
    narration = texts(thread)
    assert any("Toy #1 begins!" in t for t in narration)
    players = await seat_players(server, 1)
    first = players[0]
    assert any(f"<@{first.id}>" in t and "play a card or draw" in t for t in narration)

    # Each hand is the welcome DM, edited in place into the private view.
    game_state = await state(server, 1)
    for seat, member in enumerate(players):
        (hand,) = dms(member)
        shown = embed_text(hand)
        assert "Your hand — Toy #1" in shown
        assert ", ".join(str(c) for c in game_state.hands[seat]) in shown

    # The status message is one message in the thread with the public view.
    statuses = [m for m in thread.history() if m.embeds and m.embeds[0].title == "Toy #1"]
    assert len(statuses) == 1


async def test_start_refused_below_minimum(env: simcord.Env) -> None:
    server = make_server(env)
    anna = server.members[0]
    opened = await anna.slash(server.channel, "game new", game="toy")
    refused = await anna.click(opened.response, label="Start")
    assert refused.response.ephemeral
    assert "needs at least 2 players and 1 has joined" in refused.response.content
    assert (await server.bot.store.games.get(1)).status == "lobby"
