"""Casablanca in Dutch and German: the same renderings as the pseudo-language test (whole seeded games, every
refusal code, the rules summary and the options' help) differ from the English wherever a translation exists, and
keep to Discord's limits."""

import re

import pytest

from bot.i18n import speaking
from tests.bot.games.casablanca import rendering
from tests.engine.casablanca.helpers import new_game

LIMITS = {
    "button": 80,
    "option": 100,
    "title": 256,
    "field_name": 256,
    "field": 1024,
    "description": 4096,
    "content": 2000,
    "footer": 2048,
    "form_title": 45,
    "form_label": 45,
    "placeholder": 100,
}
AGENTS = [a.name for a in rendering.GAME.map.agents]
SAME_IN_ALL = {
    *rendering.NAMES,
    *(w for name in AGENTS for w in name.split()),
    *("Casablanca", "Details", "deadline", "Hotel", "Airport", "Rick", "s", "Café", "Bazaar", "DM"),
}
"""Words that may stay as they are in a translation: names, the board's names (the Dutch rulebook keeps "Airport",
"Hotel", "Rick's Café"; "Bazaar" in Dutch), loanwords."""
WORD = re.compile(r"[^\W\d_]+")


def english_and(lang: str, render: object) -> tuple[list[rendering.Shown], list[rendering.Shown]]:
    with speaking("en"):
        english = render()  # type: ignore[operator]
    with speaking(lang):
        translated = render()  # type: ignore[operator]
    return english, translated


def untranslated(english: list[rendering.Shown], translated: list[rendering.Shown]) -> list[str]:
    """Lines that came through in English: the same as the English rendering's line, and not made only of names.
    The platform's own lines around the game's words ("⏳ …'s turn: {task} — deadline …") are the platform's."""
    assert len(english) == len(translated)
    out = []
    for en, tr in zip(english, translated, strict=True):
        assert en.what == tr.what
        en_lines, tr_lines = en.text.splitlines(), tr.text.splitlines()
        if len(en_lines) != len(tr_lines):
            continue  # a different shape: not the English
        for en_line, tr_line in zip(en_lines, tr_lines, strict=True):
            if en_line != tr_line or en_line.startswith("⏳"):
                continue
            if any(word not in SAME_IN_ALL for word in WORD.findall(en_line)):
                out.append(en_line)
    return out


def over_limits(shown: list[rendering.Shown]) -> list[tuple[str, int, str]]:
    return [(s.what, len(s.text), s.text[:80]) for s in shown if len(s.text) > LIMITS.get(s.what, 10_000)]


# One game per language, the main game and the variant between them (the whole SimCord games in Dutch and German are
# tests/bot/i18n's): each whole game costs ~10 s of the suite's time.
@pytest.mark.parametrize(("lang", "seats", "seed", "variant"), [("de", 3, 5, False), ("nl", 4, 2, True)])
def test_a_whole_seeded_game_is_translated_and_within_discords_limits(
    lang: str, seats: int, seed: int, variant: bool
) -> None:
    english, translated = english_and(lang, lambda: rendering.game_texts(seats, seed, variant=variant, every=4))
    left = untranslated(english, translated)
    assert not left, left[:10]
    assert not over_limits(translated)
    assert not over_limits(english)


@pytest.mark.parametrize("lang", ["nl", "de"])
def test_every_refusal_is_translated(lang: str) -> None:
    state = new_game(3)
    with speaking("en"):
        english = rendering.refusal_texts(state)
    with speaking(lang):
        translated = rendering.refusal_texts(state)
    same = [code for code in english if english[code] == translated[code]]
    assert not same
    assert all(len(text) <= 2000 for text in translated.values())


@pytest.mark.parametrize("lang", ["nl", "de"])
def test_the_rules_summary_and_the_options_help_are_translated(lang: str) -> None:
    english, translated = english_and(lang, rendering.other_texts)
    assert not untranslated(english, translated)


def test_the_dutch_and_german_words_are_the_rulebooks() -> None:
    """A few glossary terms as they come out (docs/glossary/casablanca.nl.md, .de.md)."""
    play = rendering.table(new_game(3))
    with speaking("nl"):
        status = rendering.PRESENTATION.status(play)
        assert "koffer" in (status.description or "").lower()
        assert "Mijn omkoopformulier" in [b.label for b in status.buttons]
    with speaking("de"):
        status = rendering.PRESENTATION.status(play)
        assert "Koffer" in (status.description or "")
        assert "Meine Bestechungsliste" in [b.label for b in status.buttons]


def test_a_dutch_or_german_colour_is_read_back_as_the_engines() -> None:
    from bot.games.casablanca.commands import parse_amounts
    from bot.games.casablanca.maptext import building_key

    with speaking("nl"):
        assert parse_amounts("paars 1300, groen 500, grijs 400") == {"purple": 1300, "green": 500, "grey": 400}
        assert building_key("Politiebureau") == "Police Station"
    with speaking("de"):
        assert parse_amounts("lila 1300, grün 500, weiß 400") == {"purple": 1300, "green": 500, "white": 400}
        assert building_key("Basar") == "Bazaar"
