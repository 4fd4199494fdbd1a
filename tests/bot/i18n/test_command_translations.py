"""The slash commands in Dutch and German (`bot.i18n.commands`): every translated name and description within
Discord's rules in each language, no two siblings with one name, every string of the real command tree translated,
and the synced payload carrying the translations while the bot still dispatches on the English names."""

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot import sync
from bot.client import BoardroomBot
from bot.i18n import translation
from bot.i18n.catalogs import check, extracted
from bot.i18n.command_tree import command_catalog, full_tree, strings
from bot.i18n.commands import DOMAIN, LOCALES, BoardroomTranslator, translate
from engine import registry
from tests.bot.cogs.test_command_limits import SUB_COMMAND, SUB_COMMAND_GROUP, name_problems, tree_problems
from tests.bot.helpers import make_server

LANGUAGES = ("nl", "de")


@pytest.fixture
async def translated() -> AsyncIterator[list[dict[str, Any]]]:
    """The real tree's payload as `tree.sync` sends it, through the bot's own translator."""
    tree, _ = await full_tree()
    assert isinstance(tree.translator, BoardroomTranslator)
    yield [await c.get_translated_payload(tree, tree.translator) for c in tree.get_commands()]
    await tree.set_translator(None)


def in_language(payload: dict[str, Any], lang: str, missing: list[str], where: str = "") -> dict[str, Any]:
    """`payload` as a person whose Discord speaks `lang` sees it: every name and description its translation (an
    untranslated one is written down in `missing` and kept in English)."""
    here = f"{where} {payload['name']}".strip()
    seen = dict(payload)
    for key in ("name", "description"):  # a choice has a name only
        if key not in payload:
            continue
        translations = payload.get(f"{key}_localizations") or {}
        if lang not in translations:
            missing.append(f"{here} ({key})")
        seen[key] = translations.get(lang, payload[key])
    if "value" in payload:  # a choice: its name is its only text
        return seen
    seen["options"] = [in_language(o, lang, missing, here) for o in payload.get("options") or []]
    if payload.get("choices"):
        seen["choices"] = [in_language(c, lang, missing, here) for c in payload["choices"]]
    return seen


def sibling_clashes(items: list[dict[str, Any]], where: str) -> list[str]:
    """Names given twice on one level (top-level commands, a group's subcommands, a command's options, an
    option's choices), and the same below."""
    clashes = [f"{where}: {name!r} twice" for name, n in Counter(i["name"] for i in items).items() if n > 1]
    for item in items:
        here = f"{where} {item['name']}"
        clashes += sibling_clashes(item.get("options") or [], here)
        clashes += sibling_clashes(item.get("choices") or [], f"{here} (choices)")
    return clashes


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_every_translated_name_and_description_keeps_discords_rules(
    translated: list[dict[str, Any]], lang: str
) -> None:
    missing: list[str] = []
    seen = [in_language(c, lang, missing) for c in translated]
    assert missing == []
    assert tree_problems(seen) == []  # names 1–32, lower case, Discord's pattern; descriptions and choices 1–100
    assert sibling_clashes(seen, "") == []
    # The translations are really there (not the English kept): a few a Dutch or German player types.
    names = {c["name"] for c in seen}
    assert {"nl": {"spel", "ik", "mijn"}, "de": {"spiel", "ich", "meins"}}[lang] <= names
    assert {"kkk", "kr", "cb", "sm", "mod"} <= names  # the games' own groups keep their names
    game = next(c for c in seen if c["name"] in ("spel", "spiel"))
    assert {"nl": "nieuw", "de": "neu"}[lang] in {o["name"] for o in game["options"] if o["type"] == SUB_COMMAND}


def test_the_name_check_refuses_what_discord_refuses() -> None:
    assert name_problems("spiel_neu", "x") == [] and name_problems("zurück", "x") == []
    assert name_problems("einspruch_zurückziehen", "x") == []
    assert len(name_problems("Neu", "x")) == 1 and len(name_problems("geen bezwaar", "x")) == 1
    assert len(name_problems("x" * 33, "x")) == 1 and len(name_problems("", "x")) == 1


def test_siblings_with_one_name_are_found() -> None:
    tree = [
        {"name": "spel", "options": [{"name": "nieuw", "type": SUB_COMMAND}, {"name": "nieuw", "type": SUB_COMMAND}]},
        {"name": "spel", "options": [{"name": "g", "type": SUB_COMMAND_GROUP, "options": []}]},
    ]
    assert sibling_clashes(tree, "") == [": 'spel' twice", " spel: 'nieuw' twice"]


def test_every_string_of_the_tree_has_its_translation_in_the_compiled_catalogs() -> None:
    found = strings()
    assert {f.location for f in found} >= {
        Where.group_name,
        Where.group_description,
        Where.command_name,
        Where.command_description,
        Where.parameter_name,
        Where.parameter_description,
        Where.choice_name,
    }
    for lang in LANGUAGES:
        compiled = translation(DOMAIN, lang)._catalog  # type: ignore[attr-defined]  # gettext's own table
        missing = [(f.context, f.message) for f in found if not compiled.get(f"{f.context}\x04{f.message}")]
        assert missing == [], lang
        report = check(DOMAIN, lang, command_catalog(found))
        assert report.ok, report.line()


