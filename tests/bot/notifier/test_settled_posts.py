"""A tracked post shown for the last time (`Post.settled`) loses its message reference with the delivery pass, and a
pass looks up the references it needs by key (`refs.find_many`), never reading all of the game's: a move costs the
same however many tracked posts the game has had.

Here a test presentation of the toy edits a window's message to say the window closed, as its last look."""

from collections.abc import Sequence

import simcord

from bot.presentation import Post, Table
from engine.events import Event
from storage.sqlite.iocount import count_io
from tests.bot.helpers import make_server, move, start_toy, state, thread_of
from tests.bot.toy_presentation import ToyPresentation

CLOSING = {"stopped", "window_closed", "passed"}


class SettlingToy(ToyPresentation):
    def event_posts(self, table: Table, events: Sequence[Event]) -> list[Post]:
        posts = super().event_posts(table, events)
        toy = table.state
        opened = any(e.kind == "window" for e in events)
        if toy is not None and toy.window is None and not opened and any(e.kind in CLOSING for e in events):
            number = str(toy.windows)
            posts.append(Post(content=f"Card #{number}: the window is closed.", ref=("window", number), settled=True))
        return posts


async def test_a_settled_posts_reference_is_retired_and_a_pass_reads_refs_by_key(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    await env.restart_bot(make_bot(presentations={"toy": SettlingToy()}))
    server = make_server(env)
    players = await start_toy(server)
    thread = thread_of(server)
    store = server.bot.store
    card = (await state(server, 1)).hands[0][0]
    await players[0].slash(thread, "game move", action=move({"type": "play", "card": card}))
    window = await store.refs.find(1, "window", key="1")
    assert window is not None
    message = next(m for m in thread.history() if m.id == window.message_id)
    io = count_io(store)
    await players[1].react(message, "🛑")  # STOP: the window closes
    assert (await state(server, 1)).window is None
    # The pass looked up what it needed by key, and read none of the game's references wholesale.
    assert io.by_op["messagerefs.of_game"] == 0, io.by_op
    assert io.by_op["messagerefs.find_many"] >= 1, io.by_op
    # The window's message shows its last look, and its reference is gone with the pass's marks.
    assert next(m for m in thread.history() if m.id == window.message_id).content == "Card #1: the window is closed."
    assert await store.refs.get(window.message_id) is None
    assert all(r.kind != "window" for r in await store.refs.of_game(1))
    assert await store.outbox.undelivered(game_id=1) == []
    # A reaction there later is no longer the game's: nothing happens.
    version = (await store.games.get(1)).version
    await players[2].react(message, "🛑")
    assert (await store.games.get(1)).version == version
