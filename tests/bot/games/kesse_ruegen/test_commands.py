"""The `/kr` commands' refusals (ephemeral, the engine's words with names, nothing changed), the square
autocomplete, and the fist buttons (on the hand DM) and action buttons still working after a restart on the same
database."""

from collections.abc import Callable

import simcord

from bot.client import BoardroomBot
from engine import registry
from tests.bot.helpers import embed_text, make_server

from .helpers import action_prompt, close_fist_by_dm, fist_prompt, start_game, state


async def version(server) -> int:  # type: ignore[no-untyped-def]
    return (await server.bot.store.games.get(1)).version


async def test_refusals_are_private_worded_with_names_and_change_nothing(env: simcord.Env) -> None:
    server = make_server(env)
    thread, (anna, bert) = await start_game(server)
    cleo = server.members[2]
    v = await version(server)
    refused = {
        "barn": await anna.slash(thread, "kr place", square="c3"),
        "off the board": await anna.slash(thread, "kr place", square="f9"),
        "not your turn": await bert.slash(thread, "kr place", square="b2"),
        "too early to duel": await anna.slash(thread, "kr duel", opponent=bert.mention),
        "not playing": await cleo.slash(thread, "kr place", square="b2"),
    }
    assert refused["barn"].response.content == "c3 is the barn — start your pawn on a field."
    assert refused["off the board"].response.content == "There's no square 'f9' — the board runs a1 to e5."
    assert refused["not your turn"].response.content == (
        "It's anna's turn to place a pawn — yours comes in seat order."
    )
    assert refused["too early to duel"].response.content == (
        "You can't challenge anyone now — it's anna's turn to place a pawn."
    )
    assert refused["not playing"].response.content == "You're not playing in Kesse Rügen #1."
    assert all(r.response.ephemeral for r in refused.values())
    assert await version(server) == v

    choices = await anna.autocomplete(thread, "kr place", "square", "c")
    assert [c["value"] for c in choices] == ["c1", "c2", "c4", "c5"]  # no barn
    await anna.slash(thread, "kr place", square=" B2 ")
    assert (await state(server)).pawns[0] == "b2"
    taken = await bert.slash(thread, "kr place", square="b2")
    assert taken.response.content == "anna's pawn already stands on b2 — pick a free field."
    await bert.slash(thread, "kr place", square="c2")

    outsider = await anna.slash(thread, "kr duel", opponent=cleo.mention)
    assert outsider.response.ephemeral
    assert (
        outsider.response.content == f"{cleo.mention} isn't playing at Kesse Rügen #1. The players you can name: bert."
    )
    # Two players: the duel began with bert's pawn; a challenge is refused with what to do instead.
    again = await anna.slash(thread, "kr duel", opponent=bert.mention)
    assert again.response.ephemeral and again.response.content == (
        "With two players the challenge is automatic: your duel with bert is already on — close your fist."
    )
    early = await anna.slash(thread, "kr guess", total=2)
    assert early.response.content == "It's not time to guess — waiting for anna and bert to close their fist."
    await close_fist_by_dm(anna, 1)
    await close_fist_by_dm(bert, 1)
    first = await bert.slash(thread, "kr guess", total=2)
    assert first.response.content == "anna guesses first — then it's your turn."
    await anna.slash(thread, "kr guess", total=2)
    v = await version(server)
    same = await bert.slash(thread, "kr guess", total=2)
    assert same.response.ephemeral and same.response.content == "anna already said 2 — pick a different number."
    assert await version(server) == v
    await bert.slash(thread, "kr guess", total=3)

    # anna guessed right (1 + 1): her prompt on b2 has no → (c2 holds bert's pawn).
    labels = [c.label for row in action_prompt(thread).components for c in row.children]
    assert labels == ["Plant", "↖", "↑", "↗", "←", "↙", "↓", "↘"]
    stale = await anna.slash(thread, "kr duel", opponent=bert.mention)
    assert stale.response.content == "You can't challenge anyone now — anna is taking their actions."


async def test_fist_and_action_buttons_work_after_a_restart(
    env: simcord.Env, make_bot: Callable[..., BoardroomBot]
) -> None:
    server = make_server(env)
    thread, (anna, bert) = await start_game(server)
    await anna.slash(thread, "kr place", square="a1")
    await bert.slash(thread, "kr place", square="e5")  # two players: the duel is on
    await close_fist_by_dm(anna, 2)
    await env.restart_bot(make_bot(games={"kesse_ruegen": registry.get("kesse_ruegen")}, presentations={}))
    clicked = await bert.user.click(fist_prompt(bert), label="1")
    assert "you closed your fist on **1 sugar beet**" in embed_text(clicked.response.message)
    await anna.slash(thread, "kr guess", total=3)
    await bert.slash(thread, "kr guess", total=0)
    prompt = action_prompt(thread)
    await env.restart_bot(make_bot(games={"kesse_ruegen": registry.get("kesse_ruegen")}, presentations={}))
    await anna.click(prompt, label="Plant")
    assert (await state(server)).tubers == {"a1": 0}
