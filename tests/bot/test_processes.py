"""Two bot processes on one database (issue 30, goal 3): two full bot instances in one test, each with its own store
connection, service, scheduler and notifier, named apart (`PROCESS_NAME`), on ONE database (`store_factory`).

SimCord runs one bot per event loop, so process A is the one SimCord connects, and process B speaks to the same
Discord through A's connection (its REST client and cache): B's commands come in through its service, as its own
gateway would hand them on, and its deliveries go out as REST calls like A's. Everything else of B is its own — and
all that the two share is the database, as two processes would. The clock is SimCord's virtual one for both.
"""

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import simcord

from bot.client import BoardroomBot
from bot.settings import Settings
from storage import StaleVersion
from tests.bot.helpers import embed_text, make_server, move, start_toy, state, texts, thread_of
from tests.conftest import StoreFactory

LEASE = 60.0


def named(settings: Settings, name: str, **more: Any) -> Settings:
    return settings.model_copy(update={"process_name": name, "claim_lease_seconds": LEASE, **more})


@pytest.fixture
async def simcord_bot(make_bot: Callable[..., BoardroomBot], settings: Settings, store_factory: StoreFactory) -> Any:
    return make_bot(settings=named(settings, "process-a"), store=await store_factory())


@pytest.fixture
async def second(
    env: simcord.Env, make_bot: Callable[..., BoardroomBot], settings: Settings, store_factory: StoreFactory
) -> AsyncIterator[BoardroomBot]:
    """Process B: its own store connection, service, scheduler and notifier, on A's Discord connection."""
    a = env.bot
    b = make_bot(settings=named(settings, "process-b", command_sync="never"), store=await store_factory())
    b.http = a.http
    b._connection = a._connection  # the same Discord, seen through A's gateway
    await b.setup_hook()
    await b.on_ready()
    yield b
    b.scheduler.close()
    b.takeover.close()
    b.notifier.close()


def status_message(thread):  # type: ignore[no-untyped-def]
    return next(m for m in thread.history() if m.embeds and m.embeds[0].title == "Toy #1")


async def played(server):  # type: ignore[no-untyped-def]
    """A started game of four whose seat 0 has played a card: a reaction window waits on seats 1, 2 and 3."""
    players = await start_toy(server, 4)
    card = (await state(server, 1)).hands[0][0]
    await players[0].slash(thread_of(server), "game move", action=move({"type": "play", "card": card}))
    assert (await state(server, 1)).window.waiting == [1, 2, 3]
    return players


async def delivered_everything(*bots: BoardroomBot) -> None:
    """Each process reads back the game's pending rows at once, while their workers deliver what they committed:
    each row must still go out once."""
    await asyncio.gather(*(bot.notifier.flush(1) for bot in bots))
    await asyncio.gather(*(bot.notifier.flush(1) for bot in bots))
    for bot in bots:
        assert await bot.store.outbox.undelivered(game_id=1) == []


async def test_the_same_games_moves_at_both_processes_are_serialised(env: simcord.Env, second: BoardroomBot) -> None:
    server = make_server(env)
    players = await played(server)
    thread = thread_of(server)
    a, b = env.bot, second
    version = (await a.store.games.snapshot(1)).version
    start = len(env.http_requests)

    # B reads the game, and before it commits, A's move on it lands: B's commit finds the version moved.
    read, landed = asyncio.Event(), asyncio.Event()
    stale: list[StaleVersion] = []
    load, commit = b.store.games.load, b.store.games.commit

    async def load_then_wait(game_id: int) -> Any:
        loaded = await load(game_id)
        if not read.is_set():
            read.set()
            await landed.wait()
        return loaded

    async def counted_commit(*args: Any, **kwargs: Any) -> Any:
        try:
            return await commit(*args, **kwargs)
        except StaleVersion as exc:
            stale.append(exc)
            raise

    b.store.games.load = load_then_wait  # type: ignore[method-assign]
    b.store.games.commit = counted_commit  # type: ignore[method-assign]
    # B's deliveries are held up (as by a slow Discord: its notifier's lock of the game is busy) while A reads the
    # game's pending rows back: B's rows are B's to deliver.
    async with b.notifier.lock(1):
        at_b = asyncio.get_running_loop().create_task(b.service.play.act(1, players[2].id, {"type": "pass"}))
        await read.wait()
        clicked = await players[1].click(status_message(thread), label="Pass")  # at A, through Discord
        landed.set()
        done = await at_b
        await a.notifier.flush(1)
    await delivered_everything(a, b)

    assert clicked.response is not None and not clicked.response.ephemeral  # A answered its player's click
    assert done.outbox_ids  # and B its own, after reading the game again
    assert len(stale) == 1  # the retry the player never sees
    entries = await a.store.log.entries(1, after=version)
    assert sorted(e.actor_seat for e in entries) == [1, 2]  # both applied, once each
    assert (await state(server, 1)).window.waiting == [3]
    said = texts(thread)
    assert sum("lets it go" in t for t in said) == 2
    # Each narration sent once (one REST call each), by the process that committed it: a row the other process
    # holds is never sent a second time (which Discord's nonce would only partly hide).
    sent = [e for e in env.http_requests[start:] if "lets it go" in json.dumps(e.json)]
    assert len(sent) == 2, [(e.method, e.path) for e in sent]


