"""Issue 28: private answers in the reader's language, the table's language, and the server's.

A private answer (an ephemeral reply or refusal) follows the reader's Discord client language (`interaction.locale`)
where it is one of ours (nl, de, en); else the table's, when the command concerns a game; else the server's default
(`/mod defaults language:`, else the server's preferred locale). `/game new language:` sets a table's language;
without it the server's. `/game rules` shows a table's rules in its language.

SimCord sends every interaction with the locale "en-US"; the `locales` fixture gives a test user another, the way
Discord's client does (a per-user `locale` in the interaction's payload).
"""

import re
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest
import simcord
import simcord.interactions as sim_interactions

from bot import reader
from bot.rules import load as load_rules
from tests.bot.helpers import embed_text, make_server, seat_players, thread_of


@pytest.fixture
def locales(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[int, str]]:
    """user id → the Discord locale their client sends (default en-US)."""
    chosen: dict[int, str] = {}
    original = sim_interactions.base_payload

    def with_locale(*args, **kwargs):  # type: ignore[no-untyped-def]
        record, payload = original(*args, **kwargs)
        payload["locale"] = chosen.get(kwargs["user_id"], "en-US")
        return record, payload

    monkeypatch.setattr(sim_interactions, "base_payload", with_locale)
    yield chosen


def _moderator(server, env: simcord.Env):  # type: ignore[no-untyped-def]
    admins = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return server.guild.add_member(env.create_user("mia"), roles=[admins])


async def _started(server, **new: object):  # type: ignore[no-untyped-def]
    opened = await server.members[0].slash(server.channel, "game new", game="toy", **new)
    game_id = (await server.bot.store.games.find())[-1].id  # the lobby's buttons by id: their labels are translated
    await server.members[1].click(opened.response, custom_id=f"br:{game_id}:join")
    await server.members[0].click(opened.response, custom_id=f"br:{game_id}:start")
    return opened


UNREADABLE_EN = "I can't read that move: pick one of the suggestions that `/game move` shows."
UNREADABLE_NL = (
    "Ik kan die zet niet lezen: kies een van de suggesties die `/spel zet` toont."  # the names nl clients show
)
UNREADABLE_DE = "Ich kann diesen Zug nicht lesen: wähle einen der Vorschläge, die `/spiel zug` zeigt."


async def test_a_dutch_reader_gets_a_dutch_refusal_at_an_english_table(
    env: simcord.Env, locales: dict[int, str]
) -> None:
    server = make_server(env)
    await _started(server)
    record = await server.bot.store.games.get(1)
    assert record.options["language"] == "en"
    first = (await seat_players(server, 1))[0]
    locales[first.id] = "nl"
    refused = await first.slash(thread_of(server), "game move", action="[1, 2]")
    assert refused.response.ephemeral
    assert refused.response.content.startswith(UNREADABLE_NL), refused.response.content
    assert "`/spel hulp` zegt wat je nu kunt doen." in refused.response.content
    # Someone else at the same table, with an English client, reads English.
    other = (await seat_players(server, 1))[1]
    english = await other.slash(thread_of(server), "game move", action="[1, 2]")
    assert english.response.content.startswith(UNREADABLE_EN)


async def test_the_mixed_table_english_reader_at_a_dutch_table(env: simcord.Env, locales: dict[int, str]) -> None:
    server = make_server(env)
    anna, bert = server.members[0], server.members[1]
    locales[anna.id] = "nl"
    opened = await _started(server, language="nl")
    assert (await server.bot.store.games.get(1)).options["language"] == "nl"
    assert "Nederlands" in embed_text(opened.response.message)  # the lobby says the table's language
    # bert's client is English: his refusal is English at the Dutch table; anna's is Dutch.
    refused = await bert.slash(thread_of(server), "game move", action="[1, 2]")
    assert refused.response.content.startswith(UNREADABLE_EN), refused.response.content
    dutch = await anna.slash(thread_of(server), "game move", action="[1, 2]")
    assert dutch.response.content.startswith(UNREADABLE_NL), dutch.response.content
    # A reader whose language is none of ours (French) reads the table's.
    locales[bert.id] = "fr"
    french = await bert.slash(thread_of(server), "game move", action="[1, 2]")
    assert french.response.content.startswith(UNREADABLE_NL), french.response.content


