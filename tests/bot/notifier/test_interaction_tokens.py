"""Messages sent and edited with a command's own token (`bot.notifier.tokens`): used while the token lives, never
when a follow-up could turn private or come before the answer, and every failure falls back to the bot's own call.

The thread-level behaviour through the real discord.py client is in `tests/bot/games/kkk/test_table.py`
(`test_rest_calls_per_ordinary_move`: edits of messages a command made go through its token) and below
(`test_a_narration_behind_an_earlier_delivery_is_the_commands_follow_up`)."""

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
import pytest
import simcord

from bot import outbox
from bot.notifier import Carrier
from bot.notifier.tokens import TokenBook
from tests.bot.helpers import make_server, move, rest_calls_since, start_toy, state, texts, thread_of

T0 = datetime(2026, 1, 1, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


class Response:
    def __init__(self, done: bool) -> None:
        self.done = done

    def is_done(self) -> bool:
        return self.done


class Followup:
    def __init__(self, owner: "Interaction") -> None:
        self.owner = owner

    async def edit_message(self, message_id: int, **kwargs: Any) -> str:
        self.owner.calls.append(("followup edit", message_id))
        if self.owner.fails is not None:
            raise self.owner.fails
        return "edited with the token"


class Interaction:
    def __init__(self, *, kind: discord.InteractionType = discord.InteractionType.application_command) -> None:
        self.type = kind
        self.created_at = T0
        self.channel_id = 7
        self.calls: list[tuple[str, int | None]] = []
        self.fails: Exception | None = None
        self.response = Response(done=True)
        self.followup = Followup(self)
        self.message = None

    async def edit_original_response(self, **kwargs: Any) -> str:
        self.calls.append(("original edit", None))
        if self.fails is not None:
            raise self.fails
        return "edited with the token"


class Message:
    """The bot's own edit of a message (a `PartialMessage`)."""

    def __init__(self, message_id: int) -> None:
        self.id = message_id
        self.edits = 0

    async def edit(self, **kwargs: Any) -> str:
        self.edits += 1
        return "edited by the bot"


def http_error(status: int, code: int) -> discord.HTTPException:
    class Reply:
        reason = "x"

    Reply.status = status  # type: ignore[attr-defined]
    error = {404: discord.NotFound, 401: discord.HTTPException}.get(status, discord.HTTPException)
    return error(Reply(), {"code": code, "message": "refused"})  # type: ignore[arg-type]


async def test_a_message_a_command_made_is_edited_with_its_token_until_a_minute_before_it_expires() -> None:
    clock = Clock()
    book = TokenBook(clock)
    answer, follow_up = Interaction(), Interaction()
    book.made(1, answer, original=True)
    book.made(2, follow_up, original=False)
    assert await book.edit(Message(1), content="x") == "edited with the token"  # type: ignore[arg-type]
    assert await book.edit(Message(2), content="x", embed=None) == "edited with the token"  # type: ignore[arg-type]
    assert answer.calls == [("original edit", None)] and follow_up.calls == [("followup edit", 2)]

    clock.now = T0 + timedelta(minutes=14)  # the token's last minute: not risked
    mine = Message(1)
    assert await book.edit(mine, content="x") == "edited by the bot"  # type: ignore[arg-type]
    assert mine.edits == 1 and len(answer.calls) == 1


async def test_an_edit_made_with_the_token_is_never_made_again_by_the_bot() -> None:
    """Whatever the token's edit returns (a client may return nothing), it was made: the bot does not repeat it."""
    book = TokenBook(Clock())
    answer = Interaction()
    answer.edit_original_response = _nothing  # type: ignore[method-assign]
    book.made(1, answer, original=True)
    mine = Message(1)
    assert await book.edit(mine, content="x") is None  # type: ignore[arg-type]
    assert mine.edits == 0


async def _nothing(**kwargs: Any) -> None:
    return None


async def test_a_message_nobody_made_or_an_edit_a_token_cannot_make_is_the_bots() -> None:
    book = TokenBook(Clock())
    answer = Interaction()
    book.made(1, answer, original=True)
    unknown, odd = Message(9), Message(1)
    assert await book.edit(unknown, content="x") == "edited by the bot"  # type: ignore[arg-type]
    assert await book.edit(odd, content="x", suppress=True) == "edited by the bot"  # type: ignore[arg-type]
    assert answer.calls == []


async def test_a_refused_token_falls_back_to_the_bot_and_a_deleted_message_stays_gone() -> None:
    book = TokenBook(Clock())
    answer = Interaction()
    book.made(1, answer, original=True)
    answer.fails = http_error(401, 50027)  # "Invalid Webhook Token"
    mine = Message(1)
    assert await book.edit(mine, content="x") == "edited by the bot"  # type: ignore[arg-type]
    assert await book.edit(mine, content="y") == "edited by the bot"  # type: ignore[arg-type]
    assert len(answer.calls) == 1 and mine.edits == 2  # forgotten after the refusal

    other = Interaction()
    book.made(2, other, original=False)
    other.fails = http_error(404, 10008)  # "Unknown Message": deleted; the bot's edit would fail the same way
    gone = Message(2)
    with pytest.raises(discord.NotFound):
        await book.edit(gone, content="x")  # type: ignore[arg-type]
    assert gone.edits == 0


async def test_only_an_answered_slash_command_posts_its_moves_rows_as_follow_ups() -> None:
    clock = Clock()
    book = TokenBook(clock)
    command = Carrier(Interaction())  # type: ignore[arg-type]
    click = Carrier(Interaction(kind=discord.InteractionType.component))  # type: ignore[arg-type]
    book.carry_later(command, {1})
    book.carry_later(click, {2})
    assert book.courier(1, channel_id=8) is None  # another channel
    assert book.courier(2, channel_id=7) is None  # a button's answer may be an edit of the clicked message
    carrier = book.courier(1, channel_id=7)
    assert carrier is command

    # The follow-up waits for the command's answer: it must come after it.
    waiting = asyncio.create_task(book.answered(command))
    await asyncio.sleep(0.01)
    assert not waiting.done()
    command.settled.set()
    assert await waiting is command.interaction

    command.deferred = True  # "thinking…": the first follow-up would become that private answer
    assert await book.answered(command) is None
    command.deferred = False
    clock.now = T0 + timedelta(minutes=14, seconds=1)
    assert await book.answered(command) is None  # the token is too old to risk
    book.done(1)
    assert book.courier(1, channel_id=7) is None


async def test_a_narration_behind_an_earlier_delivery_is_the_commands_follow_up(env: simcord.Env) -> None:
    """Under load a move's narration cannot be its command's answer when an earlier move of the game is still
    being delivered (the thread would be out of order): the answer is private, and the narration follows, in
    order, as the command's public follow-up — outside Discord's global limit — reading exactly as before."""
    server = make_server(env)
    players = await start_toy(server, players=3)
    thread = thread_of(server)
    bot = server.bot
    # An earlier move is being delivered (its delivery holds the game's delivery lock) when the next arrives.
    lock = bot.notifier.lock(1)
    await lock.acquire()
    first = asyncio.create_task(players[0].slash(thread, "game move", action=move({"type": "draw"})))
    await asyncio.sleep(0.05)
    print("REQS", [f"{e.method} {e.path}" for e in env.http_requests[-3:]])
    start = len(env.http_requests)
    lock.release()
    answered = await first
    await env.settle()
    assert answered.response is not None and answered.response.message.flags.ephemeral
    calls = [f"{e.method} {e.path}" for e in env.http_requests[start:]]
    follow_ups = [c for c in calls if c.startswith("POST /webhooks/")]
    assert len(follow_ups) == 1 and not any(c.startswith(f"POST /channels/{thread.id}/messages") for c in calls)
    assert sum("draws a card" in t for t in texts(thread)) == 1
    narration = next(m for m in thread.history() if "draws a card" in m.content)
    assert not narration.flags.ephemeral and narration.interaction_metadata is not None


async def test_a_tracked_post_behind_an_earlier_delivery_is_a_follow_up_that_works_as_before(env: simcord.Env) -> None:
    """The reaction window's own message, posted as the command's follow-up, carries the bot's 🛑 and a player's
    🛑 on it stops the card, as on a message the bot posted."""
    server = make_server(env)
    players = await start_toy(server, players=3)
    thread = thread_of(server)
    card = (await state(server, 1)).hands[0][0]
    lock = server.bot.notifier.lock(1)
    await lock.acquire()
    before = len(env.http_requests)
    played = asyncio.create_task(players[0].slash(thread, "game move", action=move({"type": "play", "card": card})))
    for _ in range(1000):  # until the command has answered, its rows waiting behind the held delivery
        if any(e.path.endswith("/callback") for e in env.http_requests[before:]):
            break
        await asyncio.sleep(0.005)
    start = len(env.http_requests)
    lock.release()
    await played
    await env.settle()
    calls = [f"{e.method} {e.path}" for e in env.http_requests[start:]]
    assert sum(c.startswith("POST /webhooks/") for c in calls) == 2  # the narration and the window's message
    assert not any(c.startswith(f"POST /channels/{thread.id}/messages") for c in calls)
    window = next(m for m in thread.history() if m.content.startswith("🛑 React with 🛑"))
    assert window.interaction_metadata is not None and [str(r.emoji) for r in window.reactions] == ["🛑"]
    assert (await state(server, 1)).window is not None
    await players[1].react(window, "🛑")
    await env.settle()
    assert (await state(server, 1)).window is None


async def _restarted_with_a_commands_message(env: simcord.Env, make_bot):  # type: ignore[no-untyped-def]
    """A card played with the slash command (its answer the narration, its follow-up the reaction window's message,
    a tracked post), then a new process on the same database, its timers held: the window's reference, as the new
    process's ledger reads it (which tells the token book), and the thread."""
    server = make_server(env)
    players = await start_toy(server, players=3)
    thread = thread_of(server)
    card = (await state(server, 1)).hands[0][0]
    await players[0].slash(thread, "game move", action=move({"type": "play", "card": card}))
    window = next(m for m in thread.history() if m.content.startswith("🛑 React with 🛑"))
    assert window.interaction_metadata is not None  # made with the command's token
    (stored,) = [r for r in await server.bot.store.refs.of_game(1) if r.message_id == window.id]
    assert stored.token is not None  # kept with the reference, in the pass's write
    env.bot.scheduler.close()
    await env.restart_bot(make_bot())
    env.bot.scheduler.close()
    ref = await env.bot.notifier.ledger.find_ref(1, stored.kind, key=stored.key)
    assert ref is not None and ref.message_id == window.id
    return thread, ref


async def test_after_a_restart_a_commands_message_is_edited_with_its_stored_token(
    env: simcord.Env,
    make_bot,  # type: ignore[no-untyped-def]
) -> None:
    """A new process (no Interaction object, nothing in memory) edits a message a command made 10 minutes ago with
    that command's token, read back with the message's reference: not the bot's call under the global limit."""
    thread, ref = await _restarted_with_a_commands_message(env, make_bot)
    await env.advance_time(10 * 60)
    start = len(env.http_requests)
    await env.bot.notifier.sender.edit_message(thread.id, ref.message_id, content="edited after the restart")
    calls = rest_calls_since(env, start)
    assert calls == [f"PATCH /webhooks/{env.bot.application_id}/{ref.token}/messages/{ref.message_id}"]
    assert next(m for m in thread.history() if m.id == ref.message_id).content == "edited after the restart"

    # The command's answer itself (its narration: a status that moved down rides on such a message) is edited the
    # same way, by its id on the same route (not "@original", which discord.py would send escaped).
    (said,) = [m for m in thread.history() if m.interaction_metadata is not None and m.id != ref.message_id]
    answer = ref.model_copy(update={"message_id": said.id, "kind": outbox.STATUS})
    env.bot.notifier.sender.tokens.learn(answer)
    start = len(env.http_requests)
    await env.bot.notifier.sender.edit_message(thread.id, said.id, content="the answer, edited")
    assert rest_calls_since(env, start) == [f"PATCH /webhooks/{env.bot.application_id}/{ref.token}/messages/{said.id}"]
    assert next(m for m in thread.history() if m.id == said.id).content == "the answer, edited"


async def test_after_a_restart_an_expired_or_refused_token_leaves_the_edit_to_the_bot(
    env: simcord.Env,
    make_bot,  # type: ignore[no-untyped-def]
) -> None:
    thread, ref = await _restarted_with_a_commands_message(env, make_bot)
    bot = env.bot
    # Refused by Discord (revoked): the bot's own edit, and the token is not tried again.
    route = f"/webhooks/{bot.application_id}/{ref.token}/messages/{ref.message_id}"
    env.inject_error("PATCH", route, status=401, code=50027, message="Invalid Webhook Token")
    start = len(env.http_requests)
    await bot.notifier.sender.edit_message(thread.id, ref.message_id, content="one")
    assert await bot.notifier.ledger.find_ref(1, ref.kind, key=ref.key) == ref  # read again: not learned again
    await bot.notifier.sender.edit_message(thread.id, ref.message_id, content="two")
    assert (
        rest_calls_since(env, start)
        == [f"PATCH {route}"] + [f"PATCH /channels/{thread.id}/messages/{ref.message_id}"] * 2
    )

    # Expired (in its last minute: not risked), read back by another new process: the bot's edit, no token call.
    await env.restart_bot(make_bot())
    env.bot.scheduler.close()
    await env.advance_time(14 * 60 + 30)
    assert await env.bot.notifier.ledger.find_ref(1, ref.kind, key=ref.key) is not None
    start = len(env.http_requests)
    await env.bot.notifier.sender.edit_message(thread.id, ref.message_id, content="three")
    assert rest_calls_since(env, start) == [f"PATCH /channels/{thread.id}/messages/{ref.message_id}"]
