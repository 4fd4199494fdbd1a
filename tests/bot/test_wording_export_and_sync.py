"""Platform fixes from the review of issues 4 and 6: `/mod export` kept from a moderator who plays, the set-up seed
kept out of INFO logs, malformed moves and options worded without pydantic's help link, durations that can't
overflow, the lobby and `/game rules` wording, and the command sync hash tied to the bot application."""

import json
import logging
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from discord import app_commands
from discord.ext import commands

from bot import game_options, sync
from bot.durations import DurationTooLong, parse_duration
from bot.moves import HELP
from bot.service import Person, Refusal
from bot.settings import Settings
from bot.typed import UNREADABLE_MOVE
from engine import registry
from tests.bot.helpers import embed_text, make_server, move, seat_players, texts, thread_of

SEATED_EXPORT = (
    "You play in this game: the export shows everyone's secrets. Ask a moderator who doesn't play, or export once "
    "the game is over."
)


# --- 1. /mod export by a moderator who plays ---------------------------------------------------------------


async def started_with_a_playing_moderator(env: simcord.Env):  # type: ignore[no-untyped-def]
    server = make_server(env)
    admins = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    playing_mod = server.guild.add_member(env.create_user("mia"), roles=[admins])
    outside_mod = server.guild.add_member(env.create_user("otto"), roles=[admins])
    opened = await server.members[0].slash(server.channel, "game new", game="toy")
    await playing_mod.click(opened.response, label="Join")
    await server.members[0].click(opened.response, label="Start")
    return server, playing_mod, outside_mod, thread_of(server)


async def test_a_moderator_who_plays_cannot_export_a_game_under_way(env: simcord.Env) -> None:
    _, playing_mod, outside_mod, thread = await started_with_a_playing_moderator(env)
    refused = await playing_mod.slash(thread, "mod export")
    assert refused.response.ephemeral and refused.response.content == SEATED_EXPORT
    assert not refused.response.attachments
    assert not any("exported the game's log" in t for t in texts(thread))
    # Paused, it is still under way.
    await outside_mod.slash(thread, "mod pause")
    refused = await playing_mod.slash(thread, "mod export")
    assert refused.response.content == SEATED_EXPORT and not refused.response.attachments

    # A moderator who doesn't play gets the file at any time.
    exported = await outside_mod.slash(thread, "mod export")
    (attachment,) = exported.response.attachments
    assert json.loads(env.backend.cdn.get(attachment.url))["seed"] == 12345

    # Once the game is over, the moderator who played may export it too.
    await outside_mod.slash(thread, "mod end")
    exported = await playing_mod.slash(thread, "mod export")
    (attachment,) = exported.response.attachments
    data = json.loads(env.backend.cdn.get(attachment.url))
    assert data["status"] == "abandoned" and data["log"]


async def test_the_service_refuses_a_seated_moderator_whatever_the_command_path(env: simcord.Env) -> None:
    server, playing_mod, _, _ = await started_with_a_playing_moderator(env)
    with pytest.raises(Refusal, match="You play in this game"):
        await server.bot.service.mod.export(1, Person(playing_mod.id, "mia"))


# --- 2. the seed stays out of INFO logs ----------------------------------------------------------------------


async def test_the_seed_is_not_logged_at_info(env: simcord.Env, caplog: pytest.LogCaptureFixture) -> None:
    server = make_server(env)
    caplog.set_level(logging.DEBUG, logger="boardroom")
    opened = await server.members[0].slash(server.channel, "game new", game="toy")
    await server.members[1].click(opened.response, label="Join")
    await server.members[0].click(opened.response, label="Start")
    started = [r for r in caplog.records if r.getMessage() == "started"]
    assert started and all("seed" not in getattr(r, "fields", {}) for r in started)
    assert not [
        r for r in caplog.records if r.levelno >= logging.INFO and "12345" in json.dumps(r.__dict__, default=str)
    ]
    (debug,) = [r for r in caplog.records if r.getMessage() == "set-up seed"]
    assert debug.levelno == logging.DEBUG and debug.fields == {"seed": 12345}  # type: ignore[attr-defined]


