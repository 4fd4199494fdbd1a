"""A tracked post that says all its action says (`Post.replaces_narration`) is posted instead of the narration:
one message, the command's reply when there is one, with the awaited players' mentions below it; its id becomes
the tracked reference, so later edits and reactions find it. Without an interaction (a timer, a restart) it is one
ordinary post — and a crash between posting it and recording it posts nothing twice.

Here a test presentation of the toy announces each played card in its window message ("anna plays a 3 — react 🛑
…"), which then replaces the narration line.
"""

from collections.abc import Sequence

import pytest
import simcord

from bot.presentation import Post, Table
from engine.events import Event
from storage import StorageError
from tests.bot.helpers import make_server, move, rest_calls_since, start_toy, state, thread_of
from tests.bot.toy_presentation import ToyPresentation


class AnnouncingToy(ToyPresentation):
    def event_posts(self, table: Table, events: Sequence[Event]) -> list[Post]:
        played = next((e for e in events if e.kind == "played"), None)
        posts = super().event_posts(table, events)
        for post in posts:
            if played is not None and post.ref is not None and post.ref[0] == "window":
                post.content = f"{table.render(played.text)} Anyone may STOP it: react 🛑 here."
                post.replaces_narration = True
        return posts


async def test_the_window_message_is_the_commands_reply(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    await env.restart_bot(make_bot(presentations={"toy": AnnouncingToy()}))
    server = make_server(env)
    players = await start_toy(server)
    thread = thread_of(server)
    card = (await state(server, 1)).hands[0][0]
    before = len(env.http_requests)
    played = await players[0].slash(thread, "game move", action=move({"type": "play", "card": card}))
    calls = rest_calls_since(env, before)
    reply = played.response
    assert reply is not None and not reply.ephemeral
    assert reply.content.splitlines()[0] == f"{players[0].name} plays a {card}. Anyone may STOP it: react 🛑 here."
    assert f"<@{players[1].id}>, <@{players[2].id}>: STOP or pass" in reply.content  # the mentions, below it
    ref = await server.bot.store.refs.find(1, "window", key="1")
    assert ref is not None and ref.message_id == reply.message.id  # the reply is the tracked message
    assert not [m for m in thread.history() if m.content.startswith(f"{players[0].name} plays")][1:]
    # reply + the bot's 🛑 + status + the player's DM (one card less): four, where reply + post would be five.
    assert len(calls) == 4, calls
    assert sum(c.startswith("POST") for c in calls) == 1
    # Reactions on it work like on any tracked message.
    await players[1].react(reply.message, "🛑")
    assert (await state(server, 1)).window is None


async def test_without_an_interaction_it_is_one_post_and_a_crash_posts_nothing_twice(
    env: simcord.Env, make_bot
) -> None:  # type: ignore[no-untyped-def]
    await env.restart_bot(make_bot(presentations={"toy": AnnouncingToy()}))
    server = make_server(env)
    players = await start_toy(server)
    thread = thread_of(server)
    game = await state(server, 1)
    old = env.bot

    async def crash(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise StorageError("simulated crash: the process died before recording the delivery")

    # The move is committed through the service (no interaction to carry it); delivery dies after posting.
    done = await old.service.play.act(1, players[0].id, {"type": "play", "card": game.hands[0][0]})
    old.store.outbox.mark_delivered = crash  # type: ignore[method-assign]
    old.store.outbox.mark_delivered_many = crash  # type: ignore[method-assign]  (a pass's rows are marked together)
    with pytest.raises(StorageError):
        await old.notifier.flush(done.game_id)
    announced = [m for m in thread.history() if "Anyone may STOP it: react 🛑 here." in m.content]
    assert len(announced) == 1
    await env.restart_bot(make_bot(presentations={"toy": AnnouncingToy()}))
    announced = [m for m in thread.history() if "Anyone may STOP it: react 🛑 here." in m.content]
    assert len(announced) == 1 and f"<@{players[1].id}>" in announced[0].content
    ref = await server.bot.store.refs.find(1, "window", key="1")
    assert ref is not None and ref.message_id == announced[0].id
    # Only the status's edits may wait, for the table's next move (`bot.notifier.delivery.can_wait`).
    assert {r.kind for r in await server.bot.store.outbox.undelivered(game_id=1)} <= {"status"}
