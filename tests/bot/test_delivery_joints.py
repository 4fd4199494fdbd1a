"""Where the merged delivery rules meet (issues 26 and 27), through SimCord: `/me notify` (thread, DM, digest), quiet
hours (`/me quiet`), and a decision made on the hand prompted by the hand coming down as a new DM. Each prompt reaches
its player once, in one place, never inside their quiet hours, and never twice — counted over everything SimCord
holds (a new public message that pings them, or a new DM: `tests.bot.test_notify.Reach`).

SimCord's clock starts on Thursday 1 January 2026, 00:00 UTC (Berlin is UTC+1 then)."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import simcord

from bot import quiet as quiet_hours
from tests.bot.helpers import dms, embed_text, make_server, move, state, texts, thread_of
from tests.bot.test_notify import Reach, table_of_three
from tests.bot.test_quiet_hours import set_quiet, to


def tells(dmed: list[str]) -> list[str]:
    """The one-off prompts and reminders among a person's new DMs (a hand message is neither)."""
    return [t for t in dmed if t.startswith(("🔔", "⏰"))]


async def test_a_dm_player_whose_turn_begins_in_quiet_hours_gets_one_dm_when_they_end(env: simcord.Env) -> None:
    server = make_server(env)
    anna, bert = server.members[:2]
    await bert.user.slash("me notify", mode="dm")
    await set_quiet(bert, server.channel, "23:00", "08:00", "Europe/Berlin")  # 22:00–07:00 UTC
    await to(env, datetime(2026, 1, 1, 12, 0, tzinfo=UTC))
    await table_of_three(server)
    await to(env, datetime(2026, 1, 1, 23, 30, tzinfo=UTC))  # 00:30 in Berlin: bert's quiet hours
    reach = Reach(env)
    await anna.slash(thread_of(server), "game move", action=move({"type": "draw"}))  # bert's turn
    await env.settle()
    pinged, dmed = reach.look()
    assert bert.id not in pinged and tells(dmed.get(bert.id, [])) == [], (pinged, dmed)
    assert any("bert" in t and "play a card or draw" in t for t in texts(thread_of(server))[-1:])
    await to(env, datetime(2026, 1, 2, 6, 59, tzinfo=UTC))
    pinged, dmed = reach.look()
    assert bert.id not in pinged and dmed.get(bert.id, []) == [], "nothing reaches him inside his quiet hours"
    await to(env, datetime(2026, 1, 2, 7, 1, tzinfo=UTC))  # 08:01 in Berlin: woken, by DM as he chose, once
    pinged, dmed = reach.look()
    assert bert.id not in pinged
    (woken,) = tells(dmed[bert.id])
    assert woken.startswith("⏰ Reminder: Toy #1 — your turn: play a card or draw. Deadline <t:"), woken
    assert not any("⏰ Reminder" in t for t in texts(thread_of(server))), "nobody to ping in the thread"


async def test_away_quiet_hours_and_daily_deadlines_together(env: simcord.Env) -> None:
    """A table with a daily deadline (19:00 Berlin, weekdays only), a player away on `pause` and another with quiet
    hours around that time: it plays on for a week of deadlines without an error, every deadline the status shows is
    the one that fires, and nothing reaches the quiet player inside their quiet hours. `/me settings` shows them."""
    server = make_server(env)
    anna, bert, cleo = server.members[:3]
    await set_quiet(bert, server.channel, "17:00", "21:00", "Europe/Berlin")  # 16:00–20:00 UTC: around 19:00 Berlin
    shown = await bert.user.slash("me settings")
    assert "Quiet hours 17:00–21:00 (Europe/Berlin) — `/me quiet`" in shown.response.content, shown.response.content
    await to(env, datetime(2026, 1, 1, 12, 0, tzinfo=UTC))  # a Thursday
    opened = await anna.slash(
        server.channel,
        "game new",
        game="toy",
        random_order=False,
        options="deadline=daily 19:00 timezone=Europe/Berlin weekdays_only",
    )
    assert not opened.response.ephemeral, opened.response.content
    for m in (bert, cleo):
        await m.click(opened.response, label="Join")
    await anna.click(opened.response, label="Start")
    thread = thread_of(server)
    away = await anna.slash(thread, "game away", duration="1d")  # her turn's clock stands still for a day
    assert away.response.ephemeral, away.response.content
    berlin_quiet = quiet_hours.parse("17:00", "21:00", "Europe/Berlin")
    fired = 0
    for _ in range(6):
        (timer,) = [t for t in await server.bot.store.timers.of_game(1) if t.kind == "deadline"]
        stamp = int(timer.due_at.timestamp())
        # Weekends off, even for a deadline the away player's pause stretched (it would land on Saturday 3 January).
        assert timer.due_at.astimezone(ZoneInfo("Europe/Berlin")).weekday() < 5, timer.due_at
        status = next(m for m in thread.history() if m.embeds and m.embeds[0].title == "Toy #1")
        assert f"<t:{stamp}:f>" in embed_text(status), (timer.due_at, embed_text(status))
        turn = (await state(server, 1)).turn
        await to(env, timer.due_at + timedelta(minutes=1))
        assert (await state(server, 1)).turn != turn, "the deadline shown is the one that fired"
        fired += 1
    assert fired == 6
    for m in dms(bert):
        assert not quiet_hours.inside(berlin_quiet, m.created_at), (m.created_at, m.content)
    for m in thread.history():
        if f"<@{bert.id}>" in m.content:
            assert not quiet_hours.inside(berlin_quiet, m.created_at), (m.created_at, m.content)