# --- 9. malformed moves and options --------------------------------------------------------------------------


async def test_malformed_moves_say_what_is_wrong_without_a_link(env: simcord.Env) -> None:
    server = make_server(env)
    opened = await server.members[0].slash(server.channel, "game new", game="toy")
    await server.members[1].click(opened.response, label="Join")
    await server.members[0].click(opened.response, label="Start")
    anna = (await seat_players(server, 1))[0]
    thread = thread_of(server)
    cases = {
        move({"type": "play", "card": "high"}): "That isn't a move Toy understands: `card`: input should be a valid "
        "integer, unable to parse string as an integer. Pick one of the suggestions.",
        move({"type": "fly"}): "That isn't a move Toy understands: there is no move called “fly” (the moves are: "
        "play, draw, pass, stop, turn_timeout, window_timeout). Pick one of the suggestions.",
        move({"card": 3}): "That isn't a move Toy understands: it doesn't say which move it is (a `type` is "
        "missing). Pick one of the suggestions.",
        "[1, 2]": f"{UNREADABLE_MOVE} {HELP}",
        '"draw"': f"{UNREADABLE_MOVE} {HELP}",
        "{draw": f"{UNREADABLE_MOVE} {HELP}",
    }
    version = (await server.bot.store.games.get(1)).version
    for action, expected in cases.items():
        refused = await anna.slash(thread, "game move", action=action)
        assert refused.response.ephemeral and refused.response.content == expected, action
        assert "pydantic" not in refused.response.content and "http" not in refused.response.content
    assert (await server.bot.store.games.get(1)).version == version


async def test_options_a_game_refuses_at_creation_are_worded_without_a_link(env: simcord.Env) -> None:
    server = make_server(env)
    with pytest.raises(Refusal) as refused:
        await server.bot.service.lobby.create_lobby(
            "toy",
            guild_id=server.guild.id,
            channel_id=server.channel.id,
            creator=Person(server.members[0].id, "anna"),
            options={"hand_size": 99},
        )
    assert refused.value.message == (
        "Those options don't work for Toy: `hand_size`: input should be less than or equal to 10."
    )


# --- 7. durations --------------------------------------------------------------------------------------------


def test_durations_are_capped_and_at_least_a_minute() -> None:
    assert parse_duration("3 days").days == 3  # the long unit words are read whole
    assert parse_duration("1d12h").total_seconds() == 36 * 3600
    assert parse_duration("1.5m").total_seconds() == 90
    with pytest.raises(DurationTooLong, match=r"“9999999999d” is more than 366 days: give at most `366d`"):
        parse_duration("9999999999d")
    with pytest.raises(DurationTooLong, match="give at most `60d`"):
        parse_duration("61d", longest=parse_duration("60d"))
    with pytest.raises(ValueError, match=r"“0.0000001m” is less than a minute: give at least `1m`"):
        parse_duration("0.0000001m")
    with pytest.raises(DurationTooLong):
        parse_duration("9" * 400 + "d")  # a float overflow to infinity is still just "too long"


async def test_away_refuses_an_endless_or_instant_absence_with_the_fix(env: simcord.Env) -> None:
    server = make_server(env)
    opened = await server.members[0].slash(server.channel, "game new", game="toy")
    await server.members[1].click(opened.response, label="Join")
    anna = server.members[0]
    endless = await anna.slash(server.channel, "game away", duration="9999999999d")
    assert endless.response.ephemeral and endless.response.content == (
        "“9999999999d” is more than 60 days: give at most `60d`. For a longer absence, `/game leave` hands your seat "
        "on."
    )
    instant = await anna.slash(server.channel, "game away", duration="0.0000001m")
    assert instant.response.content == "“0.0000001m” is less than a minute: give at least `1m`."
    assert all(s.away_until is None for s in await server.bot.store.seats.of_game(1))
    fine = await anna.slash(server.channel, "game away", duration="60d")
    assert "You're away for 60 days" in fine.response.content


