"""The autopilot and the computer players' limits through Discord (SimCord), on Kohle, Kies & Knete tables.

- `/mod kick` puts the seat on autopilot and the game goes on to its end (the middle on the engine alone, as in
  `test_computer_players`);
- `/mod autopilot on` and the player taking their seat back with `/game back`;
- a player who lets 3 turn deadlines pass in a row is warned by DM after the 2nd and put on autopilot at the 3rd;
- a computer player never makes more moves an hour than the cap (`COMPUTER_MOVES_PER_HOUR`, 4 here);
- a computer player's timer pending when the bot restarts fires after the restart.
"""

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import discord
import pytest
import simcord

from bot.client import BoardroomBot
from bot.seat_players import AUTOPILOT_NOTE, BOT_NOTE, SEAT
from bot.settings import Settings
from tests.bot.helpers import Server, dms, embed_text, make_server, thread_of
from tests.bot.seated import fast_forward, kkk_bot, open_kkk, play_on


@pytest.fixture
def settings(db_path: Path) -> Settings:
    """Reminders off (fewer timers to step through); a low hourly cap, so the cap shows within a short game."""
    return Settings(  # type: ignore[call-arg]
        _env_file=None, discord_token="test-token", database_path=db_path, reminders=False, computer_moves_per_hour=4
    )


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot]) -> BoardroomBot:
    return kkk_bot(make_bot)


def moderator(server: Server) -> simcord.MemberActor:
    admins = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return server.guild.add_member(server.env.create_user("mia"), roles=[admins])


async def started(server: Server, bots: int = 0) -> simcord.InteractionResult:
    opened = await open_kkk(server, server.members, bots=bots)
    await server.members[0].click(opened.response, label="Start")
    return opened


def status_text(server: Server) -> str:
    """The status embed alone (the message it sits in may carry older narration above it)."""
    thread = thread_of(server)
    status = next(m for m in thread.history() if m.embeds and "Kohle" in (m.embeds[0].title or ""))
    return embed_text(status).removeprefix(status.content)


async def test_a_kick_puts_the_seat_on_autopilot_and_the_game_finishes(env: simcord.Env) -> None:
    server = make_server(env)
    cleo = server.members[2]
    mia = moderator(server)
    await started(server)
    await play_on(server, until=lambda t: t.state.deals >= 1)  # type: ignore[union-attr]

    kicked_at = (await server.bot.store.games.get(1)).version
    kicked = await mia.slash(thread_of(server), "mod kick", player=cleo)
    assert kicked.response.content.startswith(
        "🛡️ Moderator **mia** removed cleo from the game: the autopilot plays their seat from now on"
    )
    seat = (await server.bot.store.seats.of_game(1))[2]
    assert seat.player_id is None and seat.autopilot and seat.display_name == "cleo"
    assert (await server.bot.store.games.get(1)).status == "active"
    assert "cleo (autopilot)" in status_text(server)
    assert "the autopilot plays your seat" in dms(cleo)[0].content  # her hand DM says goodbye
    back = await cleo.slash(thread_of(server), "game back")
    assert back.response.ephemeral and back.response.content == "You're not in any game in this server."

    await fast_forward(server, deals=10)
    await play_on(server, chunk=600)
    assert (await server.bot.store.games.get(1)).status == "finished"
    entries = [e for e in await server.bot.store.log.entries(1, after=kicked_at) if e.kind == "action"]
    by_autopilot = [e for e in entries if e.actor_seat == 2]
    assert by_autopilot and all(e.user_id is None and e.note == AUTOPILOT_NOTE for e in by_autopilot)
    assert {e.actor_seat for e in entries if e.user_id is not None} <= {0, 1, 3}
    thread_texts = [m.content for m in thread_of(server).history() if m.content]
    assert not any(f"<@{cleo.id}>" in t for t in thread_texts[-len(by_autopilot) :])  # the autopilot is never pinged


async def test_autopilot_on_and_the_player_takes_the_seat_back(env: simcord.Env) -> None:
    server = make_server(env)
    dave = server.members[3]
    mia = moderator(server)
    await started(server)
    thread = thread_of(server)

    refused = await mia.slash(thread, "mod autopilot", mode="off", player=dave)
    assert refused.response.ephemeral and refused.response.content == "dave's seat isn't on autopilot."
    on = await mia.slash(thread, "mod autopilot", mode="on", player=dave)
    assert "put **dave**'s seat on autopilot" in on.response.content
    assert (await server.bot.store.seats.of_game(1))[3].autopilot and "dave (autopilot)" in status_text(server)
    # The others play on; dave's seat plays itself.
    await play_on(server, until=lambda t: False, steps=40)  # type: ignore[arg-type]
    entries = await server.bot.store.log.entries(1)
    assert any(e.actor_seat == 3 and e.note == AUTOPILOT_NOTE for e in entries)
    assert not any(e.user_id == dave.id and e.kind == "action" for e in entries)

    back = await dave.slash(thread, "game back")
    assert back.response.content == "👋 Welcome back: the autopilot no longer plays for you (1 game)."
    seat = (await server.bot.store.seats.of_game(1))[3]
    assert not seat.autopilot and seat.player_id == dave.id
    assert "🎮 **dave** is back: the autopilot no longer plays their seat." in [m.content for m in thread.history()][-1]
    assert "dave (autopilot)" not in status_text(server)
    assert not [t for t in await server.bot.store.timers.of_game(1) if t.kind == SEAT]  # nobody plays itself any more


