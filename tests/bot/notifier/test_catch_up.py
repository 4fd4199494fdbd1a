"""The start-up catch-up within Discord's budget: a table's status edit waits for its next move, a status the stored
reference places surely is neither looked for nor posted afresh, and the outbox's guarantees hold (every row once,
the status never twice)."""

import re

import pytest
import simcord

from bot import outbox
from bot.notifier import IN_FLIGHT
from storage import StorageError
from tests.bot.helpers import dms, embed_text, make_server, move, rest_calls_since, start_toy, state, texts, thread_of
from tests.bot.notifier.test_answer_first import die_before_delivering
from tests.bot.notifier.test_status_crash import Killed, buried, kill_after, statuses


def below(thread, message) -> int:  # type: ignore[no-untyped-def]
    return sum(1 for m in thread.history() if m.id > message.id)


async def test_a_status_buried_at_restart_comes_back_with_the_tables_next_move(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    server = make_server(env)
    players = await start_toy(server)
    thread = thread_of(server)
    for k in range(14):  # people talk: the status sinks deeper than it may stay
        await server.members[3].send(thread, f"chat {k}")
    await env.restart_bot(make_bot())
    (status,) = statuses(thread)
    assert below(thread, status) == 14  # nothing pending: the start-up leaves it where it is
    start = len(env.http_requests)
    await players[0].slash(thread, "game move", action=move({"type": "draw"}))
    (status,) = statuses(thread)
    # It came down with the move, into its narration message — without a read of the thread to find it (its stored
    # reference is sure: no move of it was cut short) and without being posted afresh.
    assert below(thread, status) == 0 and "draws a card" in status.content
    calls = rest_calls_since(env, start)
    assert not [c for c in calls if re.fullmatch(r"GET /channels/\d+/messages", c)]  # no read of the thread
    assert f"POST /channels/{thread.id}/messages" not in calls  # nothing posted by the bot: the answer carries it
    assert f"Turn: {(await state(server, 1)).turn}" in embed_text(status)
    assert await server.bot.store.outbox.undelivered(game_id=1) == []


@pytest.mark.parametrize("deep", [False, True])
async def test_a_kill_between_commit_and_delivery_delivers_once_and_shows_the_status_once(  # type: ignore[no-untyped-def]
    env: simcord.Env, make_bot, deep: bool
) -> None:
    server = make_server(env)
    players = await start_toy(server)
    thread = thread_of(server)
    turn = await buried(server, players, thread) if deep else 0
    # (A minute on: SimCord's clock stands still between moves, and a restart takes a line merged into a message
    # edited since the row's guard, with its very words — the same draw three turns ago — as delivered already.)
    await env.advance_time(60)
    old = env.bot
    done = await old.service.play.act(1, players[turn % 3].id, {"type": "draw"})
    kill_after(old, 0)  # the process dies before its first call: the move is committed, nothing of it delivered
    with pytest.raises((Killed, StorageError)):
        await old.notifier.flush(done.game_id)
    assert sum("draws a card" in t for t in texts(thread)) == turn
    await env.restart_bot(make_bot())
    # The narration and the mover's hand at once; the status's edit waits for the table's next move.
    assert sum("draws a card" in t for t in texts(thread)) == turn + 1
    assert [r.kind for r in await server.bot.store.outbox.undelivered(game_id=1)] == ["status"]
    assert len(statuses(thread)) == 1
    assert "You drew a" in embed_text(dms(players[turn % 3])[-1])
    await env.restart_bot(make_bot())  # and again: nothing is delivered twice
    assert sum("draws a card" in t for t in texts(thread)) == turn + 1
    await players[(turn + 1) % 3].slash(thread, "game move", action=move({"type": "draw"}))
    assert sum("draws a card" in t for t in texts(thread)) == turn + 2
    assert await server.bot.store.outbox.undelivered(game_id=1) == []
    (status,) = statuses(thread)
    assert f"Turn: {(await state(server, 1)).turn}" in embed_text(status)
    ref = await server.bot.store.refs.find(1, "status")
    assert ref is not None and ref.message_id == status.id


def thread_reads(env: simcord.Env, start: int) -> list[str]:
    """The reads of a channel's history (a thread's or a DM's) since `start`."""
    return [c for c in rest_calls_since(env, start) if re.fullmatch(r"GET /channels/\d+/messages", c)]


async def test_rows_never_tried_before_a_crash_go_out_at_restart_without_a_look(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    server = make_server(env)
    players = await start_toy(server)
    thread = thread_of(server)
    old = env.bot
    die_before_delivering(old)  # committed, then the process died before its delivery pass marked anything
    await players[0].slash(thread, "game move", action=move({"type": "draw"}))
    rows = await old.store.outbox.undelivered(game_id=1)
    assert rows and all(r.last_error is None and r.payload.get(outbox.ATTEMPTS_MARKED) for r in rows)
    start = len(env.http_requests)
    await env.restart_bot(make_bot())
    # Never tried, so nothing of them can be on Discord: sent without reading the thread or a DM first.
    assert thread_reads(env, start) == []
    assert sum("draws a card" in t for t in texts(thread)) == 1
    assert "You drew a" in embed_text(dms(players[0])[-1])
    assert [r.kind for r in await server.bot.store.outbox.undelivered(game_id=1)] == ["status"]  # waits (one move)
    await players[1].slash(thread, "game move", action=move({"type": "draw"}))
    assert sum("draws a card" in t for t in texts(thread)) == 2 and len(statuses(thread)) == 1
    assert await server.bot.store.outbox.undelivered(game_id=1) == []


@pytest.mark.parametrize("calls", [0, 1])
async def test_a_kill_after_the_mark_looks_before_sending_again(env: simcord.Env, make_bot, calls: int) -> None:  # type: ignore[no-untyped-def]
    """Killed between the pass's mark and its first call (0), or between that call (the narration) and the row's
    delivered mark (1): the rows read back are in flight, so the restart looks first and tells the move once."""
    server = make_server(env)
    players = await start_toy(server)
    thread = thread_of(server)
    await env.advance_time(60)
    old = env.bot
    done = await old.service.play.act(1, players[0].id, {"type": "draw"})
    made = kill_after(old, calls)
    with pytest.raises((Killed, StorageError)):
        await old.notifier.flush(done.game_id)
    assert sum("draws a card" in t for t in texts(thread)) == calls
    if calls:
        assert made == ["POST /channels/{channel_id}/messages"]  # the narration went out, not marked delivered
    else:  # the pass's one mark, before its first call
        rows = await old.store.outbox.undelivered(game_id=1)
        assert rows and all((r.last_error or "").startswith(IN_FLIGHT) for r in rows)
    start = len(env.http_requests)
    await env.restart_bot(make_bot())
    assert thread_reads(env, start)  # in flight: looked for before anything is sent again
    assert sum("draws a card" in t for t in texts(thread)) == 1
    assert "You drew a" in embed_text(dms(players[0])[-1])
    await players[1].slash(thread, "game move", action=move({"type": "draw"}))
    assert sum("draws a card" in t for t in texts(thread)) == 2 and len(statuses(thread)) == 1
    assert await server.bot.store.outbox.undelivered(game_id=1) == []
