"""A Kesse Rügen table in Dutch and in German through Discord (SimCord): the narration, the status, the hand DMs,
the prompt's buttons and the final summary speak the table's language, with the rulebook's tubers; a private answer
follows the reader's Discord locale (SimCord's players read en-US): a mixed table."""

import pytest
import simcord

from tests.bot.games import helpers as shared
from tests.bot.helpers import dms, embed_text, make_server

from .helpers import action_prompt, buttons, hand_message, state

WORDS = {
    "nl": {
        "placed": "zet de pion op a1",
        "closed": "is gesloten",
        "reveal": "De vuisten gaan open",
        "plant": "Leggen",
        "planted": "legt een wortel op a1",
        "kinds": ("wortels", "suikerbieten"),
        "hand": "Jij speelt met de **wortels**",
        "asked": "Sluit in het geheim je vuist",
        "closed_on": "je vuist is gesloten om **2 wortels**",
        "nobody": "Niemand raadde goed.",
        "summary": "duels gespeeld · nog in voorraad",
    },
    "de": {
        "placed": "stellt die Figur auf a1",
        "closed": "ist geschlossen",
        "reveal": "Die Fäuste öffnen sich",
        "plant": "Pflanzen",
        "planted": "pflanzt eine Möhre auf a1",
        "kinds": ("Möhren", "Zuckerrüben"),
        "hand": "Du spielst die **Möhren**",
        "asked": "Schließ geheim deine Faust",
        "closed_on": "deine Faust ist um **2 Möhren** geschlossen",
        "nobody": "Niemand hat richtig geraten.",
        "summary": "Duelle gespielt · noch im Vorrat",
    },
}
ENGLISH = ("places their pawn", "fist is closed", "Fists open", "guessed right", "plants a carrot", "carrots")


@pytest.mark.parametrize("lang", ["nl", "de"])
async def test_a_table_in_dutch_or_german(env: simcord.Env, lang: str) -> None:
    words = WORDS[lang]
    server = make_server(env)
    thread, players = await shared.start_game(server, "kesse_ruegen", players=2, language=lang)
    game = await state(server)
    a, b = players[game.first], players[1 - game.first]

    placed = await a.slash(thread, "kr place", square="a1")
    assert placed.response.content.startswith("📍") and words["placed"] in placed.response.content
    await b.slash(thread, "kr place", square="e5")  # two players: the duel is on by itself
    assert words["hand"] in embed_text(hand_message(a)) and words["asked"] in embed_text(hand_message(a))
    for member in (a, b):
        await member.user.click(hand_message(member), label="2")
    assert words["closed_on"] in embed_text(hand_message(a))
    assert buttons(hand_message(a)) == ["0", "1", "2", "3", "4"]  # the fist closed; the guess is asked on the hand

    await a.slash(thread, "kr guess", total=4)
    revealed = await b.slash(thread, "kr guess", total=0)
    assert words["reveal"] in revealed.response.content
    clicked = await a.click(action_prompt(thread), label=words["plant"])
    assert not clicked.response.ephemeral
    assert words["planted"] in action_prompt(thread).content

    status = next(m for m in thread.history() if m.embeds and m.embeds[0].title == "Kesse Rügen #1")
    assert all(kind in embed_text(status) for kind in words["kinds"])
    said = "\n".join(m.content for m in thread.history())
    assert words["closed"] in said
    assert not [phrase for phrase in ENGLISH if phrase in said], said

    # A private answer follows the reader's own Discord locale (en-US here), not the table's.
    refused = await a.slash(thread, "kr place", square="c3")
    assert refused.response.ephemeral and "All pawns are already placed" in refused.response.content
    assert len(dms(a)) == 1  # the hand, edited in place


@pytest.mark.parametrize("lang", ["nl", "de"])
async def test_a_duel_nobody_wins_is_told_in_the_tables_language(env: simcord.Env, lang: str) -> None:
    words = WORDS[lang]
    server = make_server(env)
    thread, players = await shared.start_game(server, "kesse_ruegen", players=2, language=lang)
    game = await state(server)
    a, b = players[game.first], players[1 - game.first]
    await a.slash(thread, "kr place", square="a1")
    await b.slash(thread, "kr place", square="e5")
    for member in (a, b):
        await member.user.click(hand_message(member), label="0")
    await a.slash(thread, "kr guess", total=4)
    revealed = await b.slash(thread, "kr guess", total=3)
    assert words["nobody"] in revealed.response.content