async def test_a_due_timer_fires_once_and_every_row_is_delivered_once(env: simcord.Env, second: BoardroomBot) -> None:
    server = make_server(env)
    await played(server)
    thread = thread_of(server)
    a, b = env.bot, second
    b.scheduler.poke()  # B's scheduler knows the window's timer too
    await env.advance_time(10 * 60 + 1)  # the reaction window's time runs out: both schedulers wake
    await asyncio.sleep(0.2)
    await delivered_everything(a, b)
    assert a.scheduler.fired + b.scheduler.fired == 1
    said = texts(thread)
    assert sum("Time is up: nobody stopped it." in t for t in said) == 1
    game = await state(server, 1)
    assert game.window is None and game.turn == 1
    closes = [e for e in await a.store.log.entries(1) if e.action and e.action.get("type") == "window_timeout"]
    assert len(closes) == 1


async def test_a_process_that_dies_mid_move_is_taken_over_after_the_lease(
    env: simcord.Env, second: BoardroomBot
) -> None:
    server = make_server(env)
    players = await played(server)
    thread = thread_of(server)
    a, b = env.bot, second

    # Just before the window's time runs out, B commits a move and dies before delivering it: its rows stay
    # claimed by B. Its scheduler had claimed the window's timer, due in 10 s, and dies before firing it.
    await env.advance_time(10 * 60 - 10)
    b.service.moves.on_committed = lambda _game_id, _rows: None
    await b.service.play.act(1, players[1].id, {"type": "pass"})
    (deadline,) = [t for t in await b.store.timers.of_game(1) if t.kind == "deadline"]
    assert await b.store.timers.claim([deadline.id], b.claims.hold(), now=b.clock()) == [deadline.id]
    b.scheduler.close()
    b.notifier.close()

    # A leaves B's claims alone while B's lease runs: nothing of B's move, no timeout.
    await a.notifier.flush(1)
    await env.advance_time(30)
    assert deadline.id in a.scheduler.elsewhere
    said = texts(thread)
    assert not any("lets it go" in t for t in said)
    assert not any("Time is up" in t for t in said)
    assert [r.id for r in await a.store.outbox.undelivered(game_id=1)]

    # B's lease runs out: A fires the timer and delivers B's rows, once each.
    a.takeover.start()
    await env.advance_time(LEASE)
    await asyncio.sleep(0.2)
    await env.settle()
    said = texts(thread)
    assert sum("Time is up: nobody stopped it." in t for t in said) == 1
    assert sum("lets it go" in t for t in said) == 1
    assert a.scheduler.fired == 1 and b.scheduler.fired == 0
    assert await a.store.outbox.undelivered(game_id=1) == []
    assert (await state(server, 1)).window is None


async def test_a_status_rendered_after_the_other_process_moved_shows_the_stored_game(
    env: simcord.Env, second: BoardroomBot
) -> None:
    server = make_server(env)
    players = await played(server)
    thread = thread_of(server)
    a, b = env.bot, second
    a.claims.shared = b.claims.shared = True  # as for processes holding shards
    version = (await a.store.games.snapshot(1)).version
    # A commits a pass, and its delivery is held up (its notifier's lock of the game busy) ...
    lock = a.notifier.lock(1)
    await lock.acquire()
    clicked = asyncio.get_running_loop().create_task(players[1].click(status_message(thread), label="Pass"))
    while (await a.store.games.snapshot(1)).version == version:
        await asyncio.sleep(0.01)
    # ... while B commits the next pass and delivers it whole.
    await b.service.play.act(1, players[2].id, {"type": "pass"})
    await b.notifier.flush(1)
    lock.release()
    await clicked
    await env.settle()
    # A's status edit, behind B's, was rendered from the game as stored, not from A's own last move.
    status = embed_text(status_message(thread))
    assert "Waiting on **dave**:" in status, status
