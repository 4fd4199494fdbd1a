"""`/mod defaults`: a server's default turn deadline and reaction time for new games — shown, set, reset, refused for
non-moderators and for nonsense — and `/game new` honouring them (its own options still win)."""

from datetime import timedelta

import discord
import simcord

from tests.bot.helpers import embed_text, make_server


async def test_moderators_set_the_defaults_new_games_use(env: simcord.Env) -> None:
    server = make_server(env)
    anna = server.members[0]
    admins = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mia = server.guild.add_member(env.create_user("mia"), roles=[admins])

    shown = await mia.slash(server.channel, "mod defaults")
    assert shown.response.ephemeral
    assert "Turn deadline: not set — each game's own default (usually 1 day)" in shown.response.content
    assert "Reaction time: not set — each game's own length for each kind of window" in shown.response.content

    refused = await anna.slash(server.channel, "mod defaults", turn_deadline="2d")
    assert refused.response.ephemeral and "Only moderators can do that" in refused.response.content
    for option, value, why in [
        ("turn_deadline", "soon", "I can't read “soon” as a duration"),
        ("turn_deadline", "30m", "The turn deadline must be between 1 hour and 90 days (you gave 30 minutes)."),
        ("reaction_time", "8d", "The reaction time must be between 1 minute and 7 days (you gave 8 days)."),
    ]:
        bad = await mia.slash(server.channel, "mod defaults", **{option: value})
        assert bad.response.ephemeral and why in bad.response.content, bad.response.content
    settings = await server.bot.store.settings.guild(server.guild.id)
    assert settings.turn_deadline is None and settings.reaction_time is None

    changed = await mia.slash(server.channel, "mod defaults", turn_deadline="1d12h", reaction_time="30m")
    assert not changed.response.ephemeral  # everyone opening games here should know
    assert "Moderator **mia** changed the defaults for new games" in changed.response.content
    assert "Turn deadline: **1 day 12 hours**" in changed.response.content
    assert "Reaction time: **30 minutes**" in changed.response.content
    settings = await server.bot.store.settings.guild(server.guild.id)
    assert (settings.turn_deadline, settings.reaction_time) == (timedelta(hours=36), timedelta(minutes=30))

    opened = await anna.slash(server.channel, "game new", game="toy")
    assert "turn deadline 36 hours · every reaction window 30 minutes" in embed_text(opened.response.message)
    record = await server.bot.store.games.get(1)
    assert record.options["turn_deadline"] == "P1DT12H" and record.options["reaction_time"] == "PT30M"
    own = await anna.slash(server.channel, "game new", game="toy", turn_hours=5)
    assert "turn deadline 5 hours · every reaction window 30 minutes" in embed_text(own.response.message)
    # The table's own reaction time wins over the server's; `default` asks for the game's own lengths.
    typed = await anna.slash(server.channel, "game new", game="toy", reaction_time="2h")
    assert "every reaction window 2 hours" in embed_text(typed.response.message)
    games_own = await anna.slash(server.channel, "game new", game="toy", reaction_time="default")
    assert "STOP window 10 minutes" in embed_text(games_own.response.message)

    reset = await mia.slash(server.channel, "mod defaults", reaction_time="reset")
    assert "Reaction time: not set" in reset.response.content and "Turn deadline: **1 day 12 hours**" in (
        reset.response.content
    )
    third = await anna.slash(server.channel, "game new", game="toy")
    assert "turn deadline 36 hours · STOP window 10 minutes" in embed_text(third.response.message)
    # Games already opened keep what they were opened with.
    assert (await server.bot.store.games.get(1)).options["reaction_time"] == "PT30M"


async def test_the_servers_time_zone_for_new_tables(env: simcord.Env) -> None:
    server = make_server(env)
    anna = server.members[0]
    admins = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mia = server.guild.add_member(env.create_user("mia"), roles=[admins])
    assert "Time zone: not set — UTC" in (await mia.slash(server.channel, "mod defaults")).response.content

    bad = await mia.slash(server.channel, "mod defaults", timezone="Amsterdam")
    assert bad.response.ephemeral
    assert "“Amsterdam” is not a time zone I know: give an IANA name such as Europe/Amsterdam" in bad.response.content
    assert (await server.bot.store.settings.guild(server.guild.id)).timezone is None

    changed = await mia.slash(server.channel, "mod defaults", timezone="Europe/Amsterdam")
    assert not changed.response.ephemeral and "Time zone: **Europe/Amsterdam**" in changed.response.content
    opened = await anna.slash(server.channel, "game new", game="toy", options="deadline=daily 19:00")
    assert "turn deadline daily 19:00 (Europe/Amsterdam)" in embed_text(opened.response.message)
    # A table's own time zone wins.
    own = await anna.slash(server.channel, "game new", game="toy", options="deadline=daily 8:00 timezone=Asia/Tokyo")
    assert "turn deadline daily 08:00 (Asia/Tokyo)" in embed_text(own.response.message)
    assert [g.options["timezone"] for g in await server.bot.store.games.find()] == ["Europe/Amsterdam", "Asia/Tokyo"]

    reset = await mia.slash(server.channel, "mod defaults", timezone="reset")
    assert "Time zone: not set — UTC" in reset.response.content
    assert (await server.bot.store.settings.guild(server.guild.id)).timezone is None
