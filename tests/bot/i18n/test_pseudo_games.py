"""Whole games through Discord (SimCord) in the pseudo-language, in Dutch and in German, and a table of two languages.

1. The seeded whole games (`tests/bot/games/test_seeded_games.py`'s `CASES`, and Kohle, Kies & Knete's
   `kkk/test_seeded_game.py`) are played once, in the pseudo-language `qps` (`bot.i18n.forced`: every context speaks
   it): the same run asserts the table meter's goals (issue 26; a message count doesn't depend on the language) and
   that not one word a person could read was left unmarked — messages, embeds, buttons, selects, modals, DMs,
   ephemeral answers, suggestions, thread names and the words on pictures (`pseudo.Transcript`, checked by
   `unwrapped`). The transcript stores every text without its ⟦ ⟧ marks, so the games' own checks read English.
2. A short whole game of each game at a Dutch and at a German table (`/game new options: language=nl`), every
   player's Discord in that language too: it ends; no message shown fell back to its English id (the catalog lacked
   it: `pseudo.Lookups`); and the catalog's own translations of messages shown (read from the catalog, not written
   here) appear in what the players read.
3. A Dutch table where one player's Discord speaks English: their private answers are in English, the others' in
   Dutch.
"""

import time
from typing import Any

import pytest
import simcord

from bot.client import BoardroomBot
from bot.i18n import DEFAULT, translation
from engine import registry
from tests.bot.games.kkk.test_seeded_game import play_the_seeded_game
from tests.bot.games.test_seeded_games import CASES, NAMES, Case, play
from tests.bot.helpers import embed_text, make_server, move
from tests.bot.i18n.pseudo import Lookup, Lookups, Transcript, discord_locales, new_table_in

KINDS = ("kkk", "kesse_ruegen", "casablanca", "schwarzmarkt")


@pytest.fixture
def simcord_bot(make_bot: Any) -> BoardroomBot:
    return make_bot(games={k: registry.get(k) for k in KINDS}, presentations={})


# --- 1. the seeded games in the pseudo-language -------------------------------------------------------------------


def proper_names(game: str) -> set[str]:
    """The game's own proper names, the same in every language: Casablanca's agents (and the first letters of their
    names on the picture's badges), Schwarzmarkt's black-market cards as printed on the German cards (shown beside
    their name in the table's language), Kohle, Kies & Knete's families. Read from the game's data, not listed here."""
    if game.startswith("casablanca"):
        import tomllib
        from pathlib import Path

        import engine.casablanca

        data = tomllib.loads((Path(engine.casablanca.__file__).parent / "data" / "map.toml").read_text())
        agents = [a["name"] for a in data["agents"]]
        return {*agents, *(a[:2] for a in agents)}
    if game == "schwarzmarkt":
        from bot.games.schwarzmarkt.words import PRINTED

        return set(PRINTED.values())
    if game == "kkk":
        from engine.kkk.cards import FAMILY_NAMES

        return set(FAMILY_NAMES.values())
    return set()


