"""`/mine`: what waits on me in every server where I play, most urgent first, in a server or in a DM with the bot."""

import re

import simcord

from tests.bot.helpers import Server, move, state, thread_of

HOUR = 3600


def two_servers(env: simcord.Env) -> tuple[Server, Server]:
    """Two servers with the same three people (anna, bert, cleo) in both."""
    people = [env.create_user(name) for name in ("anna", "bert", "cleo")]
    servers = []
    for name in ("Board games", "Family table"):
        guild = env.create_guild(name)
        channel = guild.create_text_channel("games")
        servers.append(Server(env, guild, channel, [guild.add_member(p) for p in people]))
    return servers[0], servers[1]


async def open_game(server: Server, **options: object) -> None:
    """A toy game in seat order anna, bert, cleo: anna's turn first."""
    anna, bert, cleo = server.members
    opened = await anna.slash(server.channel, "game new", game="toy", random_order=False, **options)
    await bert.click(opened.response, label="Join")
    await cleo.click(opened.response, label="Join")
    await anna.click(opened.response, label="Start")


def lines(text: str) -> list[str]:
    return [x for x in text.splitlines() if re.match(r"\d+\. ", x)]


async def test_mine_lists_what_waits_across_servers_most_urgent_first_and_in_a_dm(env: simcord.Env) -> None:
    first, second = two_servers(env)
    anna, bert, _ = first.members
    empty = await anna.user.slash("mine")
    assert empty.response.ephemeral
    assert "Nothing waits on you" in empty.response.content and "any running game" in empty.response.content

    await open_game(first)  # game 1: anna's turn, 24 hours
    await open_game(second, turn_hours=2)  # game 2: anna's turn, 2 hours: more urgent
    # In a DM with the bot: both games, the one due first on top, each with its deadline and a link to its table.
    mine = await anna.user.slash("mine")
    assert mine.response.ephemeral
    listed = lines(mine.response.content)
    assert len(listed) == 2
    assert listed[0].startswith("1. **Toy #2** (Family table) — your turn: play a card or draw")
    assert listed[1].startswith("2. **Toy #1** (Board games) — your turn: play a card or draw")
    for line, server, game in ((listed[0], second, 2), (listed[1], first, 1)):
        thread = thread_of(server)
        assert f"https://discord.com/channels/{server.guild.id}/{thread.id}" in line
        timers = await server.bot.store.timers.of_game(game)
        deadline = next(t.due_at for t in timers if t.kind == "deadline")
        stamp = int(deadline.timestamp())
        assert f"<t:{stamp}:f>" in line and f"<t:{stamp}:R>" in line
    # Nothing waits on bert yet: said so, counting his games.
    nothing = await bert.slash(first.channel, "mine")
    assert nothing.response.ephemeral
    assert nothing.response.content == "✅ Nothing waits on you: none of your 2 running games needs you now."

    # Anna plays a card in game 1: its reaction window (10 minutes) waits on bert and cleo — the most urgent now.
    card = (await state(first, 1)).hands[0][0]
    await anna.slash(thread_of(first), "game move", action=move({"type": "play", "card": card}))
    mine = await bert.user.slash("mine")
    listed = lines(mine.response.content)
    assert len(listed) == 1
    assert listed[0].startswith(f"1. **Toy #1** (Board games) — STOP or pass on anna's {card}")
    # Anna's own list no longer has game 1 (it waits on the others now).
    listed = lines((await second.members[0].slash(second.channel, "mine")).response.content)
    assert len(listed) == 1 and "**Toy #2**" in listed[0]

    # Once the window closes and the turn passes to bert, game 1 waits on him for his turn.
    await env.advance_time(10 * 60 + 1)
    listed = lines((await bert.user.slash("mine")).response.content)
    assert len(listed) == 1 and listed[0].startswith("1. **Toy #1** (Board games) — your turn: play a card or draw")


async def test_mine_reads_the_players_games_in_one_store_call(env: simcord.Env) -> None:
    """However many games: the seats, records and deadlines come from one read (`store.games.of_player`)."""
    first, second = two_servers(env)
    await open_game(first)
    await open_game(second)
    await open_game(first)
    games = await first.bot.store.games.of_player(first.members[0].id, statuses=("active", "paused"))
    assert [g.record.id for g in games] == [1, 2, 3]
    assert all(len(g.seats) == 3 and any(t.kind == "deadline" for t in g.timers) for g in games)
    assert await first.bot.store.games.of_player(first.members[0].id, statuses=("finished",)) == []
    listed = lines((await first.members[0].user.slash("mine")).response.content)
    assert len(listed) == 3
