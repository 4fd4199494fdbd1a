"""`/me notify`: each prompt and each reminder reaches every awaited player exactly once, in the place they chose —
pinged in the thread (the default), by DM (the thread when DMs are closed), or only in the daily digest — counted
over everything SimCord holds, by the table meter's rule: a new public message that pings them, or a new DM."""

from dataclasses import dataclass, field

import simcord

from tests.bot.helpers import Server, make_server, move, state, texts, thread_of
from tests.bot.table_meter import DM_CHANNEL

HOUR = 3600


@dataclass
class Reach:
    """Who was reached since the last look: pinged by a new public message, or sent a new DM (with its text)."""

    env: simcord.Env
    seen: set[tuple[int, int]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.look()

    def look(self) -> tuple[dict[int, int], dict[int, list[str]]]:
        pinged: dict[int, int] = {}
        dmed: dict[int, list[str]] = {}
        for channel_id, messages in self.env.backend.messages.items():
            channel = self.env.backend.channels.get(channel_id)
            for mid, m in messages.items():
                if (channel_id, mid) in self.seen:
                    continue
                self.seen.add((channel_id, mid))
                if getattr(channel, "type", None) == DM_CHANNEL:
                    for user in channel.recipient_ids:
                        dmed.setdefault(user, []).append(m.content)
                elif not m.is_ephemeral:
                    for user in m.ping_user_ids:
                        pinged[user] = pinged.get(user, 0) + 1
        return pinged, dmed


async def table_of_three(server: Server) -> None:
    """A toy game in seat order anna, bert, cleo (anna's turn first), hands dealt by DM."""
    anna, bert, cleo = server.members[:3]
    opened = await anna.slash(server.channel, "game new", game="toy", random_order=False)
    await bert.click(opened.response, label="Join")
    await cleo.click(opened.response, label="Join")
    await anna.click(opened.response, label="Start")


def prompts(dms: list[str]) -> list[str]:
    return [t for t in dms if t.startswith(("🔔 Toy", "⏰ Reminder: Toy"))]


async def anna_draws(server: Server) -> None:
    await server.members[0].slash(thread_of(server), "game move", action=move({"type": "draw"}))


async def test_thread_is_the_default_one_ping_per_prompt_and_reminder_no_dm(env: simcord.Env) -> None:
    server = make_server(env)
    await table_of_three(server)
    bert = server.members[1]
    reach = Reach(env)
    await anna_draws(server)  # bert's turn
    pinged, dmed = reach.look()
    assert pinged.get(bert.id) == 1 and prompts(dmed.get(bert.id, [])) == []
    await env.advance_time(12 * HOUR + 1)  # the halfway reminder
    pinged, dmed = reach.look()
    assert pinged == {bert.id: 1} and prompts(dmed.get(bert.id, [])) == []
    assert sum("⏰ Reminder" in t for t in texts(thread_of(server))) == 1


async def test_dm_players_get_one_dm_per_prompt_and_reminder_and_no_ping(env: simcord.Env) -> None:
    server = make_server(env)
    anna, bert, cleo = server.members[:3]
    chosen = await bert.user.slash("me notify", mode="dm")  # in a DM with the bot: it holds in every server
    assert chosen.response.ephemeral and "by DM" in chosen.response.content
    await table_of_three(server)
    reach = Reach(env)
    await anna_draws(server)  # bert's turn: named in the thread, not pinged; one DM with the deadline and a link
    pinged, dmed = reach.look()
    assert bert.id not in pinged
    (prompt,) = prompts(dmed[bert.id])
    thread = thread_of(server)
    assert prompt.startswith("🔔 Toy #1 — your turn: play a card or draw. Deadline <t:")
    assert ":f> (<t:" in prompt and f"https://discord.com/channels/{server.guild.id}/{thread.id}" in prompt
    assert any("bert" in t and "play a card or draw" in t for t in texts(thread)[-1:])

    await env.advance_time(12 * HOUR + 1)  # the reminder: one DM, and no post in the thread (nobody there to ping)
    pinged, dmed = reach.look()
    (reminder,) = prompts(dmed[bert.id])
    assert pinged == {} and reminder.startswith("⏰ Reminder: Toy #1 — your turn: play a card or draw. Deadline")
    assert not any("⏰ Reminder" in t for t in texts(thread))

    # A reaction window asks bert and cleo at once: cleo (thread) pinged, bert (DM) a DM — each once.
    card = (await state(server, 1)).hands[1][0]
    await bert.slash(thread, "game move", action=move({"type": "play", "card": card}))  # bert acts: no prompt
    pinged, dmed = reach.look()
    assert pinged == {anna.id: 1, cleo.id: 1} and prompts(dmed.get(bert.id, [])) == []


async def test_closed_dms_fall_back_to_the_thread(env: simcord.Env) -> None:
    """A DM player whose DMs turn out closed is pinged in the thread instead, once; once known, straight away."""
    server = make_server(env)
    _, bert, cleo = server.members[:3]
    await bert.slash(server.channel, "me notify", mode="dm")
    await table_of_three(server)  # bert's hand DM arrives: his DMs work (as far as the bot knows)
    env.inject_error(
        "POST",
        f"/channels/{bert.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    reach = Reach(env)
    await anna_draws(server)  # the prompt's DM fails: the thread pings him
    pinged, dmed = reach.look()
    assert pinged == {bert.id: 1} and dmed == {}
    assert any("play a card or draw" in t and f"<@{bert.id}>" in t for t in texts(thread_of(server))[-2:])
    assert [s.dm_ok for s in await server.bot.store.seats.of_game(1) if s.player_id == bert.id] == [False]

    await env.advance_time(12 * HOUR + 1)  # known closed now: the reminder pings him in the thread
    pinged, dmed = reach.look()
    assert pinged == {bert.id: 1} and dmed == {}
    await bert.slash(thread_of(server), "game move", action=move({"type": "draw"}))  # cleo's turn: pinged
    await cleo.slash(thread_of(server), "game move", action=move({"type": "draw"}))  # anna's
    reach.look()
    await anna_draws(server)  # bert's turn again: his DMs known closed, pinged in the thread, once
    pinged, dmed = reach.look()
    assert pinged == {bert.id: 1} and dmed == {}


async def test_digest_only_players_are_named_not_pinged_and_get_no_reminder(env: simcord.Env) -> None:
    server = make_server(env)
    bert = server.members[1]
    refused = await bert.slash(server.channel, "me notify", mode="digest")
    assert refused.response.ephemeral and "/me digest at:08:00" in refused.response.content
    assert "Nothing was changed" in refused.response.content
    assert (await server.bot.store.settings.deliveries([bert.id]))[bert.id].notify == "thread"
    await bert.slash(server.channel, "me digest", at="08:00", timezone="Europe/Berlin")
    chosen = await bert.slash(server.channel, "me notify", mode="digest")
    assert "only in your daily digest" in chosen.response.content
    await table_of_three(server)
    reach = Reach(env)
    await anna_draws(server)  # bert's turn: named in the thread and on the status, no ping, no DM
    pinged, dmed = reach.look()
    assert bert.id not in pinged and prompts(dmed.get(bert.id, [])) == []
    assert any("bert" in t and "play a card or draw" in t for t in texts(thread_of(server))[-1:])
    await env.advance_time(6 * HOUR)  # 06:00 UTC, 07:00 in Berlin: no digest yet, no reminder either
    pinged, dmed = reach.look()
    assert pinged == {} and dmed == {}
    await env.advance_time(HOUR)  # 08:00 in Berlin: the digest lists his turn
    pinged, dmed = reach.look()
    assert pinged == {} and len(dmed[bert.id]) == 1 and "Toy #1" in dmed[bert.id][0]
    await env.advance_time(6 * HOUR)  # 13:00 UTC: the halfway reminder passes without a word for him
    pinged, dmed = reach.look()
    assert pinged == {} and dmed == {}
    assert not any("⏰ Reminder" in t for t in texts(thread_of(server)))

    # Turning the digest off brings his prompts back to the thread: no setting leaves him hearing of nothing.
    off = await bert.slash(server.channel, "me digest", at="off")
    assert "ping you in each table's thread again" in off.response.content
    assert (await server.bot.store.settings.deliveries([bert.id]))[bert.id].notify == "thread"


async def test_the_first_prompt_at_the_start_reaches_a_dm_player_by_dm(env: simcord.Env) -> None:
    server = make_server(env)
    anna, bert, cleo = server.members[:3]
    for member in (anna, bert, cleo):
        await member.user.slash("me notify", mode="dm")
    opened = await anna.slash(server.channel, "game new", game="toy")  # seats shuffled (the tests' fixed seed)
    await bert.click(opened.response, label="Join")
    await cleo.click(opened.response, label="Join")
    reach = Reach(env)
    await anna.click(opened.response, label="Start")
    first = next(s.player_id for s in await server.bot.store.seats.of_game(1) if s.seat == 0)
    assert first != anna.id  # who pressed Start knows the game began: the seed makes someone else begin
    pinged, dmed = reach.look()
    assert first not in pinged
    (prompt,) = prompts(dmed[first])
    assert prompt.startswith("🔔 Toy #1 — your turn: play a card or draw.")
    assert all(prompts(dmed.get(m.id, [])) == [] for m in (anna, bert, cleo) if m.id != first)
