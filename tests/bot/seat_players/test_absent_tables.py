"""A table nobody plays in person any more plays on to its end (Discord through SimCord, simulated time).

Decision (issue 16, "no table stalls"): a table whose every seat plays itself — every person kicked or on autopilot,
the others computer players — is not paused: the autopilot plays it to the end by the rules, which the policies
guarantee (`benchmarks/bots.py --ends`: every all-autopilot table of every game ends within a bounded number of
actions), and each switch to the autopilot says so in the thread, so a moderator sees why the table moves by
itself. A player who comes back takes their seat with `/game back`; a moderator can still end the game.

Here a Kohle, Kies & Knete table of three people, all three kicked by a moderator before the first deal: nobody
drives the test's table any more (`play_on` finds no person to move and only lets simulated time run), and the
autopilots' own timers conclude deals (the game ends only after concluded deals: autopilots that only rolled and drew
would play for ever) until the die ends the game.
"""

from collections.abc import Callable
from pathlib import Path

import discord
import pytest
import simcord

from bot.client import BoardroomBot
from bot.seat_players import AUTOPILOT_NOTE
from bot.settings import Settings
from tests.bot.helpers import make_server, thread_of
from tests.bot.seated import kkk_bot, open_kkk, play_on


@pytest.fixture
def settings(db_path: Path) -> Settings:
    return Settings(_env_file=None, discord_token="test-token", database_path=db_path, reminders=False)  # type: ignore[call-arg]


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot]) -> BoardroomBot:
    return kkk_bot(make_bot)


async def test_a_table_whose_every_player_was_kicked_plays_on_to_its_end(env: simcord.Env) -> None:
    server = make_server(env, ("anna", "bert", "cleo"))
    admins = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mia = server.guild.add_member(server.env.create_user("mia"), roles=[admins])
    opened = await open_kkk(server, server.members, bots=0)
    await server.members[0].click(opened.response, label="Start")
    for n, member in enumerate(server.members):
        kicked = await mia.slash(thread_of(server), "mod kick", player=member)
        assert "the autopilot plays their seat" in kicked.response.content
        # The last kick says the table now plays itself to its end; the ones before don't.
        assert ("Nobody plays this table in person any more" in kicked.response.content) == (n == 2)
    kicked_at = (await server.bot.store.games.get(1)).version
    assert all(s.autopilot and s.player_id is None for s in await server.bot.store.seats.of_game(1))

    await play_on(server, steps=3000)

    table = await server.bot.service.read.table(1)
    assert table.record.status == "finished"
    assert table.state is not None and table.state.deals >= 10  # ended by the die after concluded deals
    moves = [e for e in await server.bot.store.log.entries(1, after=kicked_at) if e.kind == "action"]
    by_seats = [e for e in moves if e.actor_seat is not None]
    assert by_seats and all(e.user_id is None and e.note == AUTOPILOT_NOTE for e in by_seats)
    assert {e.actor_seat for e in by_seats} == {0, 1, 2}
    kinds = {str(e.action.get("type")) for e in by_seats}
    assert {"open", "close"} <= kinds  # the autopilots opened and concluded deals themselves
