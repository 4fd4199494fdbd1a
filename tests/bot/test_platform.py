"""Platform behaviour around the games: several games in one channel, seat order, slow work deferred in time,
Discord errors reported to the creator, logs that follow a game, commands synced to a development server."""

import asyncio
import logging

import pytest
import simcord

from bot.settings import Settings
from tests.bot.helpers import dms, embed_text, make_server, move, seat_players, thread_of


async def test_several_games_in_one_channel_ask_which(env: simcord.Env) -> None:
    server = make_server(env)
    anna, bert, cleo, _ = server.members
    first = await anna.slash(server.channel, "game new", game="toy", random_order=False)
    second = await bert.slash(server.channel, "game new", game="toy")
    asked = await cleo.slash(server.channel, "game join")
    assert asked.response.ephemeral
    assert "Which game?" in asked.response.content
    assert "#1 Toy (lobby" in asked.response.content and "#2 Toy (lobby" in asked.response.content
    choices = await cleo.autocomplete(server.channel, "game join", "game", "")
    assert {c["value"] for c in choices} == {1, 2}
    joined = await cleo.slash(server.channel, "game join", game=2)
    assert "You joined Toy #2" in joined.response.content
    # In a game's thread, the command acts on that game without asking.
    thread_one = next(t for t in server.channel.threads if t.name == "Toy #1")
    joined = await cleo.slash(thread_one, "game join")
    assert "You joined Toy #1" in joined.response.content
    # Cleo sits in both games; each start is its own.
    await anna.click(first.response, label="Start")
    await bert.click(second.response, label="Start")
    # Seat order as joined in game 1 (random order off).
    assert [m.name for m in await seat_players(server, 1)] == ["anna", "cleo"]
    hand = await cleo.slash(server.channel, "game hand")
    assert "Which game?" in hand.response.content
    hand = await cleo.slash(server.channel, "game hand", game=1)
    assert "Your hand — Toy #1" in embed_text(hand.response.message)
    assert len(dms(cleo)) == 2  # one hand message per game


async def test_no_thread_permission_closes_the_lobby_with_the_reason(env: simcord.Env) -> None:
    server = make_server(env)
    env.inject_error(
        "POST",
        f"/channels/{server.channel.id}/messages/*/threads",
        status=403,
        code=50013,
        message="Missing Permissions",
    )
    opened = await server.members[0].slash(server.channel, "game new", game="toy")
    refusal = [m.content for m in opened.followups]
    assert any("I couldn't open a thread for the table here" in r and "Create Public Threads" in r for r in refusal)
    assert "closed" in embed_text(server.channel.history()[0])
    assert (await server.bot.store.games.get(1)).status == "abandoned"


async def test_slow_work_is_deferred_and_answered_later(env: simcord.Env) -> None:
    server = make_server(env)
    anna, bert = server.members[:2]
    await anna.slash(server.channel, "game new", game="toy")
    service = server.bot.service
    real_join = service.lobby.join

    async def slow_join(game_id, person):  # type: ignore[no-untyped-def]
        await asyncio.sleep(30)  # e.g. waiting behind another player's move on a busy game
        return await real_join(game_id, person)

    service.lobby.join = slow_join  # type: ignore[method-assign]
    result = await bert.slash(server.channel, "game join", game=1)
    assert result.acknowledged and result.deferred  # Discord heard "thinking…" within the 3 seconds
    await env.advance_time(31)
    answers = [m.content for m in (result.response, *result.followups) if m is not None]
    assert any("You joined Toy #1 (2/5)." in a for a in answers), answers
    assert "2/5" in embed_text(server.channel.history()[0])


async def test_a_deleted_thread_is_reported_to_the_creator(env: simcord.Env) -> None:
    server = make_server(env)
    anna, bert = server.members[:2]
    opened = await anna.slash(server.channel, "game new", game="toy")
    await bert.click(opened.response, label="Join")
    thread = thread_of(server)
    env.inject_error(
        "POST", f"/channels/{thread.id}/messages", status=404, code=10003, message="Unknown Channel", times=None
    )
    env.inject_error(
        "PATCH", f"/channels/{thread.id}/messages/*", status=404, code=10003, message="Unknown Channel", times=None
    )
    started = await anna.click(opened.response, label="Start")
    assert started.acknowledged
    # The game started regardless (its state is committed before anything is announced) ...
    assert (await server.bot.store.games.get(1)).status == "active"
    # ... and its creator is told what is wrong and what to do, once.
    reports = [m.content for m in dms(anna) if "⚠️" in m.content]
    assert len(reports) == 1
    assert "no longer exists" in reports[0] and "/mod end" in reports[0]
    # Hands still arrive by DM: a broken thread doesn't block the players' private views.
    assert any("Your hand" in embed_text(m) for m in dms(bert))


async def test_log_lines_carry_the_game_id(env: simcord.Env, caplog: pytest.LogCaptureFixture) -> None:
    server = make_server(env)
    anna, bert = server.members[:2]
    caplog.set_level(logging.INFO, logger="boardroom")
    opened = await anna.slash(server.channel, "game new", game="toy")
    await bert.click(opened.response, label="Join")
    await anna.click(opened.response, label="Start")
    players = await seat_players(server, 1)
    await players[0].slash(thread_of(server), "game move", action=move({"type": "draw"}))
    story = [(r.getMessage(), getattr(r, "game", None)) for r in caplog.records if r.name.startswith("boardroom")]
    for message in ("lobby opened", "joined", "started", "applied"):
        assert (message, 1) in story, story
    from bot.logs import JsonFormatter, TextFormatter

    record = next(r for r in caplog.records if r.getMessage() == "applied")
    assert "game=1" in TextFormatter().format(record) and '"game": 1' in JsonFormatter().format(record)


DEV_GUILD = 777_000_000_000_000_001


@pytest.fixture
def simcord_bot(make_bot, settings: Settings, request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    if request.node.name == "test_commands_go_to_the_development_server":
        return make_bot(settings=settings.model_copy(update={"dev_guild_id": DEV_GUILD}))
    return make_bot()


async def test_commands_go_to_the_development_server(env: simcord.Env) -> None:
    assert env.bot.synced_commands is True
    dev = env.create_guild(id=DEV_GUILD)
    other = env.create_guild("Elsewhere")
    anna = dev.add_member(env.create_user("anna"))
    bob = other.add_member(env.create_user("bob"))
    assert "game new" in anna.available_commands(dev.create_text_channel("games"))
    assert "game new" not in bob.available_commands(other.create_text_channel("games"))
