"""A Kohle, Kies & Knete table in Dutch and in German through Discord (SimCord): the narration, the status and its
buttons, and the hand DMs speak the table's language, in the rulebooks' words; a private answer follows the reader's
Discord locale (SimCord's players read en-US): a mixed table."""

import pytest
import simcord

from engine import registry
from tests.bot.games import helpers as shared
from tests.bot.helpers import dms, embed_text, make_server

WORDS = {
    "nl": {
        "placed": "zet het dollarteken op veld 8",
        "status": "Dollarteken op veld 8",
        "open": "Deal openen",
        "opened": "Ik rond de deal af!",
        "hand": "Je hand",
        "money": "Je geld",
    },
    "de": {
        "placed": "setzt den Dollarstein auf Feld 8",
        "status": "Dollarstein auf Feld 8",
        "open": "Deal eröffnen",
        "opened": "Let's make a deal!",
        "hand": "Deine Hand",
        "money": "Dein Geld",
    },
}
ENGLISH = ("places the dollar marker", "Marker on space", "Your hand", "opens space")


@pytest.mark.parametrize("lang", ["nl", "de"])
async def test_a_table_in_dutch_or_german(env: simcord.Env, lang: str) -> None:
    words = WORDS[lang]
    server = make_server(env, ("anna", "bert", "cleo"))
    thread, players = await shared.start_game(server, "kkk", players=3, language=lang)
    state = registry.get("kkk").load_state((await server.bot.store.games.snapshot(1)).state)
    placer, starter = players[state.placer], players[state.turn]

    placed = await placer.slash(thread, "kkk place", space=8)
    assert words["placed"] in placed.response.content
    status = next(m for m in thread.history() if m.embeds and m.embeds[0].title.startswith("Kohle, Kies & Knete"))
    assert words["status"] in embed_text(status)
    await starter.click(status, label=words["open"])  # the status is brought up to date; the narration is posted
    assert words["opened"] in "\n".join(m.content for m in thread.history())
    hand = dms(starter)[-1]
    assert words["hand"] in embed_text(hand) and words["money"] in embed_text(hand)
    said = "\n".join(m.content for m in thread.history())
    assert not [phrase for phrase in ENGLISH if phrase in said], said

    # A private answer follows the reader's own Discord locale (en-US here), not the table's.
    refused = await placer.slash(thread, "kkk place", space=3)
    assert refused.response.ephemeral and "The dollar marker has already been placed." in refused.response.content
