"""Whole games through Discord (SimCord) at a Dutch and at a German table: the HQ variant for three, from `/game new`
to the win, with commands typed as anyone would. What the table reads of Casablanca — the narration, the
announcement posts, the status, the bribe sheets — is in the table's language; none of the game's English lines
comes through."""

import pytest
import simcord
from simcord import ChannelHandle, MemberActor

from tests.bot.games import helpers as shared
from tests.bot.helpers import Server, embed_text, make_server

from .helpers import hand_message, state, status

ENGLISH = ("announces:", "wins Casablanca", "The suitcase", "bribed.", "Do you object?", "No objections.", "HQ of")
"""Lines of the game's own English that must not reach a Dutch or German table."""
WORDS = {
    "nl": ("kondigt aan", "wint Casablanca!", "koffer", "Mijn omkoopformulier", "Kapitaal over"),
    "de": ("sagt an", "gewinnt Casablanca!", "Koffer", "Meine Bestechungsliste", "Kapital übrig"),
}


async def announce_and_pass(
    server: Server, thread: ChannelHandle, players: list[MemberActor], agent: str, to: str, case: bool
) -> None:
    game = await state(server)
    said = await players[game.turn].slash(thread, "cb move", agent=agent, to=to, suitcase=case)
    assert said.response.content.startswith("📣"), said.response.content
    for seat in list((await state(server)).awaited):
        answered = await players[seat].slash(thread, "cb noobjection")
        assert answered.response.ephemeral


async def start_game(server: Server, lang: str) -> tuple[ChannelHandle, list[MemberActor]]:
    """`/game new game:casablanca options:variant=hq language:<lang>`, two joins, Start."""
    return await shared.start_game(server, "casablanca", players=3, options="variant=hq", language=lang)


@pytest.mark.parametrize("lang", ["nl", "de"])
async def test_a_variant_game_at_a_dutch_or_german_table(env: simcord.Env, lang: str) -> None:
    server = make_server(env)
    thread, players = await start_game(server, lang)
    anna, bert, cleo = players
    await anna.slash(thread, "cb hq", hq="Hotel")
    await bert.slash(thread, "cb hq", hq="Police Station")
    await cleo.slash(thread, "cb hq", hq="Airport")
    assert (await state(server)).turn == 1
    await announce_and_pass(server, thread, players, "yellow", "7", False)  # bert
    await announce_and_pass(server, thread, players, "yellow", "4", False)  # cleo
    await announce_and_pass(server, thread, players, "yellow", "Bazaar", False)  # anna
    await announce_and_pass(server, thread, players, "yellow", "4", True)  # bert takes the suitcase
    await cleo.slash(thread, "cb bribe", amounts="red 500")
    await announce_and_pass(server, thread, players, "white", "1", False)  # anna
    await announce_and_pass(server, thread, players, "yellow", "7", True)  # bert
    await cleo.slash(thread, "cb bribe", amounts="blue 300")
    await anna.slash(thread, "cb bribe", amounts="grey 100")
    before = status(thread)  # before the end: the sheet button is still there
    labels = " ".join(getattr(c, "label", None) or "" for row in before.components for c in row.children)
    board = embed_text(before) + "\n" + labels
    await announce_and_pass(server, thread, players, "yellow", "Police Station", True)  # bert brings it in

    final = await state(server)
    assert final.phase == "over" and final.winners == [1]
    text = "\n".join([*(m.content for m in thread.history()), embed_text(status(thread)), board])
    sheet = embed_text(hand_message(anna))
    for word in WORDS[lang]:
        assert word in text or word in sheet or word in board, (word, text[-1500:])
    for english in ENGLISH:
        assert english not in text, (english, text)
