"""A closed fist is secret until the reveal: everything another player or an onlooker can read in Discord (the
channel, the thread with its status and prompts, their own DMs and ephemeral replies) is exactly the same whether
the fist holds 0 or 2 tubers — and becomes different at the reveal, which shows this comparison can see a leak."""

import simcord
from simcord import MemberActor

from tests.bot.helpers import Server, dms, embed_text, make_server

from .helpers import close_fist_by_dm, dm_texts, normalised, readable, start_game, thread_of_game


def seen_by(server: Server, game_id: int, other: MemberActor, dms_of_game: slice) -> list[str]:
    """What `other` and an onlooker can read of game `game_id`: its lobby message, its thread (status, narration,
    prompts, `other`'s own ephemeral replies), and `other`'s DMs of that game."""
    thread = thread_of_game(server, game_id)
    onlooker = server.members[3]
    lobby = [
        embed_text(m) for m in server.channel.history() if m.embeds and f"#{game_id} " in (m.embeds[0].title or "")
    ]
    return normalised(lobby + readable(thread, other) + readable(thread, onlooker) + dm_texts(other)[dms_of_game])


async def duel_until_both_guessed_but_one(server: Server, secret: int) -> tuple[int, MemberActor, MemberActor, int]:
    """A fresh game up to the challenged player's guess (the reveal comes with it); the first player's fist holds
    `secret`. Returns the game id, the first and the second player, and where the second one's DMs for it start."""
    other_dms = len(dms(server.members[1]))
    thread, players = await start_game(server)
    game_id = max(g.id for g in await server.bot.store.games.find())
    a, b = players
    await a.slash(thread, "kr place", square="b2")
    await b.slash(thread, "kr place", square="d4")
    await a.slash(thread, "kr duel", opponent=b.mention)
    await close_fist_by_dm(a, secret, game_id)
    await close_fist_by_dm(b, 1, game_id)
    await a.slash(thread, "kr guess", total=3)
    return game_id, a, b, other_dms


async def test_nothing_anyone_else_sees_depends_on_a_closed_fist(env: simcord.Env) -> None:
    server = make_server(env)
    empty_id, a, b, b_from_empty = await duel_until_both_guessed_but_one(server, secret=0)
    full_id, a2, b2, b_from_full = await duel_until_both_guessed_but_one(server, secret=2)
    assert (a, b) == (a2, b2)  # same seed, same seats
    empty_dms, full_dms = slice(b_from_empty, b_from_full), slice(b_from_full, None)
    before_empty = seen_by(server, empty_id, b, empty_dms)
    assert seen_by(server, full_id, b, full_dms) == before_empty
    # ... while the owner's own DMs do tell them apart.
    assert any("fist on **0 carrots**" in t for t in dm_texts(a)) and any(
        "fist on **2 carrots**" in t for t in dm_texts(a)
    )

    # The reveal makes it public: now the two games read differently.
    await b.slash(thread_of_game(server, empty_id), "kr guess", total=4)
    await b.slash(thread_of_game(server, full_id), "kr guess", total=4)
    after_empty = seen_by(server, empty_id, b, empty_dms)
    after_full = seen_by(server, full_id, b, full_dms)
    assert after_empty != after_full
    assert any(f"{a.name} held 0" in t for t in after_empty) and any(f"{a.name} held 2" in t for t in after_full)