async def test_game_new_language_de_makes_a_german_table(env: simcord.Env, locales: dict[int, str]) -> None:
    server = make_server(env)
    cleo = server.members[2]
    opened = await _started(server, language="de")
    assert (await server.bot.store.games.get(1)).options["language"] == "de"
    assert "Deutsch" in embed_text(opened.response.message)
    locales[cleo.id] = "ja"  # not one of ours, and not seated: the table's language still
    refused = await cleo.slash(thread_of(server), "game move", action="[1, 2]")
    assert refused.response.ephemeral
    assert "Deutsch" not in refused.response.content
    assert re.search(r"Spiel|Tisch|Zug|Platz", refused.response.content), refused.response.content
    # The table's rules in its language (the toy game has no page of its own: the words around it are German).
    rules = await server.members[0].slash(thread_of(server), "game rules")
    assert "Seite 1 von 1 · 2–5 Spieler" in embed_text(rules.response.message), embed_text(rules.response.message)


async def test_the_servers_default_language(env: simcord.Env, locales: dict[int, str]) -> None:
    server = make_server(env)
    mia = _moderator(server, env)
    shown = await mia.slash(server.channel, "mod defaults")
    assert "• Language: not set — the server's (English)" in shown.response.content
    changed = await mia.slash(server.channel, "mod defaults", language="nl")
    assert not changed.response.ephemeral
    # Announced publicly in the server's language, now Dutch.
    assert "• Taal: **Nederlands**" in changed.response.content, changed.response.content
    assert (await server.bot.store.settings.guild(server.guild.id)).language == "nl"
    await server.members[0].slash(server.channel, "game new", game="toy")
    assert (await server.bot.store.games.get(1)).options["language"] == "nl"
    # The table's own choice wins.
    await server.members[0].slash(server.channel, "game new", game="toy", language="en")
    assert (await server.bot.store.games.get(2)).options["language"] == "en"
    # A reader whose client language is none of ours, with no game in question: the server's language.
    locales[server.members[3].id] = "fr"
    away = await server.members[3].slash(server.channel, "game away", days=0)
    assert away.response.content == "`days:` moet minstens 1 zijn (je gaf 0).", away.response.content
    # `reset` goes back to the server's Discord language (English here).
    reset = await mia.slash(server.channel, "mod defaults", language="reset")
    assert "• Language: not set — the server's (English)" in reset.response.content
    assert (await server.bot.store.settings.guild(server.guild.id)).language is None


async def test_the_servers_preferred_locale_is_the_fallback(env: simcord.Env, locales: dict[int, str]) -> None:
    guild = env.create_guild(preferred_locale="de")
    channel = guild.create_text_channel("spiele")
    anna = guild.add_member(env.create_user("anna"))
    await anna.slash(channel, "game new", game="toy")
    assert (await env.bot.store.games.get(1)).options["language"] == "de"  # type: ignore[attr-defined]
    locales[anna.id] = "pt-BR"
    refused = await anna.slash(channel, "game away", days=0)
    assert refused.response.content == "`days:` muss mindestens 1 sein (du hast 0 angegeben)."


