"""A private answer with buttons (Bribe… → the agents) leaves nothing running in the bot: its buttons are the
registered ones (`bot.components`), so discord.py need keep no view for it — it would otherwise give each one a
15-minute expiry task, hundreds over a game. Its buttons still work long after."""

import asyncio

import simcord

from tests.bot.helpers import make_server

from .helpers import hand_message, labels, start_game, state


def view_tasks() -> list[asyncio.Task[object]]:
    """discord.py's view-expiry tasks still running."""
    return [t for t in asyncio.all_tasks() if not t.done() and "timeout_task" in repr(t.get_coro())]


async def test_private_answers_keep_no_task_and_their_buttons_work_later(env: simcord.Env) -> None:
    server = make_server(env)
    _, players = await start_game(server, players=4)
    game = await state(server)
    first = players[game.turn]
    picked = await first.user.click(hand_message(first), label="Bribe…")
    for _ in range(5):  # each click answers with a new private message, as a player on a phone goes back and forth
        again = await first.user.click(hand_message(first), label="Bribe…")
        assert again.response.ephemeral and labels(again)
    assert view_tasks() == []

    await env.advance_time(20 * 60)
    name = game.agents[0].name
    picked = await first.user.click(picked.response.message, label=name)
    assert picked.response.ephemeral and "Amounts…" not in labels(picked), labels(picked)
    assert any(name in label for label in labels(picked))
