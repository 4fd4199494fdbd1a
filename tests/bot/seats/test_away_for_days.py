"""Away for days through Discord (SimCord), in simulated time: the table's `away` option decides.

- `pause` (the default, on the toy game): the away player's turn deadline stands still while they are away, at most
  AWAY_MAX_DAYS (2 here) per game, then runs again; a deadline that passes while they are still away never counts
  toward the automatic autopilot; `/game back` ends the pause early; the status shows "away until <t:…:f>";
- `autopilot` (on Kohle, Kies & Knete): the autopilot plays the seat until the time they gave, then stops by itself;
- bad input gets a private answer naming the fix and changes nothing.
"""

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
import simcord

from bot.client import BoardroomBot
from bot.seat_players import AUTOPILOT_NOTE
from bot.settings import Settings
from tests.bot.helpers import embed_text, make_server, start_toy, state, texts, thread_of
from tests.bot.seated import kkk_bot, open_kkk, play_on

HOUR = 3600
DAY = 24 * HOUR


@pytest.fixture
def settings(db_path: Path) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None, discord_token="test-token", database_path=db_path, reminders=False, away_max_days=2
    )


async def deadline(server) -> float:  # type: ignore[no-untyped-def]
    (timer,) = [t for t in await server.bot.store.timers.of_game(1) if t.kind == "deadline"]
    return (timer.due_at - server.bot.clock()).total_seconds()


def status_of(server) -> str:  # type: ignore[no-untyped-def]
    found = [m for m in thread_of(server).history() if m.embeds and "Toy" in (m.embeds[0].title or "")]
    return embed_text(found[-1]) if found else ""


async def test_pause_stops_the_away_players_turn_clock_then_gives_up_after_the_budget(env: simcord.Env) -> None:
    server = make_server(env)
    players = await start_toy(server)
    first = players[0]
    thread = thread_of(server)
    assert await deadline(server) == pytest.approx(DAY, abs=2)
    await env.advance_time(2 * HOUR)

    away = await first.slash(thread, "game away", days=5)
    assert away.response.ephemeral and "You're away for 5 days (until <t:" in away.response.content
    said = texts(thread)
    assert any(
        t.startswith(f"💤 **{first.name}** is away until <t:")
        and "their turns' clocks stop until <t:" in t
        and "a table waits at most 2 days in all for one player" in t
        for t in said
    )
    seat = (await server.bot.store.seats.of_game(1))[0]
    until = int(seat.away_until.timestamp())  # type: ignore[union-attr]
    assert f"💤 **{first.name}** away until <t:{until}:f>" in status_of(server)
    # 22 hours were left; the clock stands still for 2 days (the budget), then runs.
    assert await deadline(server) == pytest.approx(22 * HOUR + 2 * DAY, abs=2)

    await env.advance_time(DAY + HOUR)  # the old deadline has long passed: the turn still waits
    assert (await state(server, 1)).turn == 0
    await env.advance_time(2 * DAY - HOUR - HOUR + 60)  # 22 h + 2 days after going away, and a minute
    assert (await state(server, 1)).turn == 1
    assert any("ran out of time" in t for t in texts(thread))
    assert (await server.bot.store.seats.of_game(1))[0].away_until is not None  # still away, the clock ran

    # The budget is spent: going away again stops nothing more in this game.
    again = await first.slash(thread, "game away", days=2)
    assert again.response.ephemeral
    assert any("have used up the 2 days a table waits for one player in this game" in t for t in texts(thread))


async def test_back_early_ends_the_pause_and_the_clock_keeps_what_it_had(env: simcord.Env) -> None:
    server = make_server(env)
    players = await start_toy(server)
    first = players[0]
    thread = thread_of(server)
    await first.slash(thread, "game away", duration="1d")
    assert await deadline(server) == pytest.approx(2 * DAY, abs=2)  # 24 h left, from the end of the pause
    await env.advance_time(6 * HOUR)
    back = await first.slash(thread, "game back")
    assert back.response.content == "👋 Welcome back: your turns' clocks run again and reaction windows wait for you."
    assert f"👋 **{first.name}** is back." in texts(thread)[-1]
    assert await deadline(server) == pytest.approx(DAY, abs=2)  # paused 6 hours: 24 h left from now
    assert "away until" not in status_of(server)
    await env.advance_time(DAY + 60)
    assert (await state(server, 1)).turn == 1


