"""A Kesse Rügen table with a daily deadline, through SimCord in simulated time, across both daylight-saving changes
(`deadline=daily 02:30` in Europe/Amsterdam on the spring-forward night, `daily 01:30` in America/New_York on the
fall-back night) and with weekends off: the deadline the status shows is the one that fires, a Discord timestamp
(`<t:…:f>` and `<t:…:R>`) of the right instant, and a silent player's turn passes exactly then."""

from collections.abc import Callable
from datetime import UTC, datetime

import discord
import pytest
import simcord

from bot.client import BoardroomBot
from engine import registry
from tests.bot.games.helpers import start_game
from tests.bot.helpers import embed_text, make_server

from .helpers import state

SIM_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
"""SimCord's clock starts here; the bot's clock is moved to each test's `start` (months of simulated idling would
take the housekeeper's every pass)."""


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot], start: datetime) -> BoardroomBot:
    def clock() -> datetime:
        return start + (discord.utils.utcnow() - SIM_EPOCH)

    return make_bot(games={"kesse_ruegen": registry.get("kesse_ruegen")}, presentations={}, clock=clock)


def status_text(thread: simcord.ChannelHandle) -> str:
    status = next(m for m in thread.history() if m.embeds and m.embeds[0].title == "Kesse Rügen #1")
    return embed_text(status)


def shows(thread: simcord.ChannelHandle, when: datetime) -> bool:
    stamp = int(when.timestamp())
    return f"<t:{stamp}:f> (<t:{stamp}:R>)" in status_text(thread)


async def to(env: simcord.Env, when: datetime) -> None:
    """Advance to `when` on the bot's clock."""
    now = env.bot.clock()  # type: ignore[attr-defined]
    await env.advance_time((when - now).total_seconds())


@pytest.mark.parametrize("start", [datetime(2026, 3, 28, 12, 0, tzinfo=UTC)])
async def test_spring_forward_in_amsterdam(env: simcord.Env, start: datetime) -> None:
    server = make_server(env)
    # The bot's clock starts on Saturday 28 March 2026, 13:00 CET.
    thread, _players = await start_game(
        server, "kesse_ruegen", players=2, options="deadline=daily 02:30 timezone=Europe/Amsterdam"
    )
    # 02:30 does not exist on Sunday 29 March (02:00 CET → 03:00 CEST): the deadline is 03:30 CEST, 01:30 UTC.
    due = datetime(2026, 3, 29, 1, 30, tzinfo=UTC)
    assert shows(thread, due), status_text(thread)
    await to(env, datetime(2026, 3, 29, 1, 29, tzinfo=UTC))
    assert (await state(server)).since == start  # anna's turn, not over yet
    await to(env, datetime(2026, 3, 29, 1, 31, tzinfo=UTC))
    assert (await state(server)).since == due  # her turn ended at the deadline, and the next wait began then
    # The next wait began at 01:30 UTC: its deadline is 02:30 CEST on Monday (00:30 UTC), 23 hours after.
    assert shows(thread, datetime(2026, 3, 30, 0, 30, tzinfo=UTC)), status_text(thread)


@pytest.mark.parametrize("start", [datetime(2026, 10, 31, 12, 0, tzinfo=UTC)])
async def test_fall_back_in_new_york(env: simcord.Env, start: datetime) -> None:
    server = make_server(env)
    # Saturday 31 October 2026, 08:00 EDT.
    thread, _players = await start_game(
        server, "kesse_ruegen", players=2, options="deadline=daily 01:30 timezone=America/New_York"
    )
    # 01:30 happens twice on Sunday 1 November (02:00 EDT → 01:00 EST): the first, 01:30 EDT = 05:30 UTC.
    first = datetime(2026, 11, 1, 5, 30, tzinfo=UTC)
    assert shows(thread, first), status_text(thread)
    await to(env, datetime(2026, 11, 1, 5, 29, tzinfo=UTC))
    assert (await state(server)).since == start
    await to(env, datetime(2026, 11, 1, 5, 31, tzinfo=UTC))
    assert (await state(server)).since == first
    # The next one is 01:30 EST on Monday: 06:30 UTC, 25 hours later.
    assert shows(thread, datetime(2026, 11, 2, 6, 30, tzinfo=UTC)), status_text(thread)


@pytest.mark.parametrize("start", [datetime(2026, 6, 12, 6, 0, tzinfo=UTC)])
async def test_weekends_off_moves_friday_evenings_deadline_to_monday(env: simcord.Env, start: datetime) -> None:
    server = make_server(env)
    # Friday 12 June 2026, 08:00 CEST.
    thread, _players = await start_game(
        server, "kesse_ruegen", players=2, options="deadline=daily 19:00 timezone=Europe/Amsterdam weekdays_only"
    )
    # Friday 08:00 + 12 hours is past Friday 19:00; Saturday 19:00 is a weekend: Monday 19:00 CEST (17:00 UTC).
    monday = datetime(2026, 6, 15, 17, 0, tzinfo=UTC)
    assert shows(thread, monday), status_text(thread)
    await to(env, datetime(2026, 6, 15, 16, 59, tzinfo=UTC))
    assert (await state(server)).since == start  # nothing happened over the weekend
    await to(env, datetime(2026, 6, 15, 17, 1, tzinfo=UTC))
    assert (await state(server)).since == monday
