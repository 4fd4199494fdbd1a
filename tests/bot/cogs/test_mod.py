"""Every moderator command, and a non-moderator refused; every moderator action logged in the thread."""

import json

import discord
import simcord

from tests.bot.helpers import (
    dms,
    embed_text,
    make_server,
    mod_undo,
    move,
    start_toy,
    state,
    texts,
    thread_of,
)

HOUR = 3600


async def setup(env: simcord.Env):  # type: ignore[no-untyped-def]
    server = make_server(env)
    admin_role = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    gm_role = server.guild.create_role("Game Masters")
    admin = server.guild.add_member(env.create_user("mia"), roles=[admin_role])
    gm = server.guild.add_member(env.create_user("gus"), roles=[gm_role])
    players = await start_toy(server)
    return server, admin, gm, gm_role, players, thread_of(server)


async def test_non_moderators_are_refused(env: simcord.Env) -> None:
    server, _, gm, gm_role, players, thread = await setup(env)
    version = (await server.bot.store.games.get(1)).version
    for command, options in [
        ("mod pause", {}),
        ("mod resume", {}),
        ("mod extend", {"hours": 2.0}),
        ("mod substitute", {"old": players[0], "new": server.members[3]}),
        ("mod kick", {"player": players[0]}),
        ("mod end", {}),
        ("mod undo", {}),
        ("mod export", {}),
        ("mod verify", {}),
    ]:
        refused = await players[0].slash(thread, command, **options)
        assert refused.response.ephemeral, command
        assert "Only moderators can do that" in refused.response.content, command
    role = await gm.slash(thread, "mod role", role=gm_role)
    assert "Only members with Manage Server can choose the moderator role" in role.response.content
    assert (await server.bot.store.games.get(1)).version == version
    assert (await server.bot.store.games.get(1)).status == "active"


async def test_moderator_role_pause_resume_extend(env: simcord.Env) -> None:
    server, admin, gm, gm_role, players, thread = await setup(env)
    refused = await gm.slash(thread, "mod pause")
    assert "Only moderators" in refused.response.content
    done = await admin.slash(server.channel, "mod role", role=gm_role)
    assert "may now use `/mod`" in done.response.content

    await env.advance_time(2 * HOUR)  # 22 hours left on the first turn
    paused = await gm.slash(thread, "mod pause")
    assert "Moderator **gus** paused the game" in paused.response.content and not paused.response.ephemeral
    blocked = await players[0].slash(thread, "game move", action=move({"type": "draw"}))
    assert "paused by a moderator" in blocked.response.content
    await env.advance_time(48 * HOUR)  # nothing fires while paused
    assert (await state(server, 1)).turn == 0
    resumed = await gm.slash(thread, "mod resume")
    assert "resumed the game" in resumed.response.content
    await env.advance_time(21 * HOUR)
    assert (await state(server, 1)).turn == 0  # the turn kept its 22 hours
    extended = await gm.slash(thread, "mod extend", hours=3.0)
    assert "extended the current deadline by 3 hours" in extended.response.content
    # Resumed at 50h with 22h left: the deadline was 72h, now 75h.
    await env.advance_time(1 * HOUR + 60)  # 72h01
    assert (await state(server, 1)).turn == 0
    await env.advance_time(3 * HOUR - 180)  # 74h58
    assert (await state(server, 1)).turn == 0
    await env.advance_time(180)  # 75h01
    assert (await state(server, 1)).turn == 1
    # The next turn starts fresh: a pause or extension does not carry over.
    timers = await server.bot.store.timers.of_game(1)
    deadline = next(t for t in timers if t.kind == "deadline")
    left = (deadline.due_at - env.now()).total_seconds()
    assert 24 * HOUR - 120 <= left <= 24 * HOUR  # a full turn from when the old one ran out (75h)
    log = texts(thread)
    assert any("paused the game" in t for t in log) and any("resumed the game" in t for t in log)