def test_the_template_is_the_tree() -> None:
    """The `commands` domain's template (what `extract commands` writes) holds every string of the tree, each with
    its location as its context: one English word can be a name and a description, translated apart."""
    template = extracted(DOMAIN)
    keys = {(m.context, m.id) for m in template if m.id}
    assert ("group_name", "game") in keys and ("parameter_name", "game") in keys
    assert ("command_name", "new") in keys and ("parameter_name", "new") in keys
    assert ("choice_name", "easy") in keys
    assert {(f.context, f.message) for f in strings()} == keys


async def test_the_translator_speaks_dutch_and_german_only() -> None:
    translator = BoardroomTranslator()
    game = app_commands.locale_str("game")
    for locale, expected in ((discord.Locale.dutch, "spel"), (discord.Locale.german, "spiel")):
        assert LOCALES[locale] in LANGUAGES
        assert translate("game", locale, "group_name") == expected
        assert translate("Which game", locale, "parameter_description") != "Which game"
    for locale in (discord.Locale.american_english, discord.Locale.british_english, discord.Locale.french):
        assert translate("game", locale, "group_name") is None

    class Context:
        location = Where.choice_name
        data = app_commands.Choice(name="easy", value="easy")

    assert await translator.translate(game, discord.Locale.french, Context()) is None  # type: ignore[arg-type]
    assert await translator.translate(app_commands.locale_str("easy"), discord.Locale.german, Context()) == "leicht"  # type: ignore[arg-type]


def test_one_occurrence_can_have_its_own_context() -> None:
    """`to:` is where a seat or an offer goes (German `an`), but in `/me quiet` the end of the quiet hours (`bis`)
    and in `/cb move` a building (`nach`)."""
    assert translate("to", discord.Locale.german, "parameter_name") == "an"
    assert translate("to", discord.Locale.german, "parameter_name /me quiet to:") == "bis"
    assert translate("to", discord.Locale.german, "parameter_name /cb move to:") == "nach"


# --- through SimCord: the sync and the dispatch -----------------------------------------------------------------


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot]) -> BoardroomBot:
    return make_bot(games=dict(registry.games()), presentations={})


def _find(items: list[dict[str, Any]], name: str) -> dict[str, Any]:
    return next(i for i in items if i["name"] == name)


async def test_the_synced_commands_carry_their_dutch_and_german_names(env: simcord.Env) -> None:
    synced = list(env.backend.commands[None].values())
    game = _find(synced, "game")
    assert game["name_localizations"] == {"nl": "spel", "de": "spiel"}
    assert set(game["description_localizations"]) == {"nl", "de"}
    new = _find(game["options"], "new")
    assert new["name_localizations"] == {"nl": "nieuw", "de": "neu"}
    assert new["description_localizations"]["de"].startswith("Eröffne")
    level = _find(new["options"], "level")
    assert level["name_localizations"] == {"nl": "niveau", "de": "stärke"}
    assert set(level["description_localizations"]) == {"nl", "de"}
    easy = _find(level["choices"], "easy")
    assert easy == {"name": "easy", "value": "easy", "name_localizations": {"nl": "makkelijk", "de": "leicht"}}
    to = _find(_find(_find(synced, "cb")["options"], "move")["options"], "to")
    assert to["name_localizations"] == {"nl": "naar", "de": "nach"}
    kkk = _find(synced, "kkk")
    assert kkk["name_localizations"] == {"nl": "kkk", "de": "kkk"}  # a game's group keeps its name
    for command in synced:
        assert set(command["name_localizations"]) == {"nl", "de"}, command["name"]


async def test_commands_still_dispatch_on_their_english_names(env: simcord.Env) -> None:
    server = make_server(env)
    opened = await server.members[0].slash(server.channel, "game new", game="kesse_ruegen", level="easy")
    assert opened.response is not None and server.channel.threads


async def test_a_changed_translation_changes_the_sync_hash(tmp_path: Path) -> None:
    tree, _ = await full_tree()
    before = sync.tree_hash(tree, None, await sync.payloads(tree, None))

    class Other(BoardroomTranslator):
        async def translate(self, string, locale, context):  # type: ignore[no-untyped-def]
            found = await super().translate(string, locale, context)
            return found and found + "x" if context.location is Where.group_name else found

    await tree.set_translator(Other())
    assert sync.tree_hash(tree, None, await sync.payloads(tree, None)) != before
    await tree.set_translator(None)
    assert sync.tree_hash(tree, None, await sync.payloads(tree, None)) == sync.tree_hash(tree, None)


def test_strings_can_be_read_from_inside_an_event_loop() -> None:
    async def inside() -> int:
        return len(strings())

    assert asyncio.run(inside()) == len(strings())
