"""Hidden bribes leave no trace at the table: everything another player or an onlooker can read (the lobby, the
thread with its status, narration and announcement post, their own DMs and ephemeral answers) is the same whether
anna put $100 or $2,000 on Rudy Red — the same prompt to every player, with the same deadline — until the auction's
claims reveal something, which shows the comparison can see a leak."""

import simcord
from simcord import MemberActor

from tests.bot.helpers import Server, dms, embed_text, make_server

from .helpers import normalised, readable, start_game, thread_of_game


def dm_texts(member: MemberActor) -> list[str]:
    return [embed_text(m) for m in dms(member)]


def seen_by(server: Server, game_id: int, other: MemberActor, dms_of_game: slice) -> list[str]:
    thread = thread_of_game(server, game_id)
    onlooker = server.members[3]
    lobby = [
        embed_text(m) for m in server.channel.history() if m.embeds and f"#{game_id} " in (m.embeds[0].title or "")
    ]
    return normalised(lobby + readable(thread, other) + readable(thread, onlooker) + dm_texts(other)[dms_of_game])


async def up_to_the_announcement(server: Server, red: int) -> tuple[int, list[MemberActor], int]:
    cleo = server.members[2]
    cleo_from = len(dms(cleo))
    thread, players = await start_game(server, players=3, options="first_seat=1")
    game_id = max(g.id for g in await server.bot.store.games.find())
    anna, bert, cleo = players
    await anna.slash(thread, "cb bribe", amounts=f"red {red}, green 100, blue 100")
    await bert.slash(thread, "cb bribe", amounts="red 300, green 100, blue 100")
    await cleo.slash(thread, "cb bribe", amounts="purple 100, green 100, blue 100")
    await anna.slash(thread, "cb move", agent="red", to="2")
    return game_id, players, cleo_from


async def answers(server: Server, game_id: int, players: list[MemberActor]) -> None:
    _, bert, cleo = players
    thread = thread_of_game(server, game_id)
    await bert.slash(thread, "cb object", limit=300)
    await cleo.slash(thread, "cb noobjection")


async def test_nothing_anyone_else_sees_depends_on_a_hidden_bribe(env: simcord.Env) -> None:
    server = make_server(env)
    small, players, from_small = await up_to_the_announcement(server, red=100)
    asked_small = seen_by(server, small, players[2], slice(from_small, None))
    large, _, from_large = await up_to_the_announcement(server, red=2_000)
    anna, _bert, cleo = players
    small_dms, large_dms = slice(from_small, from_large), slice(from_large, None)
    # The objection window: the same question to everyone, with the same deadline, in both games.
    asked_large = seen_by(server, large, cleo, large_dms)
    assert asked_large == asked_small
    assert any("Do you object?" in t and "deadline <t:" in t for t in asked_small)
    await answers(server, small, players)
    await answers(server, large, players)
    before_small = seen_by(server, small, cleo, small_dms)
    assert seen_by(server, large, cleo, large_dms) == before_small
    assert any("objects — contest or withdraw?" in t for t in before_small)
    # The owner's own sheet does tell them apart.
    assert any("Rudy Red (red): **$2,000**" in t for t in dm_texts(anna))

    # anna contests with all she has: the claims are public, and now the two games read differently.
    await anna.slash(thread_of_game(server, small), "cb contest")
    await anna.slash(thread_of_game(server, large), "cb contest")
    after_small = seen_by(server, small, cleo, small_dms)
    after_large = seen_by(server, large, cleo, large_dms)
    assert after_small != after_large
    assert any("→ the objection succeeds" in t for t in after_small)
    assert any("→ the objection fails" in t for t in after_large)
