"""Where the merged delivery rules meet (issues 26 and 27), through SimCord: `/me notify` (thread, DM, digest), quiet
hours (`/me quiet`), and a decision made on the hand prompted by the hand coming down as a new DM. Each prompt reaches
its player once, in one place, never inside their quiet hours, and never twice — counted over everything SimCord
holds (a new public message that pings them, or a new DM: `tests.bot.test_notify.Reach`).

SimCord's clock starts on Thursday 1 January 2026, 00:00 UTC (Berlin is UTC+1 then)."""

from datetime import UTC, datetime

import simcord

from tests.bot.helpers import make_server, move, texts, thread_of
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