async def test_substitute_kick_and_end(env: simcord.Env) -> None:
    server, admin, _, _, players, thread = await setup(env)
    newcomer = server.members[3]
    old = players[1]
    game = await state(server, 1)
    old_hand = dms(old)[-1]
    sub = await admin.slash(thread, "mod substitute", old=old, new=newcomer)
    # One public line, pinging the newcomer with a short welcome (their seat, where their hand is).
    assert f"seated <@{newcomer.id}> in place of {old.name} (seat 2). Welcome!" in sub.response.content
    assert "Your hand is in your DMs" in sub.response.content
    said = next(m for m in env.backend.messages[thread.id].values() if "Welcome!" in m.content)
    assert said.ping_user_ids == [newcomer.id]
    # The replaced player is told privately: their hand DM no longer shows the hand someone else now holds.
    retired = next(m for m in dms(old) if m.id == old_hand.id)
    assert f"You no longer play in **Toy #1**: a moderator gave your seat to {newcomer.name}" in retired.content
    assert not retired.embeds and not retired.components
    # The newcomer gets the seat's hand by DM and plays it; the old player can no longer act.
    assert "Hand: " + ", ".join(map(str, game.hands[1])) in embed_text(dms(newcomer)[-1])
    await players[0].slash(thread, "game move", action=move({"type": "draw"}))
    refused = await old.slash(thread, "game move", action=move({"type": "draw"}))
    assert "not playing" in refused.response.content
    played = await newcomer.slash(thread, "game move", action=move({"type": "draw"}))
    assert "newcomer" not in played.response.content and "draws a card" in played.response.content

    kicked = await admin.slash(thread, "mod kick", player=players[2])
    assert f"removed {players[2].name} from the game" in kicked.response.content
    game = await state(server, 1)
    assert game.active == [True, True, False] and game.turn == 0
    # The departure is an entry of the log like any move: the game still replays exactly.
    verified = await admin.slash(thread, "mod verify")
    assert "✅" in verified.response.content
    # With two left, the toy game cannot lose another: the game ends with the standings so far.
    ended = await admin.slash(thread, "mod kick", player=newcomer)
    assert "The game ends here" in ended.response.content
    assert (await server.bot.store.games.get(1)).status == "abandoned"
    assert any("🥇" in t for t in texts(thread))
    over = await players[0].slash(thread, "game move", action=move({"type": "draw"}))
    assert "is over" in over.response.content


async def test_end_undo_export_verify(env: simcord.Env) -> None:
    server, admin, _, _, players, thread = await setup(env)
    # A draw used chance and showed a card privately: undo refuses without force.
    await players[0].slash(thread, "game move", action=move({"type": "draw"}))
    refused = await admin.slash(thread, "mod undo")
    assert refused.response.ephemeral
    assert "revealed hidden information and involved a shuffle or a die roll" in refused.response.content
    forced = await mod_undo(admin, thread, force=True)
    assert (
        "undid (forced): anna draws a card" in forced.response.content or "undid (forced):" in forced.response.content
    )
    game = await state(server, 1)
    assert game.turn == 0 and len(game.hands[0]) == 3
    # A pass reveals nothing and uses no chance: undone without force.
    card = game.hands[0][0]
    await players[0].slash(thread, "game move", action=move({"type": "play", "card": card}))
    await players[1].slash(thread, "game move", action=move({"type": "pass"}))
    undone = await mod_undo(admin, thread)
    assert "lets it go" in undone.response.content
    assert (await state(server, 1)).window.waiting == [1, 2]

    verified = await admin.slash(thread, "mod verify")
    assert "✅ the log replays to the stored game exactly" in verified.response.content
    exported = await admin.slash(thread, "mod export")
    assert exported.response.ephemeral
    (attachment,) = exported.response.attachments
    data = json.loads(env.backend.cdn.get(attachment.url))
    assert data["format"] == "boardroom-game/1" and data["kind"] == "toy"
    assert [e["kind"] for e in data["log"]][:2] == ["action", "undo"]
    assert any("exported the game's log" in t for t in texts(thread))

    ended = await admin.slash(thread, "mod end")
    assert "ended the game. Standings so far:" in ended.response.content and "🥇" in ended.response.content
    assert (await server.bot.store.games.get(1)).status == "abandoned"
    assert not await server.bot.store.timers.of_game(1)