@pytest.mark.parametrize("name", list(CASES))
async def test_a_seeded_game_in_the_pseudo_language_is_quiet_clear_and_fully_marked(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    transcript = Transcript.install(env, monkeypatch, pseudo=True, names=[*NAMES, *proper_names(name)])
    try:
        figures, forms = await play(env, CASES[name])
    finally:
        print(f"\n{name}: {transcript.offenders.report()}")
    print(f"{name}: {figures.row()}\nforms: {forms}")
    figures.assert_quiet(CASES[name].per_step)
    transcript.assert_all_wrapped()


async def test_the_kkk_seeded_game_in_the_pseudo_language_is_fully_marked(
    env: simcord.Env, make_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcript = Transcript.install(env, monkeypatch, pseudo=True, names=[*NAMES, *proper_names("kkk")])
    try:
        await play_the_seeded_game(env, make_bot)  # with the meter's goals and all of its own checks
    finally:
        print(f"\nkkk: {transcript.offenders.report()}")
    transcript.assert_all_wrapped()


# --- 2. whole games in Dutch and German -------------------------------------------------------------------------

SHORT = {
    "kkk": Case("kkk", 3, seed=44),
    "kesse_ruegen": Case("kesse_ruegen", 2, seed=53),
    "casablanca": Case("casablanca", 2, "variant=hq", seed=20),
    "schwarzmarkt": Case("schwarzmarkt", 3, seed=3),
}
"""Short whole games of each, to keep the suite's time flat: the fewest players, and among seeds 1–80 (played on the
engines alone with the same policies, seat order and timeouts as `play`) one of the shortest — 90, 85, 42 and 81
steps. Casablanca's main game is played in the pseudo-language (`CASES`); its HQ variant ends soonest here (the
shortest main game of two or three players takes 122 steps)."""


def found_in(lookups: list[Lookup], said: str) -> list[Lookup]:
    """The lookups whose translation (a whole message without values) is in `said`."""
    return [x for x in lookups if "%(" not in x.message and x.said in said]


@pytest.mark.parametrize("language", ["nl", "de"])
@pytest.mark.parametrize("name", list(SHORT))
async def test_a_whole_game_at_a_dutch_or_german_table(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch, name: str, language: str
) -> None:
    discord_locales(monkeypatch, {}, language)
    transcript = Transcript.install(env, monkeypatch, names=NAMES)
    lookups = Lookups.install(monkeypatch)
    started = time.monotonic()
    case = SHORT[name]
    figures, _ = await play(env, case, english=False, new=new_table_in(language, case.options))  # to its end
    print(f"\n{name} in {language}: {figures.steps} steps, {time.monotonic() - started:.1f}s")

    # Nothing shown fell back to English: every message looked up in the table's language is in its catalog.
    missing = lookups.untranslated(language)
    assert missing == [], f"{len(missing)} messages shown in English at a {language} table: " + "; ".join(
        f"{x.domain}: {x.message!r}" for x in missing[:20]
    )
    assert not [x for x in lookups.log if x.language == DEFAULT], "an English lookup at a table of one language"
    # The catalog's words are what the players read: the game's own and the platform's.
    said = "\n".join(transcript.texts)
    for domain, least in ((SHORT[name].kind, 5), ("platform", 3)):
        shown = lookups.shown(language, domain)
        found = found_in(shown, said)
        assert len(found) >= least, (
            f"{domain}: {len(found)} of {len(shown)} translated messages found in what the table read "
            f"(at least {least}): {[x.said for x in found[:10]]}"
        )


# --- 3. a table of two languages ----------------------------------------------------------------------------------


async def test_a_dutch_table_answers_a_reader_whose_discord_speaks_english_in_english(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """anna's Discord speaks English, bert's Dutch, the table Dutch: `/game help` and `/game hand` answer each in
    their own language, and anna's own move is told to the table in Dutch."""
    discord_locales(monkeypatch, {"anna": "en-US"}, "nl")
    transcript = Transcript.install(env, monkeypatch, names=NAMES)
    lookups = Lookups.install(monkeypatch)
    server = make_server(env, NAMES[:2])
    anna, bert = server.members
    new = new_table_in("nl", "first_seat=me")
    opened = await anna.slash(server.channel, "game new", game="kesse_ruegen", random_order=False, **new)
    bot: BoardroomBot = env.bot  # type: ignore[assignment]
    assert await bot.store.games.find(), f"no Dutch table: {opened.response.content}"
    game_id = (await bot.store.games.find())[-1].id
    await bert.click(opened.response, custom_id=f"br:{game_id}:join")
    await anna.click(opened.response, custom_id=f"br:{game_id}:start")
    record = await bot.store.games.get(game_id)
    assert record.status == "active" and record.options.get("language") == "nl"
    thread = next(t for t in server.channel.threads if t.id == record.thread_id)

    answers: dict[str, dict[str, str]] = {}
    seen: list[Lookup] = []
    for command in ("game help", "game hand"):
        for member, language in ((anna, "en"), (bert, "nl")):
            lookups.log.clear()
            asked = await member.slash(thread, command)
            assert asked.response is not None and asked.ephemeral, (command, member.name)
            seen += lookups.log
            words = {x.language for x in lookups.log}
            assert words == {language}, f"/{command} for {member.name}: looked up in {words}, not only {language}"
            answers.setdefault(command, {})[member.name] = embed_text(asked.response.message)
        # The two answers differ: one English, one Dutch — with the catalog's Dutch in bert's.
        assert answers[command]["anna"] != answers[command]["bert"], command
    dutch = Lookups(seen).shown("nl", "platform") + Lookups(seen).shown("nl", "kesse_ruegen")
    assert found_in(dutch, answers["game help"]["bert"] + answers["game hand"]["bert"]), answers

    # anna moves (she begins): what the table is told of it is Dutch, though her own Discord speaks English.
    game = bot.service.read.game("kesse_ruegen")
    table = await bot.service.read.table(game_id)
    assert table.state is not None
    legal = game.legal_actions(table.state, 0)
    assert legal, "anna (seat 1, first_seat=me) has no move"
    before = len(transcript.texts)
    lookups.log.clear()
    await anna.slash(thread, "game move", action=move(game.dump_action(legal[0])))
    new_texts = list(transcript.texts.items())[before:]
    public = [t for t, where in new_texts if "ephemeral" not in where and "DM" not in where]
    assert public, "anna's move told the table nothing"
    told = "\n".join(public)
    english = {x.message for x in lookups.log if x.language == "en" and "%(" not in x.message}
    leaked = [m for m in english if m in told and translation("kesse_ruegen", "nl").gettext(m) != m]
    assert not leaked, f"English at the Dutch table after anna's move: {leaked}"
    assert found_in(lookups.shown("nl", "kesse_ruegen") + lookups.shown("nl", "platform"), told), public
