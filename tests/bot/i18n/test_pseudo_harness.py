"""The harness of the whole-game language tests itself (`pseudo`): what it collects, what it strips, what it records."""

import gettext
from typing import Any

import pytest
import simcord
from PIL import Image, ImageDraw

import bot.i18n
from bot import drawing
from bot.i18n import PSEUDO, Words, current, speaking
from tests.bot.helpers import make_server
from tests.bot.i18n.pseudo import Lookups, Transcript, discord_locales, unmarked, visible

BUTTONS = [
    {"type": 1, "components": [{"type": 2, "style": 1, "label": "⟦Roll⟧", "custom_id": "x", "emoji": {"name": "🎲"}}]},
    {
        "type": 1,
        "components": [
            {
                "type": 3,
                "custom_id": "y",
                "placeholder": "Pick one",
                "options": [{"label": "⟦Coal⟧", "value": "coal", "description": "a card"}],
            }
        ],
    },
]
EMBED = {
    "title": "⟦Status⟧",
    "description": "Round ⟦2⟧",
    "fields": [{"name": "⟦Money⟧", "value": "$5M", "inline": True}],
    "footer": {"text": "⟦Game #1⟧", "icon_url": "https://x/y.png"},
    "author": {"name": "Boardroom", "url": "https://x"},
}


def test_what_a_person_reads_of_a_payload() -> None:
    found = {text for _, text in visible({"content": "Hi", "embeds": [EMBED]}, "t")}
    found |= {text for _, text in visible(BUTTONS, "t")}
    assert found == {
        "Hi",
        "⟦Status⟧",
        "Round ⟦2⟧",
        "⟦Money⟧",
        "$5M",
        "⟦Game #1⟧",
        "Boardroom",
        "⟦Roll⟧",
        "Pick one",
        "⟦Coal⟧",
        "a card",
    }  # not the custom ids, the options' values, the emoji or the URLs
    modal = {"title": "⟦Bribe⟧", "custom_id": "m", "components": [{"type": 4, "label": "Amount", "value": "3"}]}
    assert {text for _, text in visible(modal, "m")} == {"⟦Bribe⟧", "Amount", "3"}


async def test_the_transcript_checks_each_text_as_discord_stores_it_and_keeps_it_unmarked(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcript = Transcript.install(env, monkeypatch, pseudo=True, names={"anna"})
    assert current() == PSEUDO  # every context speaks the pseudo-language
    with speaking("nl"):
        assert current() == PSEUDO
    server = make_server(env, ("anna",))
    backend = env.backend
    me = backend.bot_user.id
    made = backend.create_message(server.channel.id, me, "⟦Your turn, anna⟧", embeds=[EMBED], components=BUTTONS)
    stored = backend.messages[server.channel.id][made.id]
    assert stored.content == "Your turn, anna" and stored.embeds[0]["title"] == "Status"
    assert stored.components[0]["components"][0]["label"] == "Roll"
    backend.edit_message(server.channel.id, made.id, {"content": "⟦Over⟧ now"})
    assert backend.messages[server.channel.id][made.id].content == "Over now"
    # "Round", "Pick one", "a card" and the edit's "now" ("$5M": a single capital is a mark, not a word).
    assert transcript.offenders.count == 4
    words = {w for _, ws in transcript.offenders.found.values() for w in ws}
    assert words == {"Round", "Pick", "one", "a", "card", "now"}
    with pytest.raises(AssertionError, match="hold unwrapped words"):
        transcript.assert_all_wrapped()

    # Words on a picture: recorded as drawn, marks kept (the font lacks them, but `plain` must not drop them).
    image = Image.new("RGB", (200, 50))
    drawing.text(ImageDraw.Draw(image), (0, 0), drawing.plain("⟦Round⟧ 2 · die"), 12)
    assert transcript.drawn == ["⟦Round⟧ 2 · die"]
    assert transcript.offenders.found["⟦Round⟧ 2 · die"][1] == ["die"]
    assert "Your turn, anna" in transcript.lines()


async def test_each_reader_has_their_own_discord_locale(env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> None:
    discord_locales(monkeypatch, {"anna": "en-US"}, "nl")
    server = make_server(env, ("anna", "bert"))
    for member in server.members:
        await member.slash(server.channel, "game list")
    sent = [p for kind, event, p in env.backend.transcript if kind == "GATEWAY" and event == "INTERACTION_CREATE"]
    assert [(p["locale"], p["guild_locale"]) for p in sent] == [("en-US", "nl"), ("nl", "nl")]


def test_lookups_record_the_language_and_whether_the_catalog_had_it(monkeypatch: pytest.MonkeyPatch) -> None:
    dutch: Any = gettext.GNUTranslations.__new__(gettext.GNUTranslations)
    dutch._catalog, dutch._fallback, dutch.plural = {"Roll": "Gooien", ("%(n)d card", 0): "%(n)d kaart"}, None, None
    dutch.plural = lambda n: int(n != 1)
    real = bot.i18n.translation
    monkeypatch.setattr(bot.i18n, "translation", lambda d, lang: dutch if lang == "nl" else real(d, lang))
    lookups = Lookups.install(monkeypatch)
    _, n_ = Words("kkk")._, Words("kkk").n_
    with speaking("nl"):
        assert (_("Roll"), _("Pass"), n_("%(n)d card", "%(n)d cards", 1)) == ("Gooien", "Pass", "1 kaart")
    with speaking("en"):
        _("Roll")
    assert [x.message for x in lookups.untranslated("nl")] == ["Pass"]
    assert [x.said for x in lookups.shown("nl", "kkk")] == ["Gooien", "%(n)d kaart"]
    assert unmarked("⟦a ⟦b⟧⟧") == "a b"