async def test_the_first_turn_of_a_dm_player_in_quiet_hours_waits_for_their_end(env: simcord.Env) -> None:
    """At the start too: the first player (not the one who pressed Start), who chose DMs and is in their quiet hours,
    gets nothing then — not even their hand as a new DM — and one DM when their quiet hours end."""
    server = make_server(env)
    anna, bert, cleo = server.members[:3]
    for m in (anna, bert, cleo):
        await m.user.slash("me notify", mode="dm")
        await set_quiet(m, server.channel, "23:00", "08:00", "Europe/Berlin")  # 22:00–07:00 UTC
    await to(env, datetime(2026, 1, 1, 21, 0, tzinfo=UTC))
    opened = await anna.slash(server.channel, "game new", game="toy")  # seats shuffled (the tests' fixed seed)
    await bert.click(opened.response, label="Join")
    await cleo.click(opened.response, label="Join")
    await to(env, datetime(2026, 1, 1, 23, 30, tzinfo=UTC))
    reach = Reach(env)
    await anna.click(opened.response, label="Start")
    await env.settle()
    first = next(s.player_id for s in await server.bot.store.seats.of_game(1) if s.seat == 0)
    assert first != anna.id
    pinged, dmed = reach.look()
    assert first not in pinged and dmed.get(first, []) == [], (pinged, dmed)
    await to(env, datetime(2026, 1, 2, 7, 1, tzinfo=UTC))
    pinged, dmed = reach.look()
    assert first not in pinged
    (woken,) = dmed[first]
    assert woken.startswith("⏰ Reminder: Toy #1 — your turn: play a card or draw. Deadline <t:"), woken


async def test_a_short_turn_begun_in_quiet_hours_runs_from_their_end(env: simcord.Env) -> None:
    """A one-hour turn that begins in the player's quiet hours and would end inside them: moved to their end, the
    player would be woken at the very moment it passes. Its hour runs from their end instead: woken once, then an
    hour to move; the status shows that deadline, and it is the one that fires."""
    server = make_server(env)
    anna, bert, cleo = server.members[:3]
    await set_quiet(bert, server.channel, "23:00", "08:00", "Europe/Berlin")  # 22:00–07:00 UTC
    await to(env, datetime(2026, 1, 1, 12, 0, tzinfo=UTC))
    opened = await anna.slash(server.channel, "game new", game="toy", random_order=False, turn_hours=1)
    assert not opened.response.ephemeral, opened.response.content
    for m in (bert, cleo):
        await m.click(opened.response, label="Join")
    await anna.click(opened.response, label="Start")
    await to(env, datetime(2026, 1, 1, 23, 30, tzinfo=UTC))
    reach = Reach(env)
    await anna.slash(thread_of(server), "game move", action=move({"type": "draw"}))  # bert's turn, in his hours
    await env.settle()
    due = datetime(2026, 1, 2, 8, 0, tzinfo=UTC)
    stamp = int(due.timestamp())
    status = next(m for m in thread_of(server).history() if m.embeds and m.embeds[0].title == "Toy #1")
    assert f"<t:{stamp}:f>" in embed_text(status), embed_text(status)
    pinged, _ = reach.look()
    assert bert.id not in pinged
    await to(env, datetime(2026, 1, 2, 7, 1, tzinfo=UTC))
    pinged, _ = reach.look()
    assert pinged == {bert.id: 1}, "woken once, with time left to move"
    assert (await state(server, 1)).turn == 1
    await to(env, datetime(2026, 1, 2, 7, 59, tzinfo=UTC))
    assert (await state(server, 1)).turn == 1
    await to(env, datetime(2026, 1, 2, 8, 1, tzinfo=UTC))
    assert (await state(server, 1)).turn == 2, "the deadline shown is the one that fired"
    pinged, _ = reach.look()
    assert bert.id not in pinged
