"""Opening a game: the variant's seat limits (2–4) are checked at `/game new`, and the lobby holds four seats."""

import simcord

from tests.bot.helpers import embed_text, make_server

NAMES = ("anna", "bert", "cleo", "dave", "emil")


async def test_the_variant_refuses_five_seats_at_game_new(env: simcord.Env) -> None:
    server = make_server(env, NAMES)
    opened = await server.members[0].slash(server.channel, "game new", game="casablanca", seats=5, options="variant=hq")
    assert opened.response.ephemeral
    assert opened.response.content == (
        "Casablanca with `variant=hq` is for 2–4 players, not 5: give `seats:` from 2 to 4, or leave it out."
    )
    assert not server.channel.threads


async def test_the_variant_lobby_holds_four_and_the_main_game_eight(env: simcord.Env) -> None:
    server = make_server(env, NAMES)
    opened = await server.members[0].slash(server.channel, "game new", game="casablanca", options="variant=hq")
    assert "Seats: 2–4" in embed_text(opened.response.message)
    for m in server.members[1:4]:
        await m.click(opened.response, label="Join")
    full = await server.members[4].click(opened.response, label="Join")
    assert full.response.ephemeral and "is full (4/4)" in full.response.content
    main = await server.members[0].slash(server.channel, "game new", game="casablanca")
    assert "Seats: 2–8" in embed_text(main.response.message)


async def test_an_unknown_variant_is_refused_with_the_options(env: simcord.Env) -> None:
    server = make_server(env, NAMES)
    opened = await server.members[0].slash(server.channel, "game new", game="casablanca", options="variant=big")
    assert opened.response.ephemeral and "variant" in opened.response.content