@pytest.mark.parametrize(
    ("options", "fix"),
    [
        ({"until": "2020-01-01"}, "is in the past: give a day after today"),
        ({"days": -3}, "`days:` must be at least 1 (you gave -3)."),
        ({"days": 10000}, "`days:10000` is too long: at most 60 days"),
        ({"until": "next tuesday"}, "I can't read “next tuesday” as a date: write it as YYYY-MM-DD"),
        ({"until": "2099-01-01"}, "is too far ahead: at most 60 days"),
        ({"duration": "soon"}, "can't read “soon” as a duration"),
        ({}, "Say how long you're away with one of `until:`"),
        ({"days": 2, "duration": "2h"}, "not `days:` and `duration:` together."),
    ],
)
async def test_bad_input_is_answered_privately_and_changes_nothing(
    env: simcord.Env, options: dict[str, object], fix: str
) -> None:
    server = make_server(env)
    players = await start_toy(server)
    thread = thread_of(server)
    before = texts(thread)
    version = (await server.bot.store.games.get(1)).version
    refused = await players[1].slash(thread, "game away", **options)
    assert refused.response.ephemeral and fix in refused.response.content
    assert texts(thread) == before
    assert (await server.bot.store.games.get(1)).version == version
    assert all(s.away_until is None and not s.away_pauses for s in await server.bot.store.seats.of_game(1))


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot], request: pytest.FixtureRequest) -> BoardroomBot:
    if "kkk" in request.node.name:
        return kkk_bot(make_bot)
    return make_bot()


async def test_autopilot_plays_for_the_away_player_in_kkk_until_they_return(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert", "cleo"))
    opened = await open_kkk(server, server.members, bots=0, away="autopilot")
    assert "away: autopilot" in embed_text(opened.response.message)  # the lobby shows the table's choice
    await server.members[0].click(opened.response, label="Start")
    bert = server.members[1]
    thread = thread_of(server)
    away = await bert.slash(thread, "game away", days=2)
    assert away.response.ephemeral
    said = texts(thread)
    assert any("**bert** is away until <t:" in t and "the autopilot plays safe moves for them" in t for t in said)
    seat = (await server.bot.store.seats.of_game(1))[1]
    assert seat.autopilot and seat.away_mode == "autopilot"
    await play_on(server, until=lambda t: False, steps=40)  # type: ignore[arg-type]
    assert any(e.actor_seat == 1 and e.note == AUTOPILOT_NOTE for e in await server.bot.store.log.entries(1))

    gone_at = seat.away_until
    assert gone_at is not None
    await env.advance_time((gone_at - server.bot.clock()).total_seconds() + 1)
    seat = (await server.bot.store.seats.of_game(1))[1]
    assert not seat.autopilot and seat.away_until is None and seat.away_mode is None
    assert any("**bert**'s absence is over: the autopilot no longer plays their seat." in t for t in texts(thread))
    assert gone_at - timedelta(days=2) <= server.bot.clock()

    # Away again, and back early: the autopilot stops at once.
    await bert.slash(thread, "game away", until=(server.bot.clock() + timedelta(days=9)).strftime("%Y-%m-%d"))
    assert (await server.bot.store.seats.of_game(1))[1].autopilot
    back = await bert.slash(thread, "game back")
    assert back.response.content == (
        "👋 Welcome back: the autopilot no longer plays for you (1 game). Reaction windows wait for you again."
    )
    seat = (await server.bot.store.seats.of_game(1))[1]
    assert not seat.autopilot and seat.away_until is None
    assert "👋 **bert** is back. The autopilot no longer plays their seat." in texts(thread)[-1]
    assert not [t for t in await server.bot.store.timers.of_game(1) if t.kind == "away_end"]


async def test_kkk_deadlines_missed_while_away_never_count_toward_the_autopilot(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert", "cleo"))
    opened = await open_kkk(server, server.members, bots=0)
    await server.members[0].click(opened.response, label="Start")
    bert = server.members[1]
    await bert.slash(thread_of(server), "game away", days=20)
    gone = server.bot.clock()
    # bert never moves: 2 days paused (the budget), then his deadlines pass one after another while he is away.
    await play_on(
        server, until=lambda t: t.now - gone > timedelta(days=8), idle=frozenset({1}), steps=3000, chunk=6 * HOUR
    )
    timeouts = [
        e for e in await server.bot.store.log.entries(1) if e.kind == "action" and e.actor_seat is None and e.at > gone
    ]
    assert len(timeouts) >= 3
    seat = (await server.bot.store.seats.of_game(1))[1]
    assert seat.missed == 0 and not seat.autopilot  # three or more misses, none counted