async def test_a_player_who_moves_again_is_no_longer_missing_deadlines(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert", "cleo"))
    bert = server.members[1]
    await started(server)
    await play_on(server, until=lambda table: table.seats[1].missed == 2, idle=frozenset({1}), steps=400)
    assert (await server.bot.store.seats.of_game(1))[1].missed == 2
    moved_before = sum(e.user_id == bert.id for e in await server.bot.store.log.entries(1))

    async def bert_moved() -> bool:
        return sum(e.user_id == bert.id for e in await server.bot.store.log.entries(1)) > moved_before

    for _ in range(40):  # everyone plays, bert too, until bert has made a move of his own
        if await bert_moved():
            break
        await play_on(server, until=lambda t: False, steps=1)  # type: ignore[arg-type]
    assert await bert_moved()
    seat = (await server.bot.store.seats.of_game(1))[1]
    assert seat.missed == 0 and not seat.autopilot  # the count is of deadlines missed *in a row*
    assert (await server.bot.service.read.table(1)).seats[1].missed == 0  # and the table the bot keeps says so too


async def test_three_missed_deadlines_in_a_row_turn_the_autopilot_on(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert", "cleo"))
    bert = server.members[1]
    await started(server)
    warned = False

    def on_autopilot(table) -> bool:  # type: ignore[no-untyped-def]
        nonlocal warned
        seat = table.seats[1]
        warned = warned or seat.missed == 2
        return seat.autopilot

    await play_on(server, until=on_autopilot, idle=frozenset({1}), steps=400)
    assert warned
    warning = [m.content for m in dms(bert) if "in a row" in m.content]
    assert warning == [
        "⏰ You let 2 deadlines pass in a row in **Kohle, Kies & Knete #1**. If the next one passes too, the "
        "autopilot plays your seat (safe moves only) until you use `/game back`."
    ]
    said = "\n".join(m.content for m in thread_of(server).history())
    assert "🤖 **bert** let 3 deadlines pass in a row: the autopilot plays their seat now" in said
    seat = (await server.bot.store.seats.of_game(1))[1]
    assert seat.autopilot and seat.missed == 0 and seat.player_id == bert.id
    # From now on the autopilot answers for bert, well before any deadline.
    await play_on(server, until=lambda t: False, steps=30)  # type: ignore[arg-type]
    assert any(e.actor_seat == 1 and e.note == AUTOPILOT_NOTE for e in await server.bot.store.log.entries(1))


async def test_a_computer_player_never_moves_faster_than_the_cap(env: simcord.Env) -> None:
    server = make_server(env, ("anna",))
    await started(server, bots=2)
    await play_on(server, until=lambda t: False, steps=60, chunk=600)  # type: ignore[arg-type]
    moves = [e for e in await server.bot.store.log.entries(1) if e.note == BOT_NOTE]
    for seat in (1, 2):
        times = sorted(e.at for e in moves if e.actor_seat == seat)
        assert len(times) >= 5
        # In every hour, at most 4 moves: the 5th move after any move comes an hour or more after it.
        assert all(later - first >= timedelta(hours=1) for first, later in zip(times, times[4:], strict=False))


async def test_a_computer_players_timer_fires_after_a_restart(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    server = make_server(env, ("anna",))
    await started(server, bots=2)

    def bot_awaited(table) -> bool:  # type: ignore[no-untyped-def]
        return any(s in (1, 2) for w in table.waits for s in w.seats)

    await play_on(server, until=bot_awaited, steps=50)
    (pending,) = [t for t in await server.bot.store.timers.of_game(1) if t.kind == SEAT]
    seat = pending.payload["seat"]
    version = (await server.bot.store.games.get(1)).version

    env.bot.scheduler.close()
    await env.restart_bot(kkk_bot(make_bot))
    await env.advance_time((pending.due_at - server.bot.clock()).total_seconds() + 1)
    entry = await server.bot.store.log.entry(1, version + 1)
    assert entry.actor_seat == seat and entry.note == BOT_NOTE and entry.user_id is None