async def test_server_defaults_refuse_an_overflowing_duration_with_their_limits(env: simcord.Env) -> None:
    server = make_server(env)
    admins = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mia = server.guild.add_member(env.create_user("mia"), roles=[admins])
    refused = await mia.slash(server.channel, "mod defaults", turn_deadline="9999999999d")
    assert refused.response.content == (
        "The turn deadline must be between 1 hour and 90 days (you gave more than 366 days)."
    )
    refused = await mia.slash(server.channel, "mod defaults", reaction_time="0.0000001m")
    assert refused.response.content == "The reaction time: “0.0000001m” is less than a minute: give at least `1m`."


# --- 10. rules and lobby wording -------------------------------------------------------------------------------


async def test_rules_point_somewhere_a_player_can_open(env: simcord.Env) -> None:
    server = make_server(env)
    rules = await server.members[0].slash(server.channel, "game rules", game="toy")
    shown = embed_text(rules.response.message)
    assert rules.response.ephemeral and "Play a card to score it" in shown
    assert "shared/rules/" not in shown and "README" not in shown  # nothing a player can't open


def test_rules_url_is_a_web_address_and_links_each_game(tmp_path: Path) -> None:
    settings = Settings(_env_file=None, rules_url="https://example.org/boardroom/rules/")  # type: ignore[call-arg]
    assert settings.rules_link("kesse_ruegen") == "https://example.org/boardroom/rules/kesse_ruegen.md"
    assert Settings(_env_file=None, rules_url="").rules_link("kkk") is None  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="web address"):
        Settings(_env_file=None, rules_url="shared/rules")  # type: ignore[call-arg]
    example = (Path(__file__).resolve().parents[2] / ".env.example").read_text()
    assert "\nRULES_URL=" in example


async def test_rules_link_to_rules_url_when_it_is_set(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    await env.restart_bot(make_bot(games={"kesse_ruegen": registry.get("kesse_ruegen")}, presentations={}))
    env.bot.settings.rules_url = "https://example.org/rules"  # type: ignore[attr-defined]
    server = make_server(env)
    rules = await server.members[0].slash(server.channel, "game rules", game="kesse_ruegen")
    assert "📖 All pages: https://example.org/rules/kesse_ruegen.md" in embed_text(rules.response.message)


def test_describe_reads_like_a_sentence_for_every_game() -> None:
    for game in registry.games().values():
        for line in game_options.describe(game):
            assert not line.endswith(".") and "| None" not in line and "None" not in line, line


# --- 11. the command sync hash and the application -----------------------------------------------------------


def tree_for(application_id: int) -> app_commands.CommandTree:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none(), application_id=application_id)

    @bot.tree.command(name="hello", description="Say hello")
    async def hello(interaction: discord.Interaction) -> None:  # pragma: no cover - never run
        pass

    return bot.tree


def test_the_sync_hash_depends_on_the_application() -> None:
    assert sync.tree_hash(tree_for(1), None) == sync.tree_hash(tree_for(1), None)
    assert sync.tree_hash(tree_for(1), None) != sync.tree_hash(tree_for(2), None)


async def test_a_new_application_on_the_same_data_folder_is_synced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int | None] = []

    async def fake_sync(self: app_commands.CommandTree, *, guild: Any = None) -> list[Any]:
        synced.append(self.client.application_id)
        return []

    monkeypatch.setattr(app_commands.CommandTree, "sync", fake_sync)
    database = tmp_path / "boardroom.sqlite3"
    for application_id in (1, 1, 2):
        await sync.sync_commands(tree_for(application_id), dev_guild_id=None, database_path=database, mode="auto")
    assert synced == [1, 2]  # the same application again: no sync; a new one: synced
