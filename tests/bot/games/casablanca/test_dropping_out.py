"""A waiting objector drops out (issue 23, part 2): `/cb dropobjection` or the sheet's **Drop objection** button,
privately confirmed; the thread reads "X dropped their objection"; the active player is not asked about them."""

import simcord

from bot.games.casablanca import presentation
from engine.casablanca.actions import DropObjection
from tests.bot.helpers import make_server
from tests.engine.casablanca.helpers import opened

from .helpers import start_game, state
from .test_presentation import table


async def test_a_queued_objector_drops_out_with_a_command(env: simcord.Env) -> None:
    server = make_server(env)
    thread, (anna, bert, cleo) = await start_game(server, players=3, options="first_seat=1")
    await anna.slash(thread, "cb bribe", amounts="red 700, green 100, blue 100")
    await bert.slash(thread, "cb bribe", amounts="red 900, green 100, blue 100")
    await cleo.slash(thread, "cb bribe", amounts="red 100, green 100, blue 100")
    await anna.slash(thread, "cb move", agent="red", to="2")
    await bert.slash(thread, "cb object", limit=900)
    await cleo.slash(thread, "cb object", limit=100)
    assert (await state(server)).objections[1].seat == 2
    dropped = await cleo.slash(thread, "cb dropobjection")
    assert dropped.response.ephemeral and "You drop your objection" in dropped.response.content
    said = "\n".join(m.content for m in thread.history())
    assert f"{cleo.name} dropped their objection." in said
    game = await state(server)
    assert [o.seat for o in game.objections] == [1]


def test_the_sheet_of_a_waiting_objector_has_a_drop_objection_button() -> None:
    play = opened(3, s1={"red": 300, "green": 100, "blue": 100}, s2={"red": 300, "green": 100, "blue": 100})
    play.move(0, "red", "2")
    play.objections({1: 300, 2: 300})
    t = table(play.state)
    queued = presentation.private_view(t, 2)
    assert [b.key for b in queued.buttons] == ["drop.1"] and "/cb dropobjection" in (queued.description or "")
    taken = presentation.private_view(t, 1)
    assert [b.key for b in taken.buttons] == ["drop.1"] and "being taken" in (taken.description or "")
    assert presentation.controls.button_action(t, 2, "drop.1") == DropObjection()
    help_line = presentation.help_line(t, 2, "drop_objection", [DropObjection()])
    assert help_line is not None and "/cb dropobjection" in help_line