async def test_answers_in_the_pseudo_language_leave_no_word_unmarked(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every reader reads `qps`: each answer's words must be wrapped in ⟦…⟧ (values inside them are the caller's)."""
    monkeypatch.setattr(reader, "own_language", lambda interaction: "qps")
    server = make_server(env)
    mia = _moderator(server, env)
    anna = server.members[0]
    answers = [
        await anna.slash(server.channel, "game new", game="chess"),
        await anna.slash(server.channel, "game new", game="toy", seats=9),
        await anna.slash(server.channel, "game new", game="toy", options="flying=3"),
        await anna.slash(server.channel, "game new", game="toy", options="hand_size"),
        await anna.slash(server.channel, "game new", game="toy", reaction_time="1h", reaction_minutes=5),
        await anna.slash(server.channel, "game new", game="toy", options="language=nl"),
        await anna.slash(server.channel, "mod defaults"),
        await mia.slash(server.channel, "mod defaults"),
        await mia.slash(server.channel, "mod defaults", turn_deadline="30m"),
        await mia.slash(server.channel, "mod defaults", timezone="Amsterdam"),
        await anna.slash(server.channel, "me settings"),
        await anna.slash(server.channel, "me quiet"),
        await anna.slash(server.channel, "game rules"),
        await anna.slash(server.channel, "game rules", game="toy"),
        await anna.slash(server.channel, "game list"),
        await anna.slash(server.channel, "game away", days=0),
        await anna.slash(server.channel, "game back"),
        await anna.slash(server.channel, "game join", game=42),
    ]
    for result in answers:
        message = result.response.message
        assert message is not None and (message.content or message.embeds), result
        # The answer's own words; an embed's body is a game's rules page or summary (the game's words, and its
        # reaction windows' the table's: other catalogs), so of an embed its frame: title, footer, field names.
        parts = [message.content]
        for embed in message.embeds:
            parts += [(embed.title or "").partition(" — ")[2], embed.footer.text or ""]
            parts += [field.name for field in embed.fields]
        text = "\n".join(p for p in parts if p)
        assert text and _unmarked(text) == [], text


def _unmarked(text: str) -> list[str]:
    """Words outside every ⟦…⟧, apart from code, mentions, links and the game's name."""
    while True:
        stripped = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
        if stripped == text:
            break
        text = stripped
    text = re.sub(r"`[^`]*`|<[^>]*>|https?://\S+", " ", text)
    return [w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in {"Toy", "toy"}]


def test_rules_pages_per_language_with_the_english_fallback(tmp_path: Path) -> None:
    (tmp_path / "toy.md").write_text("# Toy\n\nPlay cards.\n\n## Turns\n\nPlay one card.\n", encoding="utf-8")
    (tmp_path / "toy.nl.md").write_text("# Speelgoed\n\nSpeel kaarten.\n\n## Beurten\n\nSpeel een kaart.\n")
    dutch = load_rules("toy", tmp_path, language="nl")
    assert dutch is not None and dutch.title == "Speelgoed" and dutch.pages[0].title == "Beurten"
    german = load_rules("toy", tmp_path, language="de")  # no German page yet: the English one
    assert german is not None and german.title == "Toy" and german.intro == "Play cards."
    assert load_rules("toy", tmp_path, language="en").title == "Toy"  # type: ignore[union-attr]
    assert load_rules("nothing", tmp_path, language="nl") is None


async def test_a_rematch_keeps_the_tables_language(env: simcord.Env, locales: dict[int, str]) -> None:
    """The rematch's lobby and invitation are public: in the table's language (kept); the clicker's answer in theirs."""
    server = make_server(env)
    await _started(server, language="nl")
    mia = _moderator(server, env)
    thread = thread_of(server)
    await mia.slash(thread, "mod end")
    status = next(m for m in thread.history() if m.embeds and "Toy" in (m.embeds[0].title or ""))
    bert = server.members[1]
    locales[bert.id] = "de"
    clicked = await bert.click(status, custom_id="br:1:rematch")
    assert clicked.response.ephemeral
    assert clicked.response.content.startswith("🔁 Die Lobby der Revanche ist offen"), clicked.response.content
    assert (await server.bot.store.games.get(2)).options["language"] == "nl"
    invite = next(m for m in server.channel.history() if m.content.startswith("🔁 Revanche van Toy #1"))
    assert "Nederlands" in embed_text(invite)


async def test_autocomplete_choices_in_the_readers_language(env: simcord.Env, locales: dict[int, str]) -> None:
    server = make_server(env)
    anna, bert = server.members[0], server.members[1]
    locales[anna.id] = "nl"
    games = await anna.autocomplete(server.channel, "game new", "game", "to")
    assert [c["name"] for c in games] == ["Toy (2–5 spelers)"]
    assert [c["name"] for c in await bert.autocomplete(server.channel, "game new", "game", "to")] == [
        "Toy (2–5 players)"
    ]
    await anna.slash(server.channel, "game new", game="toy")
    picked = await anna.autocomplete(server.channel, "game join", "game", "")
    assert picked[0]["name"].startswith("#1 Toy (lobby in #"), picked
    locales[bert.id] = "de"
    assert (await bert.autocomplete(server.channel, "game join", "game", ""))[0]["name"].startswith("#1 Toy (Lobby in")
