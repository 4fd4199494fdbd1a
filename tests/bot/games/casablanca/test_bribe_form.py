"""Casablanca's bribe on a phone: the first turn's bribe of three agents is made with the sheet's buttons and a form
(a modal with an amount per agent), never by typing `purple 1300, green 500, grey 400` — and `/game help` names
that button while it is there."""

import simcord

from tests.bot.helpers import embed_text, make_server

from .helpers import hand_message, labels, start_game, state


async def test_the_first_bribe_is_picked_with_buttons_and_written_in_a_form(env: simcord.Env) -> None:
    server = make_server(env)
    thread, players = await start_game(server, players=4)
    game = await state(server)
    bert = players[game.turn]  # whoever begins (drawn at random)
    sheet = hand_message(bert)
    assert "Bribe…" in labels(sheet), embed_text(sheet)

    # `/game help` names the button that is there.
    helped = await bert.slash(thread, "game help")
    assert "**Bribe…** on your sheet" in embed_text(helped.response.message)

    # Pick three agents (each click toggles one), then Amounts… opens the form.
    picked = await bert.user.click(sheet, label="Bribe…")
    assert picked.response.ephemeral and "Amounts…" not in labels(picked)
    agents = [a.name for a in game.agents][:3]
    for name in agents:
        picked = await bert.user.click(picked.response.message, label=name)
    assert "Amounts…" in labels(picked), labels(picked)
    shown = await bert.user.click(picked.response.message, label="Amounts…")
    assert shown.modal is not None
    fields = [c["components"][0] for c in shown.modal["components"]]
    assert [f["label"].split(" (")[0] for f in fields] == agents
    done = await bert.user.submit_modal(shown, {"field0": "1300", "field1": "$500", "field2": "400"})
    assert done.response.ephemeral and "Done" in done.response.content

    after = await state(server)
    assert after.bribes[game.turn][:3] == [1300, 500, 400] and after.started[game.turn]
