"""Names are printed, never obeyed (issue 10, fault 6): a display name written as a mention pings nobody and
markdown in it restyles nothing; every message the bot sends allows only user mentions, never @everyone, @here or
roles, and by default none at all."""

import discord
import simcord

from bot.names import plain, shown
from tests.bot.helpers import embed_text, make_server, texts, thread_of


def test_a_name_is_shown_with_its_mentions_and_markdown_defused() -> None:
    assert shown("<@123456789012345678>") == "<@\u200b123456789012345678>"
    assert shown("@everyone") == "@\u200beveryone"
    assert shown("**bold** _it_") == "\\*\\*bold\\*\\* \\_it\\_"
    assert plain("john_doe <@&98765432109876543>") == "john_doe <@\u200b&98765432109876543>"


async def test_hostile_names_ping_nobody_and_break_no_line(env: simcord.Env) -> None:
    server = make_server(env)
    victim = server.members[3]
    sneaky = server.guild.add_member(env.create_user("sneaky"), nick=f"<@{victim.id}> **@everyone")
    opener = server.members[0]
    opened = await opener.slash(server.channel, "game new", game="toy")
    await sneaky.click(opened.response, label="Join")
    await server.members[1].click(opened.response, label="Join")
    await opener.click(opened.response, label="Start")
    thread = thread_of(server)
    shown_text = "\n".join(texts(thread)) + "\n".join(embed_text(m) for m in thread.history())
    assert f"<@{victim.id}>" not in shown_text  # only ever the defused form
    assert f"<@\u200b{victim.id}>" in shown_text or f"<@\u200b{victim.id}>" in embed_text(opened.response.message)
    assert "@everyone" not in shown_text.replace("@\u200beveryone", "")
    lobby = embed_text(server.channel.history()[0])
    assert "\\*\\*@\u200beveryone" in lobby
    assert server.bot.allowed_mentions is not None and server.bot.allowed_mentions.to_dict()["parse"] == []
    for request in env.http_requests:
        mentions = (request.json or {}).get("allowed_mentions") if isinstance(request.json, dict) else None
        if mentions is not None:
            assert set(mentions.get("parse", [])) <= {"users"}, request
            assert not mentions.get("roles")


async def test_a_moderator_line_shows_the_name_defused(env: simcord.Env) -> None:
    server = make_server(env)
    admin_role = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mod = server.guild.add_member(env.create_user("mod"), roles=[admin_role], nick="<@&123456789012345678> `mod`")
    opener = server.members[0]
    opened = await opener.slash(server.channel, "game new", game="toy")
    for m in server.members[1:3]:
        await m.click(opened.response, label="Join")
    await opener.click(opened.response, label="Start")
    await mod.slash(thread_of(server), "mod pause")
    line = next(t for t in texts(thread_of(server)) if "paused the game" in t)
    assert "<@\u200b&123456789012345678> \\`mod\\`" in line
